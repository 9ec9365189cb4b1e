#pragma once
// A GICv2 interrupt controller (Arm IHI 0048B, "ARM Generic Interrupt Controller Architecture
// Specification, GIC architecture version 2.0"), laid out as a GIC-400 (DDI 0471B, 3.1): the
// Distributor at base + 0x1000 (4 KB) and the CPU interfaces at base + 0x2000 (8 KB). Without
// the Security Extensions, as QEMU's `virt` board gives Linux a GICv2: both groups, IRQ only.
//
// Inputs are interrupt_lines (models/interrupt_line.h): SPIs shared by every CPU interface, PPIs
// one line per CPU interface; outputs are one interrupt_line per CPU interface, the line the ISS
// takes as its CPU's IRQ input (the platform YAML lists it in the CPU's `irq`). Everything is
// evaluated when something changes (a register write, an input edge, an acknowledge): nothing
// ticks, so an interrupt reaches the CPU at the instant its source rose.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/unit.h"

namespace pmusim {

const register_table& gic_distributor_table();
const register_table& gic_cpu_interface_table();

// Positions and values the model composes, each written once (the tables use them too).
namespace gic_field {
constexpr uint64_t distributor_offset = 0x1000, distributor_size = 0x1000; // GIC-400 DDI 0471B 3.1
constexpr uint64_t cpu_interface_offset = 0x2000, cpu_interface_size = 0x2000;
constexpr unsigned max_cpus = 8;       // IHI 0048B 1.3: up to 8 CPU interfaces
constexpr unsigned max_interrupts = 1020; // INTIDs 0..1019; 1020..1023 are special
constexpr unsigned first_ppi = 16, first_spi = 32;
constexpr unsigned spurious = 1023, group1_not_acked = 1022; // IHI 0048B 3.2.5
// GICD_CTLR (IHI 0048B 4.3.1, no Security Extensions): EnableGrp0 [0], EnableGrp1 [1].
constexpr reg_field ctlr_enable_grp0{0, 1}, ctlr_enable_grp1{1, 1};
// GICD_TYPER (4.3.2): ITLinesNumber [4:0], CPUNumber [7:5], SecurityExtn [10], LSPI [15:11].
constexpr reg_field typer_itlines{0, 5}, typer_cpus{5, 3}, typer_security{10, 1}, typer_lspi{11, 5};
// GICD_SGIR (4.3.15): TargetListFilter [25:24], CPUTargetList [23:16], NSATT [15], SGIINTID [3:0].
constexpr reg_field sgir_filter{24, 2}, sgir_targets{16, 8}, sgir_nsatt{15, 1}, sgir_intid{0, 4};
// GICC_CTLR (4.4.1, no Security Extensions): EnableGrp0 [0], EnableGrp1 [1], AckCtl [2], FIQEn [3],
// CBPR [4], FIQBypDisGrp0 [5], IRQBypDisGrp0 [6], FIQBypDisGrp1 [7], IRQBypDisGrp1 [8], EOImode [9].
constexpr reg_field gicc_enable_grp0{0, 1}, gicc_enable_grp1{1, 1}, gicc_ackctl{2, 1}, gicc_fiqen{3, 1},
                    gicc_cbpr{4, 1}, gicc_bypass{5, 4}, gicc_eoimode{9, 1};
// GICC_IAR / EOIR / HPPIR / DIR (4.4.4): CPUID [12:10] (source of an SGI), interrupt ID [9:0].
constexpr reg_field iar_cpuid{10, 3}, iar_intid{0, 10};
constexpr reg_field bpr_binary_point{0, 3};
// Register offsets in the Distributor frame (4.1.2, Table 4-1) and the CPU interface frame (4.1.3,
// Table 4-2), as Linux names them in include/linux/irqchip/arm-gic.h.
namespace dist {
constexpr uint64_t ctlr = 0x000, typer = 0x004, iidr = 0x008, igroupr = 0x080, isenabler = 0x100,
                   icenabler = 0x180, ispendr = 0x200, icpendr = 0x280, isactiver = 0x300, icactiver = 0x380,
                   ipriorityr = 0x400, itargetsr = 0x800, icfgr = 0xC00, ppisr = 0xD00, spisr = 0xD04, sgir = 0xF00,
                   cpendsgir = 0xF10, spendsgir = 0xF20, pidr4 = 0xFD0, cidr0 = 0xFF0;
}
namespace cpuif {
constexpr uint64_t ctlr = 0x00, pmr = 0x04, bpr = 0x08, iar = 0x0C, eoir = 0x10, rpr = 0x14, hppir = 0x18,
                   abpr = 0x1C, aiar = 0x20, aeoir = 0x24, ahppir = 0x28, apr0 = 0xD0, nsapr0 = 0xE0, iidr = 0xFC,
                   dir = 0x1000;
}
} // namespace gic_field

struct gic_options {
    uint64_t base = 0;           // the GIC-400 PERIPHBASE: Distributor at +0x1000, CPU interfaces at +0x2000
    unsigned cpus = 1;           // CPU interfaces, 1..8 (interface N serves the N-th CPU of the entry)
    std::vector<unsigned> cpu_index; // the platform's CPU index of each interface (access_context::cpu)
    unsigned spis = 64;          // implemented SPIs, a multiple of 32 (INTIDs 32 .. 32 + spis - 1)
    unsigned priority_bits = 5;  // implemented priority bits, 4..8 (GIC-400: 5, 32 levels)
    uint32_t gicd_iidr = 0x0200143B; // GIC-400 r0p1 (DDI 0471B 3.2.3)
    uint32_t gicc_iidr = 0x0202143B; // GIC-400 r0p1 (DDI 0471B 3.3.2); Linux checks & 0xff0fff == 0x02043B
};

// An input of the GIC: `line` drives INTID `intid` (an SPI), or the PPI `intid` of CPU interface `cpu`.
struct gic_input {
    interrupt_line* line = nullptr;
    unsigned intid = 0;
    unsigned cpu = 0; // PPIs only
};

class gic_unit : public unit {
public:
    gic_unit(const sc_core::sc_module_name& name, soc& system, gic_options options,
             std::vector<interrupt_line*> outputs, std::vector<gic_input> inputs);

