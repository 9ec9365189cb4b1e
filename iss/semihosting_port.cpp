// Arm semihosting for the ISS (Arm "Semihosting for AArch32 and AArch64", version 2.0):
// HLT #0xF000, operation in W0, parameter in X1, result in X0. docs/firmware.md lists the calls.
#include <fmt/format.h>
#include <iostream>
#include <unicorn/unicorn.h>

#include "iss/aarch64_iss.h"
#include "models/memory.h"
#include "vp/platform.h"
#include "vp/run_recorder.h"

namespace pmusim {

namespace {
// Operation numbers (semihosting specification, section 5).
enum : uint32_t {
    sys_open = 0x01, sys_close = 0x02, sys_writec = 0x03, sys_write0 = 0x04, sys_write = 0x05, sys_read = 0x06,
    sys_iserror = 0x08, sys_istty = 0x09, sys_flen = 0x0c, sys_clock = 0x10, sys_time = 0x11, sys_errno = 0x13,
    sys_get_cmdline = 0x15, sys_heapinfo = 0x16, sys_exit = 0x18, sys_exit_extended = 0x20, sys_elapsed = 0x30,
    sys_tickfreq = 0x31,
};
constexpr uint64_t adp_stopped_application_exit = 0x20026;
// Handles SYS_OPEN gives for ":tt" (0 is not a valid handle).
constexpr uint64_t handle_stdin = 1, handle_stdout = 2, handle_stderr = 3;
constexpr uint64_t max_string = 1u << 16; // bounded reads of firmware strings and buffers
constexpr uint64_t stack_reserve = 64u << 10;
} // namespace

void aarch64_iss::semihosting_call(uint64_t pc) {
    uint32_t op = uint32_t(read_x(0));
    uint64_t param = read_x(1);
    auto word = [&](uint64_t i) {
        uint64_t v = 0;
        if (uc_mem_read(uc_, param + 8 * i, &v, 8) != UC_ERR_OK)
            fail(2, fmt::format("{}: semihosting call {:#x}: parameter block at {:#x} is outside memory", where(pc), op, param));
        return v;
    };
    auto bytes = [&](uint64_t address, uint64_t length) {
        if (length > max_string) length = max_string;
        std::string s(length, '\0');
        if (length && uc_mem_read(uc_, address, s.data(), length) != UC_ERR_OK)
            fail(2, fmt::format("{}: semihosting call {:#x}: buffer at {:#x} is outside memory", where(pc), op, address));
        return s;
    };
    auto out = [&](uint64_t handle, const std::string& text) {
        if (handle == handle_stderr) {
            std::cerr << text;
            return;
        }
        // stdout: whole lines into the run's log, so they sit in order with its other lines.
        for (char c : text) {
            if (c == '\n') {
                rec_.program_output(stdout_line_);
                stdout_line_.clear();
            } else {
                stdout_line_ += c;
            }
        }
    };
    int64_t result = 0;
    switch (op) {
    case sys_open: {
        std::string name = bytes(word(0), word(2));
        uint64_t mode = word(1);
        result = name != ":tt" ? -1 : mode <= 3 ? int64_t(handle_stdin) : mode <= 7 ? int64_t(handle_stdout) : int64_t(handle_stderr);
        break;
    }
    case sys_close: result = word(0) >= handle_stdin && word(0) <= handle_stderr ? 0 : -1; break;
    case sys_writec: out(handle_stdout, bytes(param, 1)); break;
    case sys_write0: {
        // The whole string, however long, a chunk at a time (bounded memory); one that runs off
        // plain memory is the firmware's error: the run stops naming it.
        std::string chunk;
        for (uint64_t a = param;; ++a) {
            char c = 0;
            if (uc_mem_read(uc_, a, &c, 1) != UC_ERR_OK)
                fail(2, fmt::format("{}: SYS_WRITE0: the string at {:#x} runs outside memory at {:#x} (no NUL)", where(pc),
                                    param, a));
            if (!c) break;
            chunk += c;
            if (chunk.size() == max_string) {
                out(handle_stdout, chunk);
                chunk.clear();
            }
        }
        out(handle_stdout, chunk);
        break;
    }
    case sys_write: {
        // Returns the number of bytes NOT written (semihosting 2.0, SYS_WRITE): 0 when all were;
        // a buffer (or its tail) outside plain memory is not written, and counts.
        uint64_t h = word(0), address = word(1), length = word(2);
        if (h != handle_stdout && h != handle_stderr) { result = int64_t(length); break; }
        uint64_t done = 0;
        std::string chunk;
        while (done < length) {
            chunk.resize(std::min<uint64_t>(max_string, length - done));
            if (!in_plain_memory(address + done) || !in_plain_memory(address + done + chunk.size() - 1) ||
                uc_mem_read(uc_, address + done, chunk.data(), chunk.size()) != UC_ERR_OK)
                break;
            out(h, chunk);
            done += chunk.size();
        }
        result = int64_t(length - done);
        break;
    }
    case sys_read: result = int64_t(word(2)); break; // EOF: nothing read
    case sys_iserror: result = int64_t(word(0)) < 0 ? 1 : 0; break;
    case sys_istty: result = word(0) >= handle_stdin && word(0) <= handle_stderr ? 1 : 0; break;
    case sys_flen: result = -1; break;
    case sys_clock: result = int64_t(now_fs() / (fs_per_second / 100)); break;
    case sys_time: result = 0; break;
    case sys_errno: result = 0; break;
    case sys_get_cmdline: {
        // An empty command line: one NUL into the firmware's buffer, its length (0) into the
        // block's second word. A buffer outside plain memory (or of size 0) is an error: -1.
        uint8_t zero = 0;
        uint64_t buffer = word(0), size = word(1), length = 0;
        if (size == 0 || !in_plain_memory(buffer) || uc_mem_write(uc_, buffer, &zero, 1) != UC_ERR_OK) {
            result = -1;
            break;
        }
        if (uc_mem_write(uc_, param + 8, &length, 8) != UC_ERR_OK)
            fail(2, fmt::format("{}: SYS_GET_CMDLINE: parameter block at {:#x} is outside memory", where(pc), param));
        result = 0;
        break;
    }
    case sys_heapinfo: {
        uint64_t block = word(0);
        uint64_t top = 0;
        for (const auto& [base, m] : platform_.memories())
            if (image_.entry >= base && image_.entry - base < m->size()) top = base + m->size();
        uint64_t info[4] = {(image_.highest_end + 15) & ~uint64_t(15), top - stack_reserve, top, top - stack_reserve};
        if (uc_mem_write(uc_, block, info, sizeof info) != UC_ERR_OK)
            fail(2, fmt::format("{}: SYS_HEAPINFO block at {:#x} is outside memory", where(pc), block));
        result = 0;
        break;
    }
    case sys_exit:
    case sys_exit_extended: {
        uint64_t reason = word(0), subcode = word(1);
        set_pc(pc + 4);
        retire(1);
        if (!stdout_line_.empty()) out(handle_stdout, "\n");
        if (reason == adp_stopped_application_exit && subcode == 0)
            finish(firmware_result::state::passed, 0, 0, "");
        else
            finish(firmware_result::state::failed, 1, subcode,
                   reason == adp_stopped_application_exit
                       ? fmt::format("exit status {}", int64_t(subcode))
                       : fmt::format("stopped with reason {:#x} (subcode {})", reason, subcode));
        return;
    }
    case sys_elapsed: {
        uint64_t ns = (now_fs() - started_at_) / 1'000'000;
        if (uc_mem_write(uc_, param, &ns, 8) != UC_ERR_OK)
            fail(2, fmt::format("{}: SYS_ELAPSED block at {:#x} is outside memory", where(pc), param));
        result = 0;
        break;
    }
    case sys_tickfreq: result = 1'000'000'000; break;
    default:
        log_note(fmt::format("semihosting operation {:#x} at PC {:#x} is not supported: returns -1", op, pc));
        result = -1;
    }
    write_x(0, uint64_t(result));
    set_pc(pc + 4);
    retire(1);
}

} // namespace pmusim
