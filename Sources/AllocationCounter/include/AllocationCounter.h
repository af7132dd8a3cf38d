#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

/// Whether this process counts its heap allocations: true on Linux with glibc, in builds
/// without a sanitizer (sanitizers replace malloc themselves).
int allocation_counter_is_active(void);

/// How many times malloc, calloc, realloc or an aligned allocation has been called so far.
unsigned long long allocation_counter_allocations(void);

/// Bytes currently allocated on the heap, as malloc_usable_size reports them.
long long allocation_counter_live_bytes(void);

#endif
