// A counting global operator new, for the tests that prove a path allocates
// nothing (or little). Include it in exactly one source file of a test binary
// (each tests/*_test.cc is its own binary): it replaces the global allocation
// functions of that binary. `g_allocations` counts every allocation; once a test
// sets `g_trace`, each one also calls TraceHook, a breakpoint for gdb (`break
// TraceHook`, `commands` / `bt 10` / `continue`) to see where they come from.
#ifndef WARGAME_TESTS_COUNTING_NEW_H_
#define WARGAME_TESTS_COUNTING_NEW_H_

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocations{0};
bool g_trace = false;
}  // namespace
extern "C" __attribute__((noinline)) void TraceHook() { asm volatile(""); }

// Not inlined (yaml-cpp headers would otherwise pair it with the sized delete).
__attribute__((noinline)) void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (g_trace) TraceHook();
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
// The nothrow form too (std::stable_partition's temporary buffer uses it, then frees
// it with the sized delete below): otherwise a sanitizer's own nothrow new allocates
// what this file's delete frees (alloc-dealloc-mismatch).
__attribute__((noinline)) void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (g_trace) TraceHook();
  return std::malloc(n ? n : 1);
}
// Not inlined, so GCC does not pair the caller's `new` with this `free`.
__attribute__((noinline)) void operator delete(void* p) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete(void* p, std::size_t) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

#endif  // WARGAME_TESTS_COUNTING_NEW_H_
