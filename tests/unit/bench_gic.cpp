// The GICv2 on a bench of its own (tests/unit/unit_bench.h): two CPU interfaces whose IRQ outputs
// are recorded with their instants, SPI and PPI inputs the test drives, and Linux's own register
// sequences (drivers/irqchip/irq-gic.c and irq-gic-common.c, v6.1.192) played on the socket.
// Offsets and values below are transcribed from Linux's include/linux/irqchip/arm-gic.h and the
// GICv2 specification (Arm IHI 0048B), not from the model's headers.
#include <catch2/catch.hpp>

#include "devices/gic/gic.h"
#include "tests/unit/unit_bench.h"

using namespace pmusim;
using testing::bench_initiator;
using testing::fs_per_us;
using testing::irq_edge;

namespace {

// include/linux/irqchip/arm-gic.h@v6.1.192
constexpr uint64_t GIC_CPU_CTRL = 0x00, GIC_CPU_PRIMASK = 0x04, GIC_CPU_INTACK = 0x0c, GIC_CPU_EOI = 0x10,
                   GIC_CPU_RUNNINGPRI = 0x14, GIC_CPU_HIGHPRI = 0x18, GIC_CPU_IDENT = 0xfc, GIC_CPU_DEACTIVATE = 0x1000;
constexpr uint64_t GIC_DIST_CTRL = 0x000, GIC_DIST_CTR = 0x004, GIC_DIST_ENABLE_SET = 0x100,
                   GIC_DIST_ENABLE_CLEAR = 0x180, GIC_DIST_PENDING_SET = 0x200, GIC_DIST_ACTIVE_SET = 0x300,
                   GIC_DIST_ACTIVE_CLEAR = 0x380, GIC_DIST_PRI = 0x400, GIC_DIST_TARGET = 0x800,
                   GIC_DIST_CONFIG = 0xc00, GIC_DIST_SOFTINT = 0xf00;
constexpr uint32_t GICC_ENABLE = 0x1, GICC_INT_PRI_THRESHOLD = 0xf0, GICD_ENABLE = 0x1, GICC_INT_SPURIOUS = 1023;
constexpr uint32_t GIC_CPU_CTRL_EOImodeNS = 1 << 9;
// include/linux/irqchip/arm-gic-common.h@v6.1.192: GICD_INT_DEF_PRI 0xa0, repeated in 4 bytes.
constexpr uint32_t GICD_INT_DEF_PRI_X4 = 0xa0a0a0a0;

constexpr uint64_t base = 0x2c000000; // the unit's base: Distributor at +0x1000, CPU interface at +0x2000
constexpr uint64_t gicd = base + 0x1000, gicc = base + 0x2000;
constexpr unsigned spi_a = 40, spi_b = 41, ppi = 27; // the SPIs the test drives, the virtual timer's PPI

struct gic_bench {
    testing::unit_bench b;
    interrupt_line& a = b.add_irq("spi_a");
    interrupt_line& bl = b.add_irq("spi_b");
    interrupt_line& timer0 = b.add_irq("cpu0_cntv");
    interrupt_line& timer1 = b.add_irq("cpu1_cntv");
    interrupt_line& out0 = b.add_irq("gic_cpu0_irq");
    interrupt_line& out1 = b.add_irq("gic_cpu1_irq");
    gic_unit gic{"gic", b.system, options(), {&out0, &out1},
                 {{&a, spi_a, 0}, {&bl, spi_b, 0}, {&timer0, ppi, 0}, {&timer1, ppi, 1}}};
    static gic_options options() {
        gic_options o;
        o.base = base;
        o.cpus = 2;
        o.spis = 64;
        return o;
    }
    const std::vector<irq_edge>& edges(unsigned cpu) { return b.irq_edges(cpu ? "gic_cpu1_irq" : "gic_cpu0_irq"); }
};

void as_cpu(bench_initiator& t, unsigned cpu) { t.mmio_context.cpu = cpu; }

// gic_dist_init (irq-gic.c) and gic_dist_config (irq-gic-common.c) for `irqs` interrupts, as cpu0.
void linux_dist_init(bench_initiator& t, unsigned irqs) {
    as_cpu(t, 0);
    t.write32(gicd + GIC_DIST_CTRL, 0);
    uint32_t cpumask = 0x01; // gic_get_cpumask: the boot CPU's mask
    cpumask |= cpumask << 8;
    cpumask |= cpumask << 16;
    for (unsigned i = 32; i < irqs; i += 4) t.write32(gicd + GIC_DIST_TARGET + i * 4 / 4, cpumask);
    for (unsigned i = 32; i < irqs; i += 16) t.write32(gicd + GIC_DIST_CONFIG + i / 4, 0); // GICD_INT_ACTLOW_LVLTRIG
    for (unsigned i = 32; i < irqs; i += 4) t.write32(gicd + GIC_DIST_PRI + i, GICD_INT_DEF_PRI_X4);
    for (unsigned i = 32; i < irqs; i += 32) {
        t.write32(gicd + GIC_DIST_ACTIVE_CLEAR + i / 8, 0xffffffff);
        t.write32(gicd + GIC_DIST_ENABLE_CLEAR + i / 8, 0xffffffff);
    }
    t.write32(gicd + GIC_DIST_CTRL, GICD_ENABLE);
}

// gic_cpu_init + gic_cpu_config + gic_cpu_if_up on `cpu` (EOImode 0: a kernel entered at EL1).
void linux_cpu_init(bench_initiator& t, unsigned cpu, bool eoimode = false) {
    as_cpu(t, cpu);
    t.write32(gicd + GIC_DIST_ACTIVE_CLEAR, 0xffffffff);
    t.write32(gicd + GIC_DIST_ENABLE_CLEAR, 0xffff0000); // GICD_INT_EN_CLR_PPI
    t.write32(gicd + GIC_DIST_ENABLE_SET, 0x0000ffff);   // GICD_INT_EN_SET_SGI
    for (unsigned i = 0; i < 32; i += 4) t.write32(gicd + GIC_DIST_PRI + i * 4 / 4, GICD_INT_DEF_PRI_X4);
    t.write32(gicc + GIC_CPU_PRIMASK, GICC_INT_PRI_THRESHOLD);
    for (unsigned i = 0; i < 4; ++i) t.write32(gicc + 0xd0 + i * 4, 0); // GIC_CPU_ACTIVEPRIO
    const uint32_t bypass = t.read32(gicc + GIC_CPU_CTRL) & 0x1e0;
    t.write32(gicc + GIC_CPU_CTRL, bypass | (eoimode ? GIC_CPU_CTRL_EOImodeNS : 0) | GICC_ENABLE);
}

void enable(bench_initiator& t, unsigned intid) { t.write32(gicd + GIC_DIST_ENABLE_SET + intid / 32 * 4, 1u << intid % 32); }

} // namespace

