#pragma once
// A unit on a bench of its own, as VCML's model tests build one (docs/extending.md, "Testing a unit
// on its own bench"): the unit under test is constructed by the test with its typed options, in a
// `soc` the bench fills with
//  - stub clocks: clock domains of the frequencies the test chooses, which it may change at any
//    instant (DVFS) with clock(NAME).set_frequency(HZ, now_fs());
//  - stub CPU activity: real core_models on those clocks, whose power, security state and workload
//    rates the test sets (core(i).set_workload({{"inst", rational(3, 2)}}, now_fs()));
//  - the CPU control registers (cpu_controls) when the unit reads them;
//  - interrupt lines whose every edge is recorded with its instant;
// and a plain TLM-2.0 initiator (generic payloads carrying an access_context, tlm_test_access.h)
// bound straight to the unit's register socket: no platform file, no firmware, no gate, no bus.
// A unit that masters memory (the IMC) gets a plain memory bound straight to its initiator socket.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "models/cpu_controls.h"
#include "models/memory.h"
#include "models/soc.h"
#include "models/unit.h"
#include "tests/unit/tlm_test_access.h"

namespace pmusim::testing {

// The initiator of a bench: runs the test's body in its SystemC thread, sending each access
// straight to a unit's register socket: the unit under test's unless told another (the bench's
// cpu_controls: a unit too, whose socket must be bound as well).
class bench_initiator : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(bench_initiator);
    // The context of the memory-mapped accesses (read32/64, write32/64): by default cpu0 at EL1,
    // Non-secure. A test about who accesses changes it.
    access_context mmio_context;

    // targets[0] is the unit under test.
    bench_initiator(const sc_core::sc_module_name& name, std::vector<unit*> targets,
                    std::function<void(bench_initiator&)> body)
        : sc_module(name), body_(std::move(body)) {
        for (unit* u : targets) {
            sockets_.push_back(std::make_unique<socket>(sc_core::sc_gen_unique_name("out")));
            sockets_.back()->bind(u->registers_in);
            targets_.push_back(u);
        }
        mmio_context.cpu = 0;
        mmio_context.el = 1;
        mmio_context.path = access_path::memory_mapped;
        SC_THREAD(run);
    }

    // The forward interface of `u` (null: the unit under test).
    tlm::tlm_fw_transport_if<>& to(const unit* u = nullptr) {
        for (size_t i = 0; i < targets_.size(); ++i)
            if (!u || targets_[i] == u) return *(*sockets_[i]).operator->();
        throw model_error("the bench's initiator is not bound to that unit");
    }

    // A system-register access (MRS/MSR) as `cpu` at `el` (Secure at EL3), by encoding key. The
    // unit's access rule is the gate's business, so it is not asked: the unit serves the access.
    tlm_access_result sysreg(bool write, unsigned cpu, unsigned el, uint32_t key, uint64_t value = 0,
                             const unit* u = nullptr) {
        return tlm_access(to(u), write, key, 8, value, sysreg_context(cpu, el, el == 3));
    }
    uint64_t read_sysreg(unsigned cpu, uint32_t key, const unit* u = nullptr) { return sysreg(false, cpu, 3, key, 0, u).value; }
    void write_sysreg(unsigned cpu, uint32_t key, uint64_t value, const unit* u = nullptr) { sysreg(true, cpu, 3, key, value, u); }

    tlm_access_result mmio(bool write, uint64_t address, unsigned len, uint64_t value = 0) {
        return tlm_access(to(), write, address, len, value, mmio_context);
    }
    uint64_t read64(uint64_t address) { return mmio(false, address, 8).value; }
    uint32_t read32(uint64_t address) { return uint32_t(mmio(false, address, 4).value); }
    void write64(uint64_t address, uint64_t value) { mmio(true, address, 8, value); }
    void write32(uint64_t address, uint32_t value) { mmio(true, address, 4, value); }

