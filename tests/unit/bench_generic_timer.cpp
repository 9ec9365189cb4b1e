// The generic timer on a bench of its own (tests/unit/unit_bench.h): a stub system-counter clock,
// two CPUs, each timer's interrupt line recorded with its instants. Encodings as Linux's
// arch/arm64/include/asm/sysreg.h@v6.1.192 spells them and control bits as
// include/clocksource/arm_arch_timer.h; instants from the Arm ARM's rule (the count is the number
// of counter ticks so far, the condition is count >= CVAL), not from the model.
#include <catch2/catch.hpp>

#include "devices/generic_timer/generic_timer.h"
#include "models/cpu_controls.h"
#include "models/reference_mode.h"
#include "tests/unit/unit_bench.h"

using namespace pmusim;
using testing::bench_initiator;
using testing::fs_per_us;
using testing::irq_edge;

namespace {

// sys_reg(op0, op1, CRn, CRm, op2) as the gate's key (Op0:Op1:CRn:CRm:Op2, access_context.h).
constexpr uint32_t sys_reg(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2) {
    return op0 << 14 | op1 << 11 | crn << 7 | crm << 3 | op2;
}
constexpr uint32_t SYS_CNTFRQ_EL0 = sys_reg(3, 3, 14, 0, 0), SYS_CNTPCT_EL0 = sys_reg(3, 3, 14, 0, 1),
                   SYS_CNTVCT_EL0 = sys_reg(3, 3, 14, 0, 2), SYS_CNTKCTL_EL1 = sys_reg(3, 0, 14, 1, 0),
                   SYS_CNTP_TVAL_EL0 = sys_reg(3, 3, 14, 2, 0), SYS_CNTP_CTL_EL0 = sys_reg(3, 3, 14, 2, 1),
                   SYS_CNTP_CVAL_EL0 = sys_reg(3, 3, 14, 2, 2), SYS_CNTV_CTL_EL0 = sys_reg(3, 3, 14, 3, 1),
                   SYS_CNTV_CVAL_EL0 = sys_reg(3, 3, 14, 3, 2), SYS_CNTVOFF_EL2 = sys_reg(3, 4, 14, 0, 3),
                   SYS_CNTHCTL_EL2 = sys_reg(3, 4, 14, 1, 0);
constexpr uint64_t ARCH_TIMER_CTRL_ENABLE = 1 << 0, ARCH_TIMER_CTRL_IT_MASK = 1 << 1, ARCH_TIMER_CTRL_IT_STAT = 1 << 2;
constexpr uint64_t ARCH_TIMER_USR_VCT_ACCESS_EN = 1 << 1;

// 19.2 MHz, a common system-counter rate whose period (52083.33 ns) is not a whole number of fs.
constexpr uint64_t counter_hz = 19'200'000;
constexpr uint64_t fs_per_s = 1'000'000'000'000'000;
// The count at instant t: whole ticks so far, floor(t x f); the instant the count reaches n: ceil(n / f).
uint64_t count_at(fs_t t) { return uint64_t((unsigned __int128)t * counter_hz / fs_per_s); }
fs_t instant_of_count(uint64_t n) { return fs_t(((unsigned __int128)n * fs_per_s + counter_hz - 1) / counter_hz); }

struct timer_bench {
    testing::unit_bench b;
    // The clocks, the CPUs and their control registers, before the timer is built.
    testing::unit_bench& prepare() {
        b.add_clock("const", counter_hz);
        b.add_clock("cpu", 1'000'000'000);
        b.add_cpu("cpu");
        b.add_cpu("cpu");
        b.add_cpu_controls();
        return b;
    }
    std::vector<std::array<interrupt_line*, 4>> lines() {
        std::vector<std::array<interrupt_line*, 4>> out;
        for (unsigned c = 0; c < 2; ++c) {
            std::array<interrupt_line*, 4> l{};
            for (unsigned k = 0; k < 4; ++k) l[k] = &b.add_irq("cpu" + std::to_string(c) + "_" + timer_signal(timer_kind(k)));
            out.push_back(l);
        }
        return out;
    }
    generic_timer_unit timer{"timer", prepare().system, b.clock("const"), {{0, 1}, counter_hz}, lines()};
    const std::vector<irq_edge>& edges(unsigned cpu, const char* signal) {
        return b.irq_edges("cpu" + std::to_string(cpu) + "_" + signal);
    }
};

uint64_t rd(bench_initiator& t, unsigned cpu, uint32_t key, unsigned el = 1) { return t.sysreg(false, cpu, el, key).value; }
void wr(bench_initiator& t, unsigned cpu, uint32_t key, uint64_t v, unsigned el = 1) { t.sysreg(true, cpu, el, key, v); }

} // namespace

TEST_CASE("generic timer bench: the count is the counter clock's ticks and CNTFRQ_EL0 says its rate") {
    timer_bench s;
    uint64_t at3 = 0, frq = 0, vct = 0;
    s.b.run(s.timer, [&](bench_initiator& t) {
        t.wait_until(3 * fs_per_us);
        at3 = rd(t, 0, SYS_CNTPCT_EL0);
        frq = rd(t, 1, SYS_CNTFRQ_EL0);
        wr(t, 1, SYS_CNTVOFF_EL2, 50, 2);
        vct = rd(t, 1, SYS_CNTVCT_EL0);
    });
    CHECK(at3 == 57); // 19.2 MHz x 3 us = 57.6 ticks: 57 whole ones
    CHECK(at3 == count_at(3 * fs_per_us));
    CHECK(frq == counter_hz);
    CHECK(vct == 57 - 50); // CNTVCT = CNTPCT - CNTVOFF
}

TEST_CASE("generic timer bench: the virtual timer's PPI rises at the exact instant the count reaches CVAL") {
    timer_bench s;
    uint64_t ctl_before = 0, ctl_after = 0, ctl_masked = 0;
    const uint64_t cval = 1000; // 52.083... us
    s.b.run(s.timer, [&](bench_initiator& t) {
        t.wait_until(1 * fs_per_us);
        wr(t, 0, SYS_CNTV_CVAL_EL0, cval);
        wr(t, 0, SYS_CNTV_CTL_EL0, ARCH_TIMER_CTRL_ENABLE);
        t.wait_until(instant_of_count(cval) - 1);
        ctl_before = rd(t, 0, SYS_CNTV_CTL_EL0);
        t.wait_until(instant_of_count(cval));
        ctl_after = rd(t, 0, SYS_CNTV_CTL_EL0);
        t.wait_for(1 * fs_per_us);
        wr(t, 0, SYS_CNTV_CTL_EL0, ARCH_TIMER_CTRL_ENABLE | ARCH_TIMER_CTRL_IT_MASK); // Linux's set_next_event masks first
        ctl_masked = rd(t, 0, SYS_CNTV_CTL_EL0);
    });
    CHECK(ctl_before == ARCH_TIMER_CTRL_ENABLE);
    CHECK(ctl_after == (ARCH_TIMER_CTRL_ENABLE | ARCH_TIMER_CTRL_IT_STAT));
    CHECK(ctl_masked == (ARCH_TIMER_CTRL_ENABLE | ARCH_TIMER_CTRL_IT_MASK | ARCH_TIMER_CTRL_IT_STAT));
    const fs_t due = instant_of_count(cval);
    const std::vector<irq_edge> expected = {{true, due}, {false, due + 1 * fs_per_us}};
    CHECK(s.edges(0, "cntvirq") == expected);
    CHECK(s.edges(1, "cntvirq").empty()); // the other CPU's timer is its own
    CHECK(s.edges(0, "cntpnsirq").empty());
}

TEST_CASE("generic timer bench: TVAL is CVAL minus the count signed - a CVAL in the past fires at once") {
    timer_bench s;
    uint64_t cval = 0, tval_later = 0, tval_after = 0;
    fs_t wrote_at = 0;
    s.b.run(s.timer, [&](bench_initiator& t) {
        t.wait_until(10 * fs_per_us);
        wrote_at = now_fs();
        wr(t, 1, SYS_CNTP_TVAL_EL0, 100);
        cval = rd(t, 1, SYS_CNTP_CVAL_EL0);
        wr(t, 1, SYS_CNTP_CTL_EL0, ARCH_TIMER_CTRL_ENABLE);
        t.wait_until(instant_of_count(count_at(wrote_at) + 40));
        tval_later = rd(t, 1, SYS_CNTP_TVAL_EL0);
        t.wait_until(instant_of_count(count_at(wrote_at) + 130));
        tval_after = rd(t, 1, SYS_CNTP_TVAL_EL0);
        wr(t, 1, SYS_CNTP_CTL_EL0, 0);
        wr(t, 1, SYS_CNTP_CVAL_EL0, 5); // long past
        t.wait_for(1 * fs_per_us);
        wr(t, 1, SYS_CNTP_CTL_EL0, ARCH_TIMER_CTRL_ENABLE);
    });
    const uint64_t start = count_at(wrote_at);
    CHECK(cval == start + 100);
    CHECK(tval_later == 60);
    CHECK(tval_after == uint32_t(-30)); // 30 ticks late: TVAL reads negative, as 32 bits
    const fs_t due = instant_of_count(start + 100);
    const fs_t off = instant_of_count(start + 130);
    const std::vector<irq_edge> expected = {{true, due}, {false, off}, {true, off + 1 * fs_per_us}};
    CHECK(s.edges(1, "cntpnsirq") == expected);
}

TEST_CASE("generic timer bench: a counter frequency change moves a pending timer's instant") {
    timer_bench s;
    s.b.run(s.timer, [&](bench_initiator& t) {
        wr(t, 0, SYS_CNTP_CVAL_EL0, 192); // 10 us at 19.2 MHz
        wr(t, 0, SYS_CNTP_CTL_EL0, ARCH_TIMER_CTRL_ENABLE);
        t.wait_until(5 * fs_per_us); // 96 ticks so far
        s.b.clock("const").set_frequency(2 * counter_hz, now_fs());
        t.wait_until(20 * fs_per_us);
    });
    // From 5 us the counter ticks at 38.4 MHz: the 96 remaining ticks take 2.5 us.
    const fs_t due = 5 * fs_per_us + fs_t(((unsigned __int128)96 * fs_per_s + 2 * counter_hz - 1) / (2 * counter_hz));
    REQUIRE(s.edges(0, "cntpnsirq").size() == 1);
    CHECK(s.edges(0, "cntpnsirq")[0] == irq_edge{true, due});
}

TEST_CASE("generic timer bench: EL0 and EL2 access controls of CNTKCTL_EL1 and CNTHCTL_EL2") {
    timer_bench s;
    access_outcome el0_vct = {}, el0_vct_enabled = {}, el0_kctl = {}, el1_frq_write = {}, el1_pct_trapped = {},
                   el1_voff = {}, el0_ptimer = {};
    uint64_t syndrome = 0;
    const register_table& tab = generic_timer_table();
    auto rule = [&](unsigned el, const char* reg, bool write) {
        access_context ctx = testing::sysreg_context(0, el, false);
        const access_outcome o = s.timer.sysreg_rule(ctx, *tab.find(reg), write);
        if (std::string(reg) == "CNTVCT_EL0" && el == 0 && o != access_outcome::ok) syndrome = ctx.syndrome;
        return o;
    };
    s.b.run(s.timer, [&](bench_initiator& t) {
        // EL2 enabled in Non-secure state: SCR_EL3.NS and .HCE, as TF-A leaves them.
        t.write_sysreg(0, sys_reg(3, 6, 1, 1, 0), 1 << 0 | 1 << 8, s.b.system.controls);
        el0_vct = rule(0, "CNTVCT_EL0", false);
        wr(t, 0, SYS_CNTKCTL_EL1, ARCH_TIMER_USR_VCT_ACCESS_EN); // arch_counter_set_user_access
        el0_vct_enabled = rule(0, "CNTVCT_EL0", false);
        el0_ptimer = rule(0, "CNTP_CTL_EL0", false);
        el0_kctl = rule(0, "CNTKCTL_EL1", false);
        el1_frq_write = rule(1, "CNTFRQ_EL0", true);
        el1_voff = rule(1, "CNTVOFF_EL2", false);
        wr(t, 0, SYS_CNTHCTL_EL2, 0, 2); // a hypervisor takes the physical counter from EL1
        el1_pct_trapped = rule(1, "CNTPCT_EL0", false);
    });
    CHECK(el0_vct == access_outcome::trap_el1);
    CHECK((syndrome >> 26) == 0x18); // ESR EC: trapped MSR/MRS
    CHECK(el0_vct_enabled == access_outcome::ok);
    CHECK(el0_ptimer == access_outcome::trap_el1);
    CHECK(el0_kctl == access_outcome::undefined);
    CHECK(el1_frq_write == access_outcome::undefined);
    CHECK(el1_voff == access_outcome::undefined);
    CHECK(el1_pct_trapped == access_outcome::trap_el2);
}

TEST_CASE("generic timer bench: reference mode - the same instants from counting every counter tick") {
    set_reference_mode(true);
    timer_bench s;
    uint64_t pct = 0;
    const uint64_t cval = 1000;
    s.b.run(s.timer, [&](bench_initiator& t) {
        wr(t, 0, SYS_CNTV_CVAL_EL0, cval);
        wr(t, 0, SYS_CNTV_CTL_EL0, ARCH_TIMER_CTRL_ENABLE);
        wr(t, 1, SYS_CNTP_TVAL_EL0, 500);
        wr(t, 1, SYS_CNTP_CTL_EL0, ARCH_TIMER_CTRL_ENABLE);
        t.wait_until(3 * fs_per_us);
        pct = rd(t, 0, SYS_CNTPCT_EL0);
        t.wait_until(60 * fs_per_us);
    });
    REQUIRE(s.b.clock("const").reference());
    CHECK(pct == 57);
    const std::vector<irq_edge> virt = {{true, instant_of_count(cval)}};
    const std::vector<irq_edge> phys = {{true, instant_of_count(500)}};
    CHECK(s.edges(0, "cntvirq") == virt);
    CHECK(s.edges(1, "cntpnsirq") == phys);
}
