// The generic timer's system registers (docs/registers/generic_timer.md). Encodings as Linux names
// them (arch/arm64/include/asm/sysreg.h) and the Arm ARM D19 gives them.
#include "devices/generic_timer/generic_timer.h"

namespace pmusim {

namespace {

using fa = field_access;
using namespace timer_field;

const char* const armarm = "Arm ARM DDI 0487 D11.2 and the register's D19 description";
const char* const sysreg_h = "Linux arch/arm64/include/asm/sysreg.h@v6.1.192";
const char* const timer_h = "Linux include/clocksource/arm_arch_timer.h@v6.1.192";

register_def sreg(const std::string& name, sysreg_encoding enc, unsigned width, uint64_t reset,
                  std::vector<field_def> fields, const std::string& description) {
    return register_def(name, enc, std::nullopt, width, reset, std::move(fields), description);
}

std::vector<field_def> ctl_fields() {
    return {{"ENABLE", ctl_enable, fa::rw, "timer enabled"},
            {"IMASK", ctl_imask, fa::rw, "interrupt masked"},
            {"ISTATUS", ctl_istatus, fa::ro, "ENABLE and the condition CNTxCT >= CVAL (0 while disabled)"}};
}

void add_timer(std::vector<register_def>& regs, const std::string& prefix, const std::string& suffix, uint8_t op1,
               uint8_t crm, const std::string& what) {
    regs.push_back(sreg(prefix + "_TVAL_" + suffix, {3, op1, 14, crm, 0}, 32, 0,
                        {{"TimerValue", 0, 32, fa::rw, "read: (CVAL - count)[31:0]; write: CVAL = count + SignExtend(value)"}},
                        what + " timer value"));
    regs.push_back(sreg(prefix + "_CTL_" + suffix, {3, op1, 14, crm, 1}, 32, 0, ctl_fields(), what + " timer control"));
    regs.push_back(sreg(prefix + "_CVAL_" + suffix, {3, op1, 14, crm, 2}, 64, 0,
                        {{"CompareValue", 0, 64, fa::rw, "the condition is count >= CompareValue (unsigned)"}},
                        what + " timer compare value"));
}

register_table make_table() {
    register_table t;
    t.unit = "generic_timer";
    t.title = "Arm generic timer (system counter and per-CPU timers)";
    t.summary = "The generic_timer device: system registers served per CPU through the firmware gate. The count is "
                "the counter clock's edges since time 0; the timers raise their PPIs (CNTP 30, CNTV 27, CNTHP 26, "
                "CNTPS 29) at the instant of the edge where the condition becomes true. Register order is the "
                "model's slot order.";
    auto& r = t.registers;
    r.push_back(sreg("CNTFRQ_EL0", {3, 3, 14, 0, 0}, 32, 0,
                     {{"ClockFrequency", 0, 32, fa::rw, "the counter's frequency in Hz as firmware programs it; MSR at EL3 only"}},
                     "Counter-timer Frequency register (reset column: the platform sets the counter clock's frequency)"));
    r.push_back(sreg("CNTPCT_EL0", {3, 3, 14, 0, 1}, 64, 0, {{"PhysicalCount", 0, 64, fa::ro, "edges of the counter clock since time 0"}},
                     "Counter-timer Physical Count register"));
    r.push_back(sreg("CNTVCT_EL0", {3, 3, 14, 0, 2}, 64, 0, {{"VirtualCount", 0, 64, fa::ro, "CNTPCT_EL0 - CNTVOFF_EL2"}},
                     "Counter-timer Virtual Count register"));
    r.push_back(sreg("CNTKCTL_EL1", {3, 0, 14, 1, 0}, 32, 0,
                     {{"EL0PCTEN", kctl_el0pcten, fa::rw, "EL0 may read CNTPCT_EL0 (and CNTFRQ_EL0)"},
                      {"EL0VCTEN", kctl_el0vcten, fa::rw, "EL0 may read CNTVCT_EL0 (and CNTFRQ_EL0)"},
                      {"EVNTEN", kctl_evnten, fa::rw, "event stream enable: stored, no event stream is generated"},
                      {"EVNTDIR", kctl_evntdir, fa::rw, "event stream transition: stored"},
                      {"EVNTI", kctl_evnti, fa::rw, "event stream bit: stored"},
                      {"EL0VTEN", kctl_el0vten, fa::rw, "EL0 may access CNTV_*"},
                      {"EL0PTEN", kctl_el0pten, fa::rw, "EL0 may access CNTP_*"}},
                     "Counter-timer Kernel Control register"));
    add_timer(r, "CNTP", "EL0", 3, 2, "EL1 physical");
    add_timer(r, "CNTV", "EL0", 3, 3, "EL1 virtual");
    r.push_back(sreg("CNTVOFF_EL2", {3, 4, 14, 0, 3}, 64, 0, {{"VOffset", 0, 64, fa::rw, "virtual offset"}},
                     "Counter-timer Virtual Offset register"));
    r.push_back(sreg("CNTHCTL_EL2", {3, 4, 14, 1, 0}, 32, 0x3,
                     {{"EL1PCTEN", hctl_el1pcten, fa::rw, "EL0/EL1 may read CNTPCT_EL0 (HCR_EL2.E2H = 0)"},
                      {"EL1PCEN", hctl_el1pcen, fa::rw, "EL0/EL1 may access CNTP_* (HCR_EL2.E2H = 0)"},
                      {"EVNTEN", hctl_evnten, fa::rw, "event stream enable: stored"},
                      {"EVNTDIR", hctl_evntdir, fa::rw, "event stream transition: stored"},
                      {"EVNTI", hctl_evnti, fa::rw, "event stream bit: stored"}},
                     "Counter-timer Hypervisor Control register (reset: EL1PCTEN and EL1PCEN set, as a boot "
                     "loader leaves them for a kernel entered at EL1)"));
    add_timer(r, "CNTHP", "EL2", 4, 2, "EL2 physical");
    add_timer(r, "CNTPS", "EL1", 7, 2, "Secure physical");
    for (auto& reg : r) cite(reg, std::string(armarm) + "; encoding as " + sysreg_h);
    cite(t, "CNTP_CTL", std::string("fields as ") + timer_h + " ARCH_TIMER_CTRL_*; " + armarm);
    cite(t, "CNTV_CTL", std::string("fields as ") + timer_h + " ARCH_TIMER_CTRL_*; " + armarm);
    cite(t, "CNTKCTL_EL1", std::string("fields as ") + timer_h + " ARCH_TIMER_USR_*, ARCH_TIMER_EVT_*; " + armarm);
    cite(t, "CNTHCTL_EL2", "Arm ARM DDI 0487 D19 CNTHCTL_EL2 (E2H = 0 layout); reset: Linux Documentation/arm64/"
                           "booting.rst@v6.1.192 'Architected timers' needs EL1PCTEN set (EL1PCEN: pmusim's choice)");
    cite(t, "CNTHP_", "Arm ARM DDI 0487 D19 (CNTHP_*_EL2; not in Linux's sysreg.h 6.1)");
    cite(t, "CNTPS_", "Arm ARM DDI 0487 D19 (CNTPS_*_EL1; not in Linux's sysreg.h 6.1)");
    return t;
}

} // namespace

const register_table& generic_timer_table() {
    static const register_table t = make_table();
    return t;
}

} // namespace pmusim
