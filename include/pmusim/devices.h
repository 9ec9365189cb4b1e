#pragma once
/// @file
/// The platform devices alone, embeddable as the units are (units.h): the GICv2 interrupt
/// controller, the Arm generic timer and the PL011 UART, each an ordinary TLM-2.0 target (or, for
/// the timer, a system-register block) with sc_signal interrupt ports, built from typed options
/// with no pmusim platform file around it (docs/embedding.md, docs/devices.md for the models).
#include <cstdint>
#include <string>

#include "pmusim/model.h"
#include "pmusim/units.h"

namespace pmusim {

/// Options of a GICv2 interrupt controller in the GIC-400 layout (Arm IHI 0048B; DDI 0471B 3.1),
/// without the Security Extensions.
struct gicv2_options {
    unsigned cpus = 1;                    ///< CPU interfaces, 1..8 (interface N serves CPU N)
    unsigned spis = 64;                   ///< implemented SPIs, a multiple of 32: INTIDs 32 .. 31 + spis
    unsigned priority_bits = 5;           ///< implemented priority bits, 4..8 (GIC-400: 5)
    uint32_t gicd_iidr = 0x0200143B;      ///< GICD_IIDR (GIC-400 r0p1)
    uint32_t gicc_iidr = 0x0202143B;      ///< GICC_IIDR (GIC-400 r0p1)
    access_context default_initiator = ns_el1_cpu0();
};

/// A GICv2. `target` serves the Distributor at offsets 0x1000..0x1FFF and the CPU interfaces at
/// 0x2000..0x3FFF; the CPU interface an access reaches is the accessing CPU's (the access context's
/// `cpu`; a plain payload is the default initiator's, CPU 0). Inputs are level-sensitive
/// `sc_signal<bool>`s (high = asserted): one per SPI, and per CPU interface one per PPI; an input
/// left unbound stays low. Each CPU interface drives its IRQ output.
class gicv2 : public model {
public:
    explicit gicv2(const sc_core::sc_module_name& name, const gicv2_options& options = {});
    /// The IRQ output of CPU interface `cpu` (port "irq_cpuN").
    sc_core::sc_out<bool>& irq_out(unsigned cpu);
    /// The input of SPI `intid` (32 .. 31 + spis; port "spiN").
    interrupt_in_port& spi_in(unsigned intid);
    /// The input of PPI `intid` (16..31) of CPU interface `cpu` (port "cpuN_ppiM").
    interrupt_in_port& ppi_in(unsigned cpu, unsigned intid);
};

/// Options of the Arm generic timer of a group of CPUs (Arm ARM DDI 0487, chapter D11).
struct arm_generic_timer_options {
    unsigned cpus = 1;                    ///< CPUs, each with its four timers (cpu0..cpuN-1)
    uint64_t counter_hz = 100000000;      ///< the system counter's clock ("const"): CNTPCT_EL0 counts its edges
    uint64_t cntfrq = 0;                  ///< CNTFRQ_EL0 at reset (0: counter_hz)
    uint64_t cpu_clock_hz = 2000000000;   ///< the CPUs' clock ("cpuN")
    access_context default_initiator = ns_el1_cpu0();
};

/// The generic timer: system registers only (CNTP_CTL_EL0, CNTP_CVAL_EL0, CNTPCT_EL0, CNTV_*,
/// CNTHP_*, CNTPS_*, CNTKCTL_EL1, CNTHCTL_EL2, ... through read_sysreg()/write_sysreg(), with the
/// architecture's access rules). Each timer's output rises at the exact instant its condition
/// (count >= CVAL, enabled, not masked) becomes true.
class arm_generic_timer : public model {
public:
    explicit arm_generic_timer(const sc_core::sc_module_name& name, const arm_generic_timer_options& options = {});
    /// A timer's output on CPU `cpu`, by its signal name: "cntpnsirq" (EL1 physical, PPI 30),
    /// "cntvirq" (EL1 virtual, PPI 27), "cnthpirq" (EL2 physical, PPI 26), "cntpsirq" (Secure
    /// physical, PPI 29) (port "cpuN_SIGNAL").
    sc_core::sc_out<bool>& irq(unsigned cpu, const std::string& signal);
    /// DVFS of the system counter's clock.
    void set_counter_frequency(uint64_t hz) { set_frequency("const", hz); }
};

/// Options of an Arm PrimeCell UART (PL011, DDI 0183).
struct pl011_uart_options {
    uint64_t uartclk_hz = 24000000;       ///< UARTCLK, the reference clock of the baud divisor
    /// Where transmitted bytes go: "stdout", "stderr", "none" or a file path (created, truncated).
    std::string output = "stdout";
    /// What it receives, paced by the programmed baud rate: a file path, "stdin", or "" (nothing).
    std::string input;
    uint32_t periph_id = 0x00041011;      ///< UARTPeriphID0-3
    bool irq_must_be_bound = false;       ///< an unbound `irq` is an elaboration error
    access_context default_initiator = ns_el1_cpu0();
};

/// A PL011. `target` serves its 4 KB register frame at offsets 0..0xFFF.
class pl011_uart : public model {
public:
    explicit pl011_uart(const sc_core::sc_module_name& name, const pl011_uart_options& options = {});
    sc_core::sc_out<bool>& irq;   ///< UARTINTR, the combined interrupt
};

} // namespace pmusim