TEST_CASE("gic bench: Linux identifies a GICv2 with the configured lines and CPUs") {
    gic_bench s;
    uint32_t ident = 0, ctr = 0, target0 = 0, target1 = 0;
    s.b.run(s.gic, [&](bench_initiator& t) {
        ident = t.read32(gicc + GIC_CPU_IDENT);
        ctr = t.read32(gicd + GIC_DIST_CTR);
        target0 = t.read32(gicd + GIC_DIST_TARGET); // gic_get_cpumask reads the banked SGI targets
        as_cpu(t, 1);
        target1 = t.read32(gicd + GIC_DIST_TARGET);
    });
    CHECK((ident & 0xff0fff) == 0x02043B); // gic_check_gicv2
    CHECK(((ctr & 0x1f) + 1) * 32 == 96);  // gic_init_bases: gic_irqs = (TYPER & 0x1f + 1) * 32; 32 + 64 SPIs
    CHECK(((ctr >> 5) & 7) + 1 == 2);      // CPUNumber: 2 interfaces (IHI 0048B 4.3.2)
    CHECK(target0 == 0x01010101);
    CHECK(target1 == 0x02020202);
}

TEST_CASE("gic bench: a level SPI reaches its CPU at the instant it rises - IAR and EOIR as Linux uses them") {
    gic_bench s;
    uint32_t iar = 0, again = 0, after_low = 0, rpr_active = 0, rpr_idle = 0, hppir = 0;
    s.b.run(s.gic, [&](bench_initiator& t) {
        linux_dist_init(t, 96);
        linux_cpu_init(t, 0);
        linux_cpu_init(t, 1);
        as_cpu(t, 0);
        enable(t, spi_a);
        t.wait_until(1 * fs_per_us);
        s.a.set(true);               // the source rises at 1 us
        hppir = t.read32(gicc + GIC_CPU_HIGHPRI);
        t.wait_until(2 * fs_per_us);
        iar = t.read32(gicc + GIC_CPU_INTACK); // acknowledge at 2 us: active and still pending
        rpr_active = t.read32(gicc + GIC_CPU_RUNNINGPRI);
        t.wait_until(3 * fs_per_us);
        t.write32(gicc + GIC_CPU_EOI, iar);    // EOI at 3 us: the line is still high, so it is pending again
        rpr_idle = t.read32(gicc + GIC_CPU_RUNNINGPRI);
        again = t.read32(gicc + GIC_CPU_INTACK);
        s.a.set(false);                        // the device is served: its line falls at 3 us
        t.write32(gicc + GIC_CPU_EOI, again);
        after_low = t.read32(gicc + GIC_CPU_INTACK);
    });
    CHECK(hppir == spi_a);
    CHECK(iar == spi_a);
    CHECK(again == spi_a);
    CHECK(after_low == GICC_INT_SPURIOUS);
    CHECK(rpr_active == 0xa0); // the running priority is the active interrupt's (IHI 0048B 4.4.6)
    CHECK(rpr_idle == 0xff);
    // cpu0's IRQ: up at 1 us, down at the acknowledge, up again at the EOI (level still high), down
    // at the second acknowledge; cpu1 is not a target and never sees it.
    const std::vector<irq_edge> expected = {{true, 1 * fs_per_us}, {false, 2 * fs_per_us}, {true, 3 * fs_per_us},
                                            {false, 3 * fs_per_us}};
    CHECK(s.edges(0) == expected);
    CHECK(s.edges(1).empty());
}

