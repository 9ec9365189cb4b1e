#include "debug/iss_debugger.h"

#include <cstring>
#include <fmt/format.h>
#include <iostream>

namespace pmusim::debug {

namespace {
constexpr int sigint = 2, sigtrap = 5;
uint64_t le64(const uint8_t* b) {
    uint64_t v = 0;
    std::memcpy(&v, b, 8);
    return v;
}
uint32_t le32(const uint8_t* b) {
    uint32_t v = 0;
    std::memcpy(&v, b, 4);
    return v;
}
} // namespace

iss_debugger::iss_debugger(uint16_t port, bool wait) : stub_(*this, port), wait_(wait) {}

void iss_debugger::add(aarch64_iss& cpu) {
    cpus_[cpu.cpu()] = &cpu;
    cpu.set_debug_hooks(this);
}

aarch64_iss* iss_debugger::find(unsigned cpu) const {
    auto it = cpus_.find(cpu);
    return it == cpus_.end() ? nullptr : it->second;
}

std::vector<unsigned> iss_debugger::cpus() const {
    std::vector<unsigned> out;
    for (const auto& [n, c] : cpus_) out.push_back(n);
    return out;
}

std::string iss_debugger::describe(unsigned cpu) const {
    const aarch64_iss* c = find(cpu);
    if (!c) return "";
    return fmt::format("cpu{} EL{} {}", cpu, c->exception_level(), c->running() ? "running firmware" : "no firmware running");
}

bool iss_debugger::read_register(unsigned cpu, unsigned r, uint8_t* b) {
    aarch64_iss* c = find(cpu);
    if (!c) return false;
    uint64_t v = 0;
    if (r <= aarch64_regs::x30) v = c->debug_read_x(r);
    else if (r == aarch64_regs::sp) v = c->debug_sp();
    else if (r == aarch64_regs::pc) v = c->debug_pc();
    else if (r == aarch64_regs::cpsr) v = c->debug_pstate();
    else if (r >= aarch64_regs::v0 && r <= aarch64_regs::v31) {
        c->debug_read_v(r - aarch64_regs::v0, b);
        return true;
    } else if (r == aarch64_regs::fpsr || r == aarch64_regs::fpcr) v = c->debug_fp_status(r == aarch64_regs::fpcr);
    else return false;
    std::memcpy(b, &v, aarch64_regs::bytes(r)); // little-endian host
    return true;
}

bool iss_debugger::write_register(unsigned cpu, unsigned r, const uint8_t* b) {
    aarch64_iss* c = find(cpu);
    if (!c) return false;
    if (r <= aarch64_regs::x30) c->debug_write_x(r, le64(b));
    else if (r == aarch64_regs::sp) c->debug_set_sp(le64(b));
    else if (r == aarch64_regs::pc) c->debug_set_pc(le64(b));
    else if (r == aarch64_regs::cpsr) c->debug_set_pstate(le32(b));
    else if (r >= aarch64_regs::v0 && r <= aarch64_regs::v31) c->debug_write_v(r - aarch64_regs::v0, b);
    else if (r == aarch64_regs::fpsr || r == aarch64_regs::fpcr) c->debug_set_fp_status(r == aarch64_regs::fpcr, le32(b));
    else return false;
    return true;
}

bool iss_debugger::read_memory(unsigned cpu, uint64_t address, uint8_t* bytes, size_t length) {
    aarch64_iss* c = find(cpu);
    return c && c->debug_memory(false, address, bytes, length);
}

bool iss_debugger::write_memory(unsigned cpu, uint64_t address, const uint8_t* bytes, size_t length) {
    aarch64_iss* c = find(cpu);
    std::vector<uint8_t> copy(bytes, bytes + length);
    return c && c->debug_memory(true, address, copy.data(), length);
}

// Software and hardware breakpoints are the same here: a code hook on the address (nothing is
// written into the firmware's memory). Watchpoints: not offered (docs/debugging.md).
bool iss_debugger::supports(breakpoint_kind kind) const {
    return kind == breakpoint_kind::software || kind == breakpoint_kind::hardware;
}

bool iss_debugger::insert_breakpoint(breakpoint_kind, uint64_t address, unsigned) {
    if (address % 4) return false;
    breakpoints_.insert(address);
    apply_breakpoints();
    return true;
}

bool iss_debugger::remove_breakpoint(breakpoint_kind, uint64_t address, unsigned) {
    if (!breakpoints_.erase(address)) return false;
    apply_breakpoints();
    return true;
}

void iss_debugger::apply_breakpoints() {
    std::vector<uint64_t> list(breakpoints_.begin(), breakpoints_.end());
    for (auto& [n, c] : cpus_) c->set_breakpoints(list);
}

void iss_debugger::halt(aarch64_iss& cpu, int signal) {
    halted_ = true;
    stepping_.reset();
    resume_request r = stub_.stopped({cpu.cpu(), signal, std::nullopt, 0});
    if (!stub_.connected()) {
        // GDB detached or went away: its breakpoints go with it; the firmware runs on.
        breakpoints_.clear();
        apply_breakpoints();
    }
    switch (r.k) {
    case resume_request::kind::kill: killed_ = true; halted_ = false; break;
    case resume_request::kind::detach: halted_ = false; break;
    case resume_request::kind::resume:
        if (r.step && find(*r.step)) {
            stepping_ = *r.step; // the others stay halted
            step_started_ = false;
        } else {
            halted_ = false;
        }
        break;
    }
    resume_.notify(sc_core::SC_ZERO_TIME);
}

uint64_t iss_debugger::checkpoint(aarch64_iss& cpu, bool at_breakpoint) {
    if (killed_) return 0;
    if (wait_ && !waited_) {
        waited_ = true;
        std::cerr << fmt::format("pmusim: waiting for GDB on 127.0.0.1:{} (target remote :{})\n", port(), port());
        stub_.accept_connection();
        halt(cpu, sigtrap);
    } else if (stepping_ == cpu.cpu() && step_started_ &&
               (cpu.debug_pc() != step_from_pc_ || cpu.instructions_retired() != step_from_retired_)) {
        halt(cpu, sigtrap); // the step is done (a run-loop step that retired nothing, e.g. an engine rescan, is not one)
    } else if (at_breakpoint) {
        halt(cpu, sigtrap);
    } else if (!halted_) {
        const auto now = std::chrono::steady_clock::now();
        if (now >= next_poll_) { // Ctrl-C or a new connection, polled at most every 20 ms of host time
            next_poll_ = now + std::chrono::milliseconds(20);
            const bool attached = stub_.connected(); // else a new connection: GDB attaches to a stopped target
            if (stub_.interrupt_requested()) halt(cpu, attached ? sigint : sigtrap);
        }
    }
    while (halted_ && !killed_ && stepping_ != cpu.cpu()) sc_core::wait(resume_);
    if (killed_) return 0;
    if (stepping_ == cpu.cpu()) {
        if (!step_started_) {
            step_started_ = true;
            step_from_pc_ = cpu.debug_pc();
            step_from_retired_ = cpu.instructions_retired();
        }
        return 1;
    }
    return run_slice;
}

void iss_debugger::finished(aarch64_iss& cpu) {
    if (stepping_ == cpu.cpu()) { // a step ended the firmware: nobody else may wait for it
        stepping_.reset();
        halted_ = false;
        resume_.notify(sc_core::SC_ZERO_TIME);
    }
    for (const auto& [n, c] : cpus_)
        if (c->running()) return;
    // The last firmware ended: GDB sees the program exit with pmusim's exit code for it.
    stub_.exited(cpu.result().exit_code);
}

} // namespace pmusim::debug
