// Counts heap allocations by defining malloc and its relatives, which the dynamic linker then
// uses for the whole process, and forwarding each call to glibc's own implementation.
//
// Sanitizers replace malloc themselves, so in a sanitized build, and anywhere but glibc, this
// file defines nothing but the queries, which report that counting is off.

#include "AllocationCounter.h"

#include <stddef.h>
#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__has_feature)
#  if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#    define ALLOCATION_COUNTER_SANITIZED 1
#  endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(ALLOCATION_COUNTER_SANITIZED)

#include <errno.h>
#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

// Per thread, so that a measurement counts only what its own thread does, even while other
// threads (other tests, say) allocate. Initial-exec TLS needs no allocation to reach, which
// matters inside malloc itself.
static _Thread_local unsigned long long allocations
    __attribute__((tls_model("initial-exec"))) = 0;
static _Thread_local long long live_bytes __attribute__((tls_model("initial-exec"))) = 0;

static void *counted(void *pointer) {
  if (pointer) {
    allocations += 1;
    live_bytes += (long long)malloc_usable_size(pointer);
  }
  return pointer;
}

static void uncounted(void *pointer) {
  if (pointer) {
    live_bytes -= (long long)malloc_usable_size(pointer);
  }
}

void *malloc(size_t size) { return counted(__libc_malloc(size)); }

void *calloc(size_t count, size_t size) { return counted(__libc_calloc(count, size)); }

void *realloc(void *pointer, size_t size) {
  uncounted(pointer);
  return counted(__libc_realloc(pointer, size));
}

void *memalign(size_t alignment, size_t size) {
  return counted(__libc_memalign(alignment, size));
}

void *aligned_alloc(size_t alignment, size_t size) {
  return counted(__libc_memalign(alignment, size));
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  void *pointer = counted(__libc_memalign(alignment, size));
  if (!pointer) return ENOMEM;
  *result = pointer;
  return 0;
}

void free(void *pointer) {
  uncounted(pointer);
  __libc_free(pointer);
}

int allocation_counter_is_active(void) { return 1; }

unsigned long long allocation_counter_allocations(void) { return allocations; }

long long allocation_counter_live_bytes(void) { return live_bytes; }

#else

int allocation_counter_is_active(void) { return 0; }

unsigned long long allocation_counter_allocations(void) { return 0; }

long long allocation_counter_live_bytes(void) { return 0; }

#endif
