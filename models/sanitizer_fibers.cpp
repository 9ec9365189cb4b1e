#include "models/sanitizer_fibers.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMUSIM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PMUSIM_ASAN 1
#endif

#ifdef PMUSIM_ASAN
#include <dlfcn.h>
#include <pthread.h>
#include <cstddef>

namespace {

struct stack_bounds {
    const void* bottom = nullptr;
    size_t size = 0;
};

// The main thread's stack as glibc knows it (independent of the stack the caller runs on).
const stack_bounds& main_stack() {
    static const stack_bounds bounds = [] {
        stack_bounds b;
        pthread_attr_t attr;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            void* addr = nullptr;
            size_t size = 0;
            if (pthread_attr_getstack(&attr, &addr, &size) == 0) b = {addr, size};
            pthread_attr_destroy(&attr);
        }
        return b;
    }();
    return bounds;
}

} // namespace

extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size);
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, size_t* size_old);
}

#ifndef __clang__
// GCC links ASan's runtime as a shared library, so the executable's definition of its entry point
// comes first in symbol lookup and libsystemc's reference binds here: SystemC's switch to the
// main coroutine passes no stack, this passes the main thread's real one. (clang links the runtime
// into the executable, where it cannot be interposed; there only main_stack_resumed() helps.)
extern "C" void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size) {
    using start_switch_fn = void (*)(void**, const void*, size_t);
    static const auto real = reinterpret_cast<start_switch_fn>(dlsym(RTLD_NEXT, "__sanitizer_start_switch_fiber"));
    if (bottom == nullptr) {
        bottom = main_stack().bottom;
        size = main_stack().size;
    }
    if (real) real(fake_stack_save, bottom, size);
}
#endif

namespace pmusim::sanitizer_fibers {

void main_stack_resumed() {
    if (!main_stack().bottom) return;
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, main_stack().bottom, main_stack().size);
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
}

} // namespace pmusim::sanitizer_fibers

#else

namespace pmusim::sanitizer_fibers {
void main_stack_resumed() {}
} // namespace pmusim::sanitizer_fibers

#endif
