// The platform devices embedded as a user's sc_main would (include/pmusim/devices.h,
// docs/embedding.md): the generic timer, the GICv2 and the PL011 built from typed options, wired
// with sc_signals, driven by plain payloads and read_sysreg/write_sysreg. Only public headers are
// included; expected values come from the architecture documents cited at each check.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <pmusim/pmusim.h>
#include <tlm_utils/simple_initiator_socket.h>

using namespace sc_core;

namespace {

// System-register encodings (op0, op1, CRn, CRm, op2), Arm ARM DDI 0487 D19 (CNTP_CTL_EL0 is
// S3_3_C14_C2_1, CNTP_CVAL_EL0 S3_3_C14_C2_2, CNTPCT_EL0 S3_3_C14_C0_1, CNTHCTL_EL2 S3_4_C14_C1_0).
constexpr pmusim::sysreg_encoding cntp_ctl{3, 3, 14, 2, 1}, cntp_cval{3, 3, 14, 2, 2}, cntpct{3, 3, 14, 0, 1},
                                  cnthctl_el2{3, 4, 14, 1, 0};
// GICv2 offsets in the GIC-400 layout (DDI 0471B 3.1: Distributor at 0x1000, CPU interface at
// 0x2000) and IHI 0048B Tables 4-1 and 4-2.
constexpr uint64_t gicd = 0x1000, gicc = 0x2000;
constexpr uint64_t gicd_ctlr = gicd + 0x000, gicd_typer = gicd + 0x004, gicd_isenabler = gicd + 0x100,
                   gicd_ipriorityr = gicd + 0x400, gicd_itargetsr = gicd + 0x800, gicd_sgir = gicd + 0xF00;
constexpr uint64_t gicc_ctlr = gicc + 0x00, gicc_pmr = gicc + 0x04, gicc_iar = gicc + 0x0C, gicc_eoir = gicc + 0x10;
constexpr uint32_t spurious = 1023; // IHI 0048B 3.2.5

struct initiator : sc_module {
    tlm_utils::simple_initiator_socket<initiator> out{"out"};
    explicit initiator(const sc_module_name& n) : sc_module(n) {}
    // A 4-byte access as CPU `cpu` (Non-secure EL1), or as the target's default initiator (cpu < 0).
    uint32_t access(bool write, uint64_t address, uint32_t value, int cpu = -1) {
        tlm::tlm_generic_payload t;
        unsigned char data[4];
        std::memcpy(data, &value, 4);
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(address);
        t.set_data_ptr(data);
        t.set_data_length(4);
        t.set_streaming_width(4);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        pmusim::access_context ctx;
        ctx.cpu = unsigned(cpu);
        if (cpu >= 0) t.set_extension(&ctx);
        sc_time delay = SC_ZERO_TIME;
        out->b_transport(t, delay);
        if (cpu >= 0) t.clear_extension(&ctx);
        REQUIRE(t.get_response_status() == tlm::TLM_OK_RESPONSE);
        std::memcpy(&value, data, 4);
        return value;
    }
    uint32_t read(uint64_t address, int cpu = -1) { return access(false, address, 0, cpu); }
    void write(uint64_t address, uint32_t value, int cpu = -1) { access(true, address, value, cpu); }
};

// GICD_IPRIORITYR / GICD_ITARGETSR hold one byte per INTID (IHI 0048B 4.3.11, 4.3.12).
void write_byte_field(initiator& cpu, uint64_t base, unsigned intid, uint8_t value, int as_cpu = -1) {
    const uint64_t word = base + (intid & ~3u);
    const unsigned shift = (intid & 3) * 8;
    const uint32_t old = cpu.read(word, as_cpu);
    cpu.write(word, (old & ~(0xFFu << shift)) | uint32_t(value) << shift, as_cpu);
}

} // namespace