TEST_CASE("gic bench: SGIs carry their source CPU in GICC_IAR and must be EOId with it") {
    gic_bench s;
    uint32_t iar1 = 0, iar0 = 0, none = 0;
    s.b.run(s.gic, [&](bench_initiator& t) {
        linux_dist_init(t, 96);
        linux_cpu_init(t, 0);
        linux_cpu_init(t, 1);
        as_cpu(t, 0);
        t.wait_until(1 * fs_per_us);
        t.write32(gicd + GIC_DIST_SOFTINT, (1u << 1) << 16 | 3); // gic_ipi_send_mask: map << 16 | hwirq, cpu1, SGI 3
        as_cpu(t, 1);
        t.wait_until(2 * fs_per_us);
        iar1 = t.read32(gicc + GIC_CPU_INTACK);
        t.write32(gicc + GIC_CPU_EOI, iar1);
        t.write32(gicd + GIC_DIST_SOFTINT, 2u << 24 | 5); // TargetListFilter 2: the requester only
        iar0 = t.read32(gicc + GIC_CPU_INTACK);
        t.write32(gicc + GIC_CPU_EOI, iar0);
        none = t.read32(gicc + GIC_CPU_INTACK);
    });
    CHECK(iar1 == (0u << 10 | 3)); // source cpu0 in CPUID [12:10]
    CHECK(iar0 == (1u << 10 | 5)); // cpu1 sent SGI 5 to itself
    CHECK(none == GICC_INT_SPURIOUS);
    const std::vector<irq_edge> cpu1 = {{true, 1 * fs_per_us}, {false, 2 * fs_per_us}, {true, 2 * fs_per_us},
                                        {false, 2 * fs_per_us}};
    CHECK(s.edges(1) == cpu1);
    CHECK(s.edges(0).empty());
}

