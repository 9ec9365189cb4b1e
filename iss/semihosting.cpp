// Arm semihosting's operations (iss/semihosting.h; Arm "Semihosting for AArch32 and AArch64", 2.0):
// each reads its parameter block through the host's memory and returns X0, an exit, or an error.
#include "iss/semihosting.h"

#include <algorithm>
#include <fmt/format.h>

namespace pmusim {

namespace {
// The firmware's error that ends the run (parameter block or string outside memory).
struct bad_call {
    std::string message;
};
} // namespace

void semihosting::out(semihosting_host& host, uint64_t handle, const std::string& text) {
    if (handle == handle_stderr) {
        host.error_output(text);
        return;
    }
    // stdout: whole lines into the run's log, so they sit in order with its other lines.
    for (char c : text) {
        if (c == '\n') {
            host.output_line(stdout_line_);
            stdout_line_.clear();
        } else {
            stdout_line_ += c;
        }
    }
}

std::string semihosting::take_partial_line() {
    std::string line;
    line.swap(stdout_line_);
    return line;
}

semihosting_outcome semihosting::call(semihosting_host& host, uint32_t op, uint64_t param) {
    auto word = [&](uint64_t i) {
        uint64_t v = 0;
        if (!host.read(param + 8 * i, &v, 8))
            throw bad_call{fmt::format("semihosting call {:#x}: parameter block at {:#x} is outside memory", op, param)};
        return v;
    };
    auto bytes = [&](uint64_t address, uint64_t length) {
        length = std::min(length, max_chunk);
        std::string s(length, '\0');
        if (length && !host.read(address, s.data(), length))
            throw bad_call{fmt::format("semihosting call {:#x}: buffer at {:#x} is outside memory", op, address)};
        return s;
    };
    auto put = [&](uint64_t address, const void* data, uint64_t length, const char* what) {
        if (!host.write(address, data, length)) throw bad_call{fmt::format(fmt::runtime(what), address)};
    };
    semihosting_outcome o;
    int64_t result = 0;
    try {
        switch (op) {
        case sys_open: {
            const std::string name = bytes(word(0), word(2));
            const uint64_t mode = word(1);
            result = name != ":tt" ? -1 : mode <= 3 ? int64_t(handle_stdin) : mode <= 7 ? int64_t(handle_stdout) : int64_t(handle_stderr);
            break;
        }
        case sys_close: result = word(0) >= handle_stdin && word(0) <= handle_stderr ? 0 : -1; break;
        case sys_writec: out(host, handle_stdout, bytes(param, 1)); break;
        case sys_write0: {
            // The whole string, however long, a chunk at a time (bounded memory); one that runs off
            // plain memory is the firmware's error: the run stops naming it.
            std::string chunk;
            for (uint64_t a = param;; ++a) {
                char c = 0;
                if (!host.read(a, &c, 1))
                    throw bad_call{fmt::format("SYS_WRITE0: the string at {:#x} runs outside memory at {:#x} (no NUL)", param, a)};
                if (!c) break;
                chunk += c;
                if (chunk.size() == max_chunk) {
                    out(host, handle_stdout, chunk);
                    chunk.clear();
                }
            }
            out(host, handle_stdout, chunk);
            break;
        }
        case sys_write: {
            // Returns the number of bytes NOT written (SYS_WRITE): 0 when all were; a buffer (or its
            // tail) outside plain memory is not written, and counts.
            const uint64_t h = word(0), address = word(1), length = word(2);
            if (h != handle_stdout && h != handle_stderr) { result = int64_t(length); break; }
            uint64_t done = 0;
            std::string chunk;
            while (done < length) {
                chunk.resize(std::min(max_chunk, length - done));
                if (!host.plain_memory(address + done) || !host.plain_memory(address + done + chunk.size() - 1) ||
                    !host.read(address + done, chunk.data(), chunk.size()))
                    break;
                out(host, h, chunk);
                done += chunk.size();
            }
            result = int64_t(length - done);
            break;
        }
        case sys_read: result = int64_t(word(2)); break; // EOF: nothing read
        case sys_iserror: result = int64_t(word(0)) < 0 ? 1 : 0; break;
        case sys_istty: result = word(0) >= handle_stdin && word(0) <= handle_stderr ? 1 : 0; break;
        case sys_flen: result = -1; break;
        case sys_clock: result = int64_t(host.now() / (fs_per_second / 100)); break;
        case sys_time: result = 0; break;
        case sys_errno: result = 0; break;
        case sys_get_cmdline: {
            // An empty command line: one NUL into the firmware's buffer, its length (0) into the
            // block's second word. A buffer outside plain memory (or of size 0) is an error: -1.
            const uint8_t zero = 0;
            const uint64_t buffer = word(0), size = word(1), length = 0;
            if (size == 0 || !host.plain_memory(buffer) || !host.write(buffer, &zero, 1)) {
                result = -1;
                break;
            }
            put(param + 8, &length, 8, "SYS_GET_CMDLINE: parameter block at {:#x} is outside memory");
            result = 0;
            break;
        }
        case sys_heapinfo: {
            const uint64_t block = word(0), top = host.memory_top();
            const uint64_t info[4] = {(host.image_end() + 15) & ~uint64_t(15), top - stack_reserve, top, top - stack_reserve};
            put(block, info, sizeof info, "SYS_HEAPINFO block at {:#x} is outside memory");
            result = 0;
            break;
        }
        case sys_exit:
        case sys_exit_extended: {
            const uint64_t reason = word(0), subcode = word(1);
            if (!stdout_line_.empty()) out(host, handle_stdout, "\n");
            o.k = semihosting_outcome::kind::exited;
            o.status = subcode;
            o.passed = reason == adp_stopped_application_exit && subcode == 0;
            if (!o.passed)
                o.message = reason == adp_stopped_application_exit
                                ? fmt::format("exit status {}", int64_t(subcode))
                                : fmt::format("stopped with reason {:#x} (subcode {})", reason, subcode);
            return o;
        }
        case sys_elapsed: {
            const uint64_t ns = (host.now() - host.started()) / 1'000'000;
            put(param, &ns, 8, "SYS_ELAPSED block at {:#x} is outside memory");
            result = 0;
            break;
        }
        case sys_tickfreq: result = 1'000'000'000; break;
        default:
            host.unsupported(op);
            result = -1;
        }
    } catch (const bad_call& e) {
        o.k = semihosting_outcome::kind::error;
        o.message = e.message;
        return o;
    }
    o.result = uint64_t(result);
    return o;
}

} // namespace pmusim