TEST_CASE("embedding: the generic timer's PPI rises when CNTPCT reaches CVAL and the GIC's IAR gives INTID 30") {
    pmusim::arm_generic_timer_options to;
    to.counter_hz = 100000000; // 10 ns per count
    pmusim::arm_generic_timer timer("timer", to);
    pmusim::gicv2 gic("gic");
    initiator cpu("cpu");
    sc_signal<bool> timer_irq("timer_irq"), cpu_irq("cpu_irq");
    timer.irq(0, "cntpnsirq").bind(timer_irq);
    gic.ppi_in(0, 30).bind(timer_irq); // the EL1 physical timer is PPI 14, INTID 30 (SBSA; Linux's DT binding)
    gic.irq_out(0).bind(cpu_irq);
    cpu.out.bind(gic.target);

    sc_time timer_rose, gic_rose;
    uint32_t iar = 0, iar_after = 0, typer = 0;
    uint64_t ctl_at_irq = 0, count_at_irq = 0, ctl_masked = 0;
    pmusim::access_outcome el1_outcome = pmusim::access_outcome::error;
    sc_spawn([&] {
        // The GIC: Distributor and CPU interface on, INTID 30 enabled at priority 0xA0, PMR 0xF0.
        typer = cpu.read(gicd_typer);
        cpu.write(gicd_ctlr, 1);
        cpu.write(gicd_isenabler, 1u << 30);
        write_byte_field(cpu, gicd_ipriorityr, 30, 0xA0);
        cpu.write(gicc_pmr, 0xF0);
        cpu.write(gicc_ctlr, 1);
        // EL2 lets EL1 use the physical timer (CNTHCTL_EL2.EL1PCTEN, EL1PCEN), as Linux's EL2 set-up does.
        pmusim::access_context el2;
        el2.el = 2;
        timer.write_sysreg(0, cnthctl_el2, 3, el2);
        pmusim::access_context el1;
        timer.write_sysreg(0, cntp_cval, 1000, el1);
        timer.write_sysreg(0, cntp_ctl, 1, el1); // ENABLE, not masked
        el1_outcome = el1.outcome;
        wait(timer_irq.posedge_event());
        timer_rose = sc_time_stamp();
        if (!cpu_irq.read()) wait(cpu_irq.posedge_event());
        gic_rose = sc_time_stamp();
        ctl_at_irq = timer.read_sysreg(0, cntp_ctl, el1);
        count_at_irq = timer.read_sysreg(0, cntpct, el1);
        iar = cpu.read(gicc_iar);
        // The handler masks the timer (CNTP_CTL.IMASK) and ends the interrupt.
        timer.write_sysreg(0, cntp_ctl, 3, el1);
        ctl_masked = timer.read_sysreg(0, cntp_ctl, el1);
        cpu.write(gicc_eoir, iar);
        wait(1, SC_NS); // the masked timer's level reaches the GIC a few delta cycles later
        iar_after = cpu.read(gicc_iar);
        sc_stop();
    });
    sc_start(1, SC_MS);
    CHECK(el1_outcome == pmusim::access_outcome::ok);
    // 1000 counts of a 100 MHz counter: CNTPCT_EL0 >= CNTP_CVAL_EL0 from 10 us (DDI 0487 D11.2.4).
    CHECK(timer_rose == sc_time(10, SC_US));
    CHECK(gic_rose == sc_time(10, SC_US));
    CHECK(count_at_irq == 1000);
    CHECK(ctl_at_irq == 0b101); // ISTATUS [2], ENABLE [0]
    CHECK(ctl_masked == 0b111); // ISTATUS stays set while the condition holds; IMASK [1]
    // GICC_IAR: INTID [9:0], CPUID [12:10] 0 for a PPI (IHI 0048B 4.4.4).
    CHECK(iar == 30);
    CHECK(iar_after == spurious); // masked: nothing pending
    // GICD_TYPER: ITLinesNumber [4:0] = 96 / 32 - 1 (64 SPIs), CPUNumber [7:5] = 0 (IHI 0048B 4.3.2).
    CHECK(typer == 2);
    CHECK_FALSE(cpu_irq.read());
}

TEST_CASE("embedding: the GIC forwards an SPI to the CPU interface ITARGETSR names and an SGI with its source") {
    pmusim::gicv2_options go;
    go.cpus = 2;
    pmusim::gicv2 gic("gic", go);
    initiator cpu("cpu");
    sc_signal<bool> spi("spi"), irq0("irq0"), irq1("irq1");
    gic.spi_in(45).bind(spi);
    gic.irq_out(0).bind(irq0);
    gic.irq_out(1).bind(irq1);
    cpu.out.bind(gic.target);

    sc_time rose;
    bool irq0_at_spi = true;
    uint32_t typer = 0, iar_spi = 0, iar_again = 0, iar_sgi_on_1 = 0, iar_sgi_on_0 = 0;
    sc_spawn([&] {
        typer = cpu.read(gicd_typer);
        cpu.write(gicd_ctlr, 1);
        cpu.write(gicd_isenabler + 4, 1u << (45 - 32));
        write_byte_field(cpu, gicd_ipriorityr, 45, 0x80);
        write_byte_field(cpu, gicd_itargetsr, 45, 0b10); // CPU interface 1
        for (int c : {0, 1}) {
            cpu.write(gicd_isenabler, 1u << 3, c); // SGI 3, banked per CPU interface
            write_byte_field(cpu, gicd_ipriorityr, 3, 0x40, c);
            cpu.write(gicc_pmr, 0xF0, c);
            cpu.write(gicc_ctlr, 1, c);
        }
        wait(5, SC_NS);
        spi.write(true);
        wait(irq1.posedge_event());
        rose = sc_time_stamp();
        irq0_at_spi = irq0.read();
        iar_spi = cpu.read(gicc_iar, 1);
        iar_again = cpu.read(gicc_iar, 1); // active (and still asserted): not signalled again
        spi.write(false);
        cpu.write(gicc_eoir, iar_spi, 1);
        // GICD_SGIR from CPU 0: TargetListFilter 0, CPUTargetList 0b10, SGIINTID 3 (IHI 0048B 4.3.15).
        cpu.write(gicd_sgir, 0b10u << 16 | 3, 0);
        wait(SC_ZERO_TIME);
        iar_sgi_on_1 = cpu.read(gicc_iar, 1);
        cpu.write(gicc_eoir, iar_sgi_on_1, 1);
        cpu.write(gicd_sgir, 0b01u << 16 | 3, 1); // from CPU 1 to CPU 0
        wait(SC_ZERO_TIME);
        iar_sgi_on_0 = cpu.read(gicc_iar, 0);
        cpu.write(gicc_eoir, iar_sgi_on_0, 0);
        wait(1, SC_NS); // the outputs follow the GIC a delta cycle later
        sc_stop();
    });
    sc_start(1, SC_MS);
    CHECK(typer == (2u | 1u << 5)); // ITLinesNumber 2, CPUNumber 1 (two interfaces)
    CHECK(rose == sc_time(5, SC_NS));
    CHECK_FALSE(irq0_at_spi);
    CHECK(iar_spi == 45);
    CHECK(iar_again == spurious);
    // An SGI's IAR carries its source CPU in CPUID [12:10] (IHI 0048B 4.4.4).
    CHECK(iar_sgi_on_1 == 3);
    CHECK(iar_sgi_on_0 == (1u << 10 | 3));
    CHECK_FALSE(irq0.read());
    CHECK_FALSE(irq1.read());
}

