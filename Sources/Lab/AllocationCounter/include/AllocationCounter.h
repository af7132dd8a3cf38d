#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

/// Whether this process counts its heap allocations: true on Linux with glibc, in builds
/// without a sanitizer (sanitizers replace malloc themselves).
int allocation_counter_is_active(void);

/// How many times the calling thread has called malloc, calloc, realloc or an aligned
/// allocation so far.
unsigned long long allocation_counter_allocations(void);

/// Bytes the calling thread has allocated less the bytes it has freed, as malloc_usable_size
/// reports them; compare two readings on one thread.
long long allocation_counter_live_bytes(void);

#endif