    // Time passes: to an instant, or by a duration.
    void wait_until(fs_t instant) {
        if (instant > now_fs()) wait(to_sc_time(instant - now_fs()));
    }
    void wait_for(fs_t duration) { wait_until(now_fs() + duration); }

private:
    using socket = tlm_utils::simple_initiator_socket<bench_initiator>;
    void run() {
        body_(*this);
        sc_core::sc_stop();
    }
    std::vector<std::unique_ptr<socket>> sockets_;
    std::vector<unit*> targets_;
    std::function<void(bench_initiator&)> body_;
};

// One edge of an interrupt line.
struct irq_edge {
    bool level;
    fs_t at;
    bool operator==(const irq_edge& o) const { return level == o.level && at == o.at; }
};

class unit_bench {
public:
    soc system;

    unit_bench() { init_time_resolution(); } // before any sc_time exists

    // A stub clock of `hz`.
    clock_domain& add_clock(const std::string& name, uint64_t hz) {
        auto& c = system.clocks[name];
        c = std::make_unique<clock_domain>(name, hz);
        return *c;
    }
    clock_domain& clock(const std::string& name) const { return system.clock(name); }

    // The next CPU (cpu0, cpu1, ...) on `clock`, in `cluster`; its constant clock (the AMU's
    // constant counter) is `const_clock`, by default its own clock. It starts running, Non-secure,
    // with the core_model's reset workload.
    core_model& add_cpu(const std::string& clock, unsigned cluster = 0, const std::string& const_clock = {},
                        bool power_arch = false) {
        cpu_description d;
        d.index = unsigned(system.cpus.size());
        d.cluster = cluster;
        d.clock = clock;
        d.power_arch = power_arch;
        system.cpus.push_back(d);
        system.cores.push_back(
            std::make_unique<core_model>(d.index, system.clock(clock), system.clock(const_clock.empty() ? clock : const_clock)));
        return *system.cores.back();
    }
    core_model& core(unsigned i) const { return system.core(i); }

    // The CPU control registers of the CPUs added so far, for a unit that reads them (after add_cpu).
    cpu_controls& add_cpu_controls() {
        controls_ = std::make_unique<cpu_controls>("cpu_controls", system);
        system.controls = controls_.get();
        return *controls_;
    }

    // An interrupt line (named as the unit's irq argument) whose edges the bench records.
    interrupt_line& add_irq(const std::string& name) {
        interrupt_line& line = system.irq(name);
        std::vector<irq_edge>& edges = edges_[name];
        line.on_edge([&edges](bool level, fs_t at) { edges.push_back({level, at}); });
        return line;
    }
    const std::vector<irq_edge>& irq_edges(const std::string& name) { return edges_.at(name); }

    // Plain big-endian memory at bus address 0 (POWER memory), for a unit that writes memory itself:
    // bind it to the unit's initiator socket (the IMC's to_memory), no bus between them.
    memory& add_memory(uint64_t size, bool big_endian = true) {
        memory_ = std::make_unique<memory>("memory", size, big_endian);
        return *memory_;
    }

    // Runs `body` as the initiator's thread, bound to `target`'s register socket (and to the
    // cpu_controls', if any), until the body returns. One run per test case (one SystemC kernel per process).
    void run(unit& target, std::function<void(bench_initiator&)> body) {
        std::vector<unit*> targets{&target};
        if (controls_) targets.push_back(controls_.get());
        bench_initiator initiator("initiator", targets, std::move(body));
        sc_core::sc_start();
    }

private:
    std::unique_ptr<cpu_controls> controls_;
    std::unique_ptr<memory> memory_;
    std::map<std::string, std::vector<irq_edge>> edges_;
};

// Femtoseconds per microsecond: the tests' instants and durations (1 us at 1 GHz is 1000 edges).
constexpr fs_t fs_per_us = 1'000'000'000;

} // namespace pmusim::testing