TEST_CASE("gic bench: priorities - the mask holds back - a higher priority preempts - ties go to the lower INTID") {
    gic_bench s;
    uint32_t masked = 0, first = 0, preempting = 0, rpr = 0, tie = 0;
    s.b.run(s.gic, [&](bench_initiator& t) {
        linux_dist_init(t, 96);
        linux_cpu_init(t, 0);
        as_cpu(t, 0);
        enable(t, spi_a);
        enable(t, spi_b);
        t.write32(gicc + GIC_CPU_PRIMASK, 0x80); // mask priorities 0x80 and lower (numerically higher)
        s.a.set(true);
        masked = t.read32(gicc + GIC_CPU_INTACK); // 0xa0 is not above the mask: spurious
        t.write32(gicc + GIC_CPU_PRIMASK, 0xf0);
        t.wait_until(1 * fs_per_us);
        first = t.read32(gicc + GIC_CPU_INTACK); // SPI a at 0xa0 becomes active
        // Byte write of SPI b's priority (IPRIORITYR is byte-accessible): 0x40 preempts 0xa0.
        t.mmio(true, gicd + GIC_DIST_PRI + spi_b, 1, 0x40);
        t.wait_until(2 * fs_per_us);
        s.bl.set(true);
        preempting = t.read32(gicc + GIC_CPU_INTACK);
        rpr = t.read32(gicc + GIC_CPU_RUNNINGPRI);
        t.write32(gicc + GIC_CPU_EOI, preempting);
        t.write32(gicc + GIC_CPU_EOI, first);
        // Equal priorities: both pending again (levels high), the lower INTID first.
        t.mmio(true, gicd + GIC_DIST_PRI + spi_b, 1, 0xa0);
        tie = t.read32(gicc + GIC_CPU_INTACK);
    });
    CHECK(masked == GICC_INT_SPURIOUS);
    CHECK(first == spi_a);
    CHECK(preempting == spi_b);
    CHECK(rpr == 0x40);
    CHECK(tie == spi_a);
    // The output: up when the mask opens at 0, down at the first acknowledge (1 us), up when b
    // preempts (2 us), down at its acknowledge, then up when both are pending again after the EOIs.
    REQUIRE(s.edges(0).size() >= 4);
    CHECK(s.edges(0)[0] == irq_edge{true, 0});
    CHECK(s.edges(0)[1] == irq_edge{false, 1 * fs_per_us});
    CHECK(s.edges(0)[2] == irq_edge{true, 2 * fs_per_us});
    CHECK(s.edges(0)[3] == irq_edge{false, 2 * fs_per_us});
}

TEST_CASE("gic bench: an edge-triggered SPI latches a pulse - is taken once - and pending can be set by software") {
    gic_bench s;
    uint32_t iar = 0, second = 0, soft = 0, pend_word = 0;
    s.b.run(s.gic, [&](bench_initiator& t) {
        linux_dist_init(t, 96);
        linux_cpu_init(t, 0);
        as_cpu(t, 0);
        // gic_configure_irq for IRQ_TYPE_EDGE_RISING: Int_config[1] of SPI a (2 bits per INTID).
        const uint64_t cfg = gicd + GIC_DIST_CONFIG + spi_a / 16 * 4;
        t.write32(cfg, t.read32(cfg) | 2u << (spi_a % 16 * 2));
        enable(t, spi_a);
        t.wait_until(1 * fs_per_us);
        s.a.set(true);
        s.a.set(false); // a pulse: gone before the CPU looks
        pend_word = t.read32(gicd + GIC_DIST_PENDING_SET + spi_a / 32 * 4);
        iar = t.read32(gicc + GIC_CPU_INTACK);
        t.write32(gicc + GIC_CPU_EOI, iar);
        second = t.read32(gicc + GIC_CPU_INTACK);
        t.write32(gicd + GIC_DIST_PENDING_SET + spi_b / 32 * 4, 1u << spi_b % 32); // gic_irq_set_irqchip_state
        enable(t, spi_b);
        soft = t.read32(gicc + GIC_CPU_INTACK);
    });
    CHECK((pend_word >> spi_a % 32 & 1) == 1);
    CHECK(iar == spi_a);
    CHECK(second == GICC_INT_SPURIOUS);
    CHECK(soft == spi_b);
}

