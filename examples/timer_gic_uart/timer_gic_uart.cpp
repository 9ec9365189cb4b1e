// A board of pmusim's devices in a user's sc_main (docs/embedding.md, "The devices alone"): the
// Arm generic timer's EL1 physical timer wired to PPI 14 (INTID 30) of a GICv2, whose CPU interface
// interrupts the user's CPU; the CPU's handler acknowledges it (GICC_IAR), masks the timer and
// prints on a PL011 whose output is stdout. Expected: the interrupt at 10 us exactly (1000 counts of
// a 100 MHz system counter), IAR = 30, and the UART's line.
#include <cstring>
#include <iostream>
#include <pmusim/pmusim.h>
#include <string>
#include <tlm_utils/simple_initiator_socket.h>

using namespace sc_core;

struct cpu : sc_module {
    tlm_utils::simple_initiator_socket<cpu> gic_bus{"gic_bus"}, uart_bus{"uart_bus"};
    sc_in<bool> irq{"irq"};
    pmusim::arm_generic_timer* timer = nullptr;
    bool passed = false;
    SC_HAS_PROCESS(cpu);
    explicit cpu(sc_module_name n) : sc_module(n) { SC_THREAD(run); }

    // One 4-byte access with plain payloads (no pmusim extension: the default initiator, CPU 0).
    uint32_t access(tlm_utils::simple_initiator_socket<cpu>& bus, bool write, uint64_t address, uint32_t value) {
        tlm::tlm_generic_payload t;
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(address);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
        t.set_data_length(4);
        t.set_streaming_width(4);
        sc_time delay = SC_ZERO_TIME;
        bus->b_transport(t, delay);
        if (!t.is_response_ok()) SC_REPORT_ERROR("cpu", t.get_response_string().c_str());
        return value;
    }
    void gic(uint64_t offset, uint32_t v) { access(gic_bus, true, offset, v); }
    void uart_print(const std::string& s) {
        for (char c : s) access(uart_bus, true, 0x000, uint8_t(c)); // UARTDR
    }

    void run() {
        // GICv2 (IHI 0048B, GIC-400 layout): Distributor 0x1000, CPU interface 0x2000.
        gic(0x1000, 1);              // GICD_CTLR.EnableGrp0
        gic(0x1100, 1u << 30);       // GICD_ISENABLER0: INTID 30
        gic(0x141C, 0xA0u << 16);    // GICD_IPRIORITYR7, byte 2: INTID 30 at priority 0xA0
        gic(0x2004, 0xF0);           // GICC_PMR
        gic(0x2000, 1);              // GICC_CTLR.EnableGrp0
        access(uart_bus, true, 0x030, 0x301); // UARTCR: UARTEN, TXE, RXE
        // The generic timer (Arm ARM D11): EL2 opens the physical timer to EL1, EL1 arms it.
        pmusim::access_context el2, el1;
        el2.el = 2;
        timer->write_sysreg(0, pmusim::sysreg_encoding{3, 4, 14, 1, 0}, 3, el2);    // CNTHCTL_EL2
        timer->write_sysreg(0, pmusim::sysreg_encoding{3, 3, 14, 2, 2}, 1000, el1); // CNTP_CVAL_EL0
        timer->write_sysreg(0, pmusim::sysreg_encoding{3, 3, 14, 2, 1}, 1, el1);    // CNTP_CTL_EL0.ENABLE
        wait(irq.posedge_event());
        const sc_time at = sc_time_stamp();
        const uint32_t iar = access(gic_bus, false, 0x200C, 0); // GICC_IAR
        timer->write_sysreg(0, pmusim::sysreg_encoding{3, 3, 14, 2, 1}, 3, el1); // IMASK
        gic(0x2010, iar);                                                     // GICC_EOIR
        uart_print("timer interrupt " + std::to_string(iar & 0x3FF) + " at " + at.to_string() + "\n");
        passed = at == sc_time(10, SC_US) && iar == 30;
        sc_stop();
    }
};

int sc_main(int, char*[]) {
    pmusim::arm_generic_timer timer("timer");   // 100 MHz system counter, one CPU
    pmusim::gicv2 gic("gic");                   // one CPU interface, 64 SPIs
    pmusim::pl011_uart uart("uart");            // output: stdout
    cpu core("core");
    core.timer = &timer;
    sc_signal<bool> cntpnsirq("cntpnsirq"), cpu_irq("cpu_irq"), uart_irq("uart_irq");
    timer.irq(0, "cntpnsirq").bind(cntpnsirq);
    gic.ppi_in(0, 30).bind(cntpnsirq);          // EL1 physical timer: PPI 14, INTID 30
    gic.irq_out(0).bind(cpu_irq);
    uart.irq.bind(uart_irq);
    gic.spi_in(33).bind(uart_irq);              // the UART as SPI 1
    core.irq.bind(cpu_irq);
    core.gic_bus.bind(gic.target);
    core.uart_bus.bind(uart.target);
    sc_start(1, SC_MS);
    std::cout << (core.passed ? "PASSED" : "FAILED") << std::endl;
    return core.passed ? 0 : 1;
}