TEST_CASE("embedding: the PL011 transmits the bytes written to UARTDR and raises its transmit interrupt") {
    const std::string out_path = "embedding_pl011_out.txt";
    std::remove(out_path.c_str());
    uint32_t fr = 0, mis = 0, mis_cleared = 0;
    uint32_t ids[8] = {};
    bool irq_after_tx = false, irq_after_clear = true;
    {
        pmusim::pl011_uart_options uo;
        uo.output = out_path;
        pmusim::pl011_uart uart("uart", uo);
        initiator cpu("cpu");
        sc_signal<bool> irq("irq");
        uart.irq.bind(irq);
        cpu.out.bind(uart.target);
        sc_spawn([&] {
            // Offsets and bits: DDI 0183 3.2 Table 3-1; Linux include/linux/amba/serial.h.
            for (unsigned i = 0; i < 8; ++i) ids[i] = cpu.read(0xFE0 + 4 * i);
            cpu.write(0x030, 0x301); // UARTCR: UARTEN, TXE, RXE
            fr = cpu.read(0x018);
            cpu.write(0x038, 1u << 5); // UARTIMSC.TXIM
            for (char c : std::string("pmusim\n")) cpu.write(0x000, uint8_t(c));
            wait(SC_ZERO_TIME);
            wait(SC_ZERO_TIME);
            irq_after_tx = irq.read();
            mis = cpu.read(0x040);
            cpu.write(0x044, 1u << 5); // UARTICR.TXIC
            mis_cleared = cpu.read(0x040);
            wait(SC_ZERO_TIME);
            wait(SC_ZERO_TIME);
            irq_after_clear = irq.read();
            sc_stop();
        });
        sc_start(1, SC_MS);
    }
    // UARTPeriphID0-3 as Linux's amba bus matches them (0x00041011), UARTPCellID0-3 0xB105F00D (DDI 0183 3.3.17-18).
    CHECK(ids[0] == 0x11);
    CHECK(ids[1] == 0x10);
    CHECK(ids[2] == 0x04);
    CHECK(ids[3] == 0x00);
    CHECK(ids[4] == 0x0D);
    CHECK(ids[5] == 0xF0);
    CHECK(ids[6] == 0x05);
    CHECK(ids[7] == 0xB1);
    CHECK((fr & 0x90) == 0x90); // UARTFR: TXFE [7], RXFE [4]: both FIFOs empty
    CHECK((fr & 0x28) == 0);    // neither TXFF [5] nor BUSY [3]
    CHECK(irq_after_tx);
    CHECK(mis == 1u << 5);      // UARTMIS.TXMIS
    CHECK(mis_cleared == 0);
    CHECK_FALSE(irq_after_clear);
    std::ifstream f(out_path, std::ios::binary);
    const std::string sent((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    CHECK(sent == "pmusim\n");
    std::remove(out_path.c_str());
}

TEST_CASE("embedding: a device's unknown interrupt input is a SystemC error naming the inputs") {
    pmusim::gicv2 gic("gic");
    bool reported = false;
    try {
        gic.spi_in(200);
    } catch (const sc_report& r) {
        reported = std::string(r.get_msg()).find("no interrupt input 'spi200'") != std::string::npos;
    }
    CHECK(reported);
}
