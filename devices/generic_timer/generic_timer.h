#pragma once
// The Arm generic timer (Arm ARM DDI 0487, chapter D11 "The Generic Timer in AArch64 state"): the
// system counter on simulated time and, per CPU, the EL1 physical timer (CNTP_*, PPI INTID 30),
// the EL1 virtual timer (CNTV_*, INTID 27), the EL2 physical timer (CNTHP_*, INTID 26) and the
// Secure physical timer (CNTPS_*, INTID 29), at the Server Base System Architecture's INTIDs.
//
// The system counter is a clock domain (by default the platform's `const` clock, the rate the AMU's
// constant counter follows too): CNTPCT_EL0 is the number of its edges up to now, never ticked. A
// timer's condition (CNTxCT >= CVAL) becomes true at the instant of one counter edge; the model
// computes that instant and notifies an sc_event for it, so the PPI rises exactly then. In the
// reference mode (docs/reference-mode.md) it is the opposite: the counter's per-edge twin counts
// every edge and the condition is checked at each one, nothing is predicted.
//
// Its registers are system registers, owned per CPU through the firmware gate like the AMU's
// (firmware_gate.h): sysregs(), sysreg_rule() (the EL0 and EL2 access controls of CNTKCTL_EL1 and
// CNTHCTL_EL2), serve_sysreg().
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/clock_domain.h"
#include "models/unit.h"

namespace pmusim {

const register_table& generic_timer_table();

namespace timer_field {
// CNTx_CTL (D19 CNTP_CTL_EL0 etc.; Linux include/clocksource/arm_arch_timer.h ARCH_TIMER_CTRL_*).
constexpr reg_field ctl_enable{0, 1}, ctl_imask{1, 1}, ctl_istatus{2, 1};
// CNTKCTL_EL1 (Linux ARCH_TIMER_USR_*): EL0PCTEN [0], EL0VCTEN [1], EVNTEN [2], EVNTDIR [3],
// EVNTI [7:4], EL0VTEN [8], EL0PTEN [9].
constexpr reg_field kctl_el0pcten{0, 1}, kctl_el0vcten{1, 1}, kctl_evnten{2, 1}, kctl_evntdir{3, 1}, kctl_evnti{4, 4},
                    kctl_el0vten{8, 1}, kctl_el0pten{9, 1};
// CNTHCTL_EL2 with HCR_EL2.E2H = 0: EL1PCTEN [0], EL1PCEN [1], EVNTEN [2], EVNTDIR [3], EVNTI [7:4].
constexpr reg_field hctl_el1pcten{0, 1}, hctl_el1pcen{1, 1}, hctl_evnten{2, 1}, hctl_evntdir{3, 1}, hctl_evnti{4, 4};
constexpr unsigned scr_st = 11; // SCR_EL3.ST: Secure EL1 may access CNTPS_*
} // namespace timer_field

// The four timers of a CPU, in the order of their registers and lines.
enum class timer_kind : unsigned { physical, virtual_, hyp_physical, secure_physical, count };
// The line name suffix ("cntpnsirq", ...) and the INTID of each timer (SBSA, Linux's DT bindings).
const char* timer_signal(timer_kind k);
unsigned timer_intid(timer_kind k);

struct generic_timer_options {
    std::vector<unsigned> cpus; // the platform's CPU indices served (access_context::cpu)
    uint64_t cntfrq = 0;        // CNTFRQ_EL0 at reset, as firmware programs it (the counter's frequency)
};

class generic_timer_unit : public unit, public sysreg_slots {
public:
    // `lines[i][k]` is the output of timer k of CPU cpus[i] (null: not connected).
    generic_timer_unit(const sc_core::sc_module_name& name, soc& system, const clock_domain& counter,
                       generic_timer_options options,
                       std::vector<std::array<interrupt_line*, unsigned(timer_kind::count)>> lines);
    ~generic_timer_unit() override;

    std::string type() const override { return "generic_timer"; }
    const register_table& table() const override { return generic_timer_table(); }
    std::vector<const register_def*> sysregs(unsigned cpu) const override;
    access_outcome sysreg_rule(access_context& ctx, const register_def& reg, bool is_write) override;
    uint32_t sysreg_slot(unsigned cpu, const register_def& reg) const override;
    void serve_sysreg(uint32_t slot, tlm::tlm_generic_payload& trans, access_context& ctx) override;
    void reset(bool cold) override;
    void report(std::ostream& out) override;
    void observables(std::vector<observable>& out) override;

    // The system counter now (CNTPCT_EL0), and a timer's output level, for tests and tools.
    uint64_t counter();
    bool output(unsigned cpu_slot, timer_kind k) const;
    uint64_t fired(unsigned cpu_slot, timer_kind k) const;

protected:
    void access(tlm::tlm_generic_payload& trans, access_context& ctx) override;

private:
    struct timer {
        uint64_t ctl = 0;  // ENABLE and IMASK as written
        uint64_t cval = 0;
        interrupt_line* line = nullptr;
        sc_core::sc_event due; // the instant the condition becomes true (fast mode)
        uint64_t rising = 0;   // times its output rose
    };
    struct cpu_timers {
        unsigned cpu = 0;
        uint64_t cntfrq = 0, cntvoff = 0;
        // The controls sysreg_rule reads: register_values, so that writing them tells the gate to ask
        // the rule again (it remembers allowed requests while no register value changes).
        register_value cntkctl = 0, cnthctl = 0;
        std::array<timer, unsigned(timer_kind::count)> t;
    };
    class reference_listener; // the per-edge check of the reference mode

    // The timer's count: the physical count, or the virtual one (minus CNTVOFF_EL2).
    uint64_t view(const cpu_timers& c, timer_kind k, uint64_t physical) const {
        return k == timer_kind::virtual_ ? physical - c.cntvoff : physical;
    }
    bool condition(const cpu_timers& c, timer_kind k, uint64_t physical) const;
    // Re-evaluates a CPU's outputs now and (fast mode) schedules each enabled timer's instant.
    void evaluate(cpu_timers& c);
    void evaluate_all();
    uint64_t read_register(cpu_timers& c, unsigned index);
    void write_register(cpu_timers& c, unsigned index, uint64_t value);
    int slot_of_cpu(unsigned cpu) const;

    const clock_domain& counter_;
    generic_timer_options opt_;
    std::vector<std::unique_ptr<cpu_timers>> cpus_;
    std::unique_ptr<reference_listener> reference_;
    uint64_t reference_edges_ = 0; // reference mode: the counter edges delivered so far
};

} // namespace pmusim
