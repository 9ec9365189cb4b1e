// AddressSanitizer and SystemC's coroutines (docs/reliability.md, "Sanitizers and SystemC's
// threads"). Debian's SystemC 2.3.4 tells ASan about its coroutine switches, but names the main
// stack as "null, size 0" and does not announce the switch away from a thread that has ended. ASan
// then believes the main stack is a coroutine's (or empty), ignores the stack cleanup of every
// later exception on it, and reports false stack-use-after-scope errors. In a sanitized build this
// module corrects both; in any other build it does nothing.
#pragma once

namespace pmusim::sanitizer_fibers {

// Call after sc_core::sc_start() returns, before anything may throw: re-announces the main
// thread's stack, which a thread that ended during the run left unannounced.
void main_stack_resumed();

} // namespace pmusim::sanitizer_fibers