    std::string type() const override { return "gicv2"; }
    const register_table& table() const override { return gic_distributor_table(); }
    std::vector<address_window> mmio_windows() const override;
    std::optional<mmio_register> find_mmio_register(const std::string& name) const override;
    void reset(bool cold) override;
    void report(std::ostream& out) override;
    void control_registers(std::vector<observable>& out) override;

    unsigned interrupts() const { return first_spi_ + opt_.spis; } // INTIDs 0 .. interrupts() - 1
    // Observations for tests and tools.
    bool pending(unsigned cpu, unsigned intid) const;
    bool active(unsigned cpu, unsigned intid) const;
    uint64_t acknowledged() const { return acknowledged_; }

    // An interrupt source's level changed (the input lines call this; tests may too).
    void set_spi_level(unsigned intid, bool level);
    void set_ppi_level(unsigned cpu, unsigned intid, bool level);

protected:
    void access(tlm::tlm_generic_payload& trans, access_context& ctx) override;

private:
    static constexpr unsigned first_spi_ = gic_field::first_spi;
    // One interrupt's state as one CPU interface sees it (SGIs and PPIs are banked, IHI 0048B 1.4.3).
    struct irq_state {
        bool enabled = false, group1 = false, edge = false;
        bool latch = false;  // edge: pending; level: the pending latch software set (GICD_ISPENDR)
        bool level = false;  // the input's level
        bool active = false;
        uint8_t priority = 0;
        uint8_t targets = 0; // SPIs: GICD_ITARGETSR byte
        uint8_t sgi_sources = 0; // SGIs: the CPU interfaces it is pending from (GICD_SPENDSGIR byte)
        bool is_pending() const { return latch || (!edge && level) || sgi_sources; }
    };
    struct cpu_interface {
        std::array<irq_state, gic_field::first_spi> banked; // SGIs and PPIs
        uint32_t ctlr = 0, pmr = 0, bpr = 0, abpr = 0;
        // Acknowledged interrupts whose priority has not dropped yet (EOIR), newest last.
        struct running {
            unsigned intid;
            unsigned source; // the SGI's source CPU interface
            uint8_t group_priority;
        };
        std::vector<running> running;
        interrupt_line* out = nullptr;
    };

    irq_state& state(unsigned cpu, unsigned intid) {
        return intid < first_spi_ ? cpus_[cpu].banked[intid] : spis_[intid - first_spi_];
    }
    const irq_state& state(unsigned cpu, unsigned intid) const {
        return intid < first_spi_ ? cpus_[cpu].banked[intid] : spis_[intid - first_spi_];
    }
    bool targets_cpu(unsigned cpu, unsigned intid) const {
        return intid < first_spi_ || (spis_[intid - first_spi_].targets >> cpu & 1);
    }
    // The interface number of an access (-1: not one of this GIC's CPUs).
    int interface_of(const access_context& ctx) const;
    uint8_t priority_mask() const { return uint8_t(0xFF << (8 - opt_.priority_bits)); }
    unsigned min_binary_point() const { return 7 - opt_.priority_bits; } // IHI 0048B 3.3.3
    uint8_t group_priority(const cpu_interface& c, bool group1, uint8_t priority) const;
    uint8_t running_priority(const cpu_interface& c) const;
    // The highest-priority pending interrupt this interface may signal (forwarded by the Distributor,
    // enabled, not active, targeting it): its INTID and the SGI's source, or spurious.
    struct candidate {
        unsigned intid = gic_field::spurious;
        unsigned source = 0;
        uint8_t priority = 0xFF;
        bool group1 = false;
    };
    candidate highest_pending(unsigned cpu) const;
    bool signals_irq(unsigned cpu, const candidate& h) const;
    void update(); // recomputes every CPU interface's IRQ output

    uint32_t read_distributor(unsigned cpu, uint64_t offset, unsigned len);
    void write_distributor(unsigned cpu, uint64_t offset, unsigned len, uint32_t value);
    uint32_t read_cpu_interface(unsigned cpu, uint64_t offset);
    void write_cpu_interface(unsigned cpu, uint64_t offset, uint32_t value);
    uint32_t acknowledge(unsigned cpu, bool alias);
    void end_of_interrupt(unsigned cpu, uint32_t value);
    void deactivate(unsigned cpu, uint32_t value);
    void send_sgi(unsigned from, uint32_t sgir);
    // A bitmap register (1 bit per INTID) word `word` as `cpu` sees it, and its set/clear writes.
    uint32_t bitmap(unsigned cpu, unsigned word, bool irq_state::*flag) const;
    uint32_t pending_bitmap(unsigned cpu, unsigned word) const;

    gic_options opt_;
    std::vector<cpu_interface> cpus_;
    std::vector<irq_state> spis_;
    uint32_t gicd_ctlr_ = 0;
    uint64_t acknowledged_ = 0;
};

} // namespace pmusim
