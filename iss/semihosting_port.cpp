// The CPU's side of Arm semihosting (the operations: iss/semihosting.h): HLT #0xF000, operation in
// W0, parameter in X1, result in X0, over this CPU's memory and the run's log. docs/firmware.md
// lists the calls.
#include <fmt/format.h>
#include <iostream>
#include <unicorn/unicorn.h>

#include "iss/aarch64_iss.h"
#include "models/memory.h"

namespace pmusim {

// The memory the engine holds (by the addresses uc_mem_read takes), the run's log and time.
struct aarch64_iss::semihosting_port final : semihosting_host {
    aarch64_iss& cpu;
    uint64_t pc;
    semihosting_port(aarch64_iss& c, uint64_t at) : cpu(c), pc(at) {}
    bool read(uint64_t address, void* bytes, uint64_t length) override {
        return uc_mem_read(cpu.uc_, address, bytes, length) == UC_ERR_OK;
    }
    bool write(uint64_t address, const void* bytes, uint64_t length) override {
        return uc_mem_write(cpu.uc_, address, bytes, length) == UC_ERR_OK;
    }
    bool plain_memory(uint64_t address) const override { return cpu.in_plain_memory(address); }
    void output_line(const std::string& line) override { cpu.log_.program_output(line); }
    void error_output(const std::string& text) override { std::cerr << text; }
    fs_t now() const override { return now_fs(); }
    fs_t started() const override { return cpu.started_at_; }
    uint64_t image_end() const override { return cpu.image_.highest_end; }
    uint64_t memory_top() const override {
        uint64_t top = 0;
        for (const auto& [base, m] : cpu.memories_)
            if (cpu.image_.entry >= base && cpu.image_.entry - base < m->size()) top = base + m->size();
        return top;
    }
    void unsupported(uint32_t op) override {
        cpu.log_note(fmt::format("semihosting operation {:#x} at PC {:#x} is not supported: returns -1", op, pc));
    }
};

void aarch64_iss::semihosting_call(uint64_t pc) {
    semihosting_port port(*this, pc);
    const semihosting_outcome o = semihosting_.call(port, uint32_t(read_x(0)), read_x(1));
    switch (o.k) {
    case semihosting_outcome::kind::error: fail(2, fmt::format("{}: {}", where(pc), o.message));
    case semihosting_outcome::kind::exited:
        set_pc(pc + 4);
        retire(1);
        if (o.passed) finish(firmware_result::state::passed, 0, 0, "");
        else finish(firmware_result::state::failed, 1, o.status, o.message);
        return;
    case semihosting_outcome::kind::returned: break;
    }
    write_x(0, o.result);
    set_pc(pc + 4);
    retire(1);
}

} // namespace pmusim