TEST_CASE("gic bench: EOImode 1 - EOIR drops the priority - the interrupt stays active until GICC_DIR") {
    gic_bench s;
    uint32_t iar = 0, while_active = 0, active_word = 0, after_dir = 0;
    s.b.run(s.gic, [&](bench_initiator& t) {
        linux_dist_init(t, 96);
        linux_cpu_init(t, 0, true);
        as_cpu(t, 0);
        enable(t, spi_a);
        s.a.set(true);
        iar = t.read32(gicc + GIC_CPU_INTACK);
        t.write32(gicc + GIC_CPU_EOI, iar);           // gic_handle_irq with supports_deactivate_key
        while_active = t.read32(gicc + GIC_CPU_INTACK); // still active: not signalled again
        active_word = t.read32(gicd + GIC_DIST_ACTIVE_SET + spi_a / 32 * 4);
        t.write32(gicc + GIC_CPU_DEACTIVATE, iar);    // gic_eoimode1_eoi_irq
        after_dir = t.read32(gicc + GIC_CPU_INTACK);  // the level is still high: pending again
    });
    CHECK(iar == spi_a);
    CHECK(while_active == GICC_INT_SPURIOUS);
    CHECK((active_word >> spi_a % 32 & 1) == 1);
    CHECK(after_dir == spi_a);
}

TEST_CASE("gic bench: a PPI is banked - each CPU's timer line reaches only its own interface") {
    gic_bench s;
    uint32_t iar0 = 0, iar1 = 0, enabled1 = 0;
    s.b.run(s.gic, [&](bench_initiator& t) {
        linux_dist_init(t, 96);
        linux_cpu_init(t, 0);
        linux_cpu_init(t, 1);
        as_cpu(t, 1);
        enable(t, ppi); // only cpu1 enables its PPI 27
        enabled1 = t.read32(gicd + GIC_DIST_ENABLE_SET);
        t.wait_until(1 * fs_per_us);
        s.timer0.set(true); // cpu0's timer: its PPI is disabled on cpu0
        s.timer1.set(true);
        iar1 = t.read32(gicc + GIC_CPU_INTACK);
        as_cpu(t, 0);
        iar0 = t.read32(gicc + GIC_CPU_INTACK);
    });
    CHECK(enabled1 == (0x0000ffffu | 1u << ppi));
    CHECK(iar1 == ppi);
    CHECK(iar0 == GICC_INT_SPURIOUS);
    CHECK(s.edges(0).empty());
    const std::vector<irq_edge> cpu1 = {{true, 1 * fs_per_us}, {false, 1 * fs_per_us}};
    CHECK(s.edges(1) == cpu1);
}

TEST_CASE("gic bench: word accesses only except the byte-accessible banks") {
    gic_bench s;
    tlm::tlm_response_status byte_ctlr{}, byte_target{}, half{};
    uint32_t target_word = 0;
    s.b.run(s.gic, [&](bench_initiator& t) {
        byte_ctlr = t.mmio(true, gicd + GIC_DIST_CTRL, 1, 1).status;
        byte_target = t.mmio(true, gicd + GIC_DIST_TARGET + spi_a, 1, 0x02).status; // writeb_relaxed in gic_set_affinity
        half = t.mmio(false, gicc + GIC_CPU_INTACK, 2).status;
        target_word = t.read32(gicd + GIC_DIST_TARGET + spi_a);
    });
    CHECK(byte_ctlr == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(byte_target == tlm::TLM_OK_RESPONSE);
    CHECK(half == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK((target_word & 0xff) == 0x02);
}
