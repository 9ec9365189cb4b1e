#pragma once
// Arm semihosting (Arm "Semihosting for AArch32 and AArch64", version 2.0) apart from the CPU: the
// operations of docs/firmware.md "Leaving: semihosting" over a small host interface (memory,
// console, time), so that they can be tested with a fake memory. The CPU (iss/semihosting_port.cpp)
// decodes HLT #0xF000, passes W0 and X1, writes X0 and steps past the instruction; QEMU keeps its
// semihosting outside the CPU the same way.
#include <cstdint>
#include <string>

#include "models/sim_time.h"

namespace pmusim {

// What the operations need from the CPU and its platform.
class semihosting_host {
public:
    virtual ~semihosting_host() = default;
    // Plain memory at an address as the CPU's loads see it: false when it cannot be read or
    // written (outside memory, a unit window); nothing is written then.
    virtual bool read(uint64_t address, void* bytes, uint64_t length) = 0;
    virtual bool write(uint64_t address, const void* bytes, uint64_t length) = 0;
    // The byte at `address` is plain memory (not a window, not unmapped).
    virtual bool plain_memory(uint64_t address) const = 0;
    // One line the program printed on stdout (without its newline), and text it wrote to stderr.
    virtual void output_line(const std::string& line) = 0;
    virtual void error_output(const std::string& text) = 0;
    // Simulated time now, and when the program started.
    virtual fs_t now() const = 0;
    virtual fs_t started() const = 0;
    // SYS_HEAPINFO: the end of the highest loaded segment, and the top of the memory region the
    // program runs in.
    virtual uint64_t image_end() const = 0;
    virtual uint64_t memory_top() const = 0;
    // An operation this implementation does not support was called (it returns -1): for the log.
    virtual void unsupported(uint32_t op) = 0;
};

// What a call did.
struct semihosting_outcome {
    enum class kind {
        returned, // the result is in `result` (X0); the CPU steps past the HLT
        exited,   // SYS_EXIT / SYS_EXIT_EXTENDED: the program ended (passed, status, message)
        error,    // the firmware's error that stops the run (exit 2): `message` says what
    };
    kind k = kind::returned;
    uint64_t result = 0;
    bool passed = false;  // exited: ADP_Stopped_ApplicationExit with subcode 0
    uint64_t status = 0;  // exited: the subcode
    std::string message;  // exited: why it failed; error: what was wrong
};

class semihosting {
public:
    // Operation numbers (semihosting specification, section 5).
    enum : uint32_t {
        sys_open = 0x01, sys_close = 0x02, sys_writec = 0x03, sys_write0 = 0x04, sys_write = 0x05, sys_read = 0x06,
        sys_iserror = 0x08, sys_istty = 0x09, sys_flen = 0x0c, sys_clock = 0x10, sys_time = 0x11, sys_errno = 0x13,
        sys_get_cmdline = 0x15, sys_heapinfo = 0x16, sys_exit = 0x18, sys_exit_extended = 0x20, sys_elapsed = 0x30,
        sys_tickfreq = 0x31,
    };
    static constexpr uint64_t adp_stopped_application_exit = 0x20026;
    // Handles SYS_OPEN gives for ":tt" (0 is not a valid handle).
    static constexpr uint64_t handle_stdin = 1, handle_stdout = 2, handle_stderr = 3;
    // Bounded reads of the firmware's strings and buffers: a chunk at a time.
    static constexpr uint64_t max_chunk = 1u << 16;
    static constexpr uint64_t stack_reserve = 64u << 10;

    // Performs operation `op` with parameter `param` (X1).
    semihosting_outcome call(semihosting_host& host, uint32_t op, uint64_t param);
    // stdout text not yet ended by a newline (the run ended): taken, and cleared.
    std::string take_partial_line();

private:
    void out(semihosting_host& host, uint64_t handle, const std::string& text);
    std::string stdout_line_;
};

} // namespace pmusim
