// The PL011 on a bench of its own (tests/unit/unit_bench.h): Linux's probe and console writes
// (drivers/amba/bus.c, drivers/tty/serial/amba-pl011.c v6.1.192) with 16-bit accesses as the driver
// makes them, a received file paced at the baud rate, and the UARTINTR line's edges. Offsets and
// bits from Linux's include/linux/amba/serial.h, timing from the PL011 TRM (DDI 0183): baud =
// UARTCLK / (16 x (IBRD + FBRD / 64)), a character is start + data + stop bits.
#include <catch2/catch.hpp>

#include "devices/pl011/pl011.h"
#include "tests/unit/unit_bench.h"

using namespace pmusim;
using testing::bench_initiator;
using testing::fs_per_us;
using testing::irq_edge;

namespace {

// include/linux/amba/serial.h@v6.1.192
constexpr uint64_t UART01x_DR = 0x00, UART01x_FR = 0x18, UART011_IBRD = 0x24, UART011_FBRD = 0x28,
                   UART011_LCRH = 0x2c, UART011_CR = 0x30, UART011_IFLS = 0x34, UART011_IMSC = 0x38,
                   UART011_RIS = 0x3c, UART011_MIS = 0x40, UART011_ICR = 0x44;
constexpr uint32_t UART01x_FR_RXFE = 0x010, UART01x_FR_TXFF = 0x020, UART01x_FR_BUSY = 0x008, UART011_FR_TXFE = 0x080;
constexpr uint32_t UART011_CR_RXE = 0x0200, UART011_CR_TXE = 0x0100, UART01x_CR_UARTEN = 0x0001;
constexpr uint32_t UART01x_LCRH_WLEN_8 = 0x60, UART01x_LCRH_FEN = 0x10;
constexpr uint32_t UART011_RTIM = 1 << 6, UART011_TXIM = 1 << 5, UART011_RXIM = 1 << 4;
constexpr uint32_t UART011_IFLS_RX4_8 = 2 << 3, UART011_IFLS_TX4_8 = 2 << 0;

constexpr uint64_t base = 0x1c090000;
constexpr uint64_t uartclk = 24'000'000;

struct uart_bench {
    testing::unit_bench b;
    interrupt_line& irq = b.add_irq("uart0_irq");
    pl011_unit uart;
    explicit uart_bench(std::string input = {})
        : uart("uart0", b.system, options(std::move(input)), &irq) {}
    static pl011_options options(std::string input) {
        pl011_options o;
        o.base = base;
        o.uartclk_hz = uartclk;
        o.input.assign(input.begin(), input.end());
        return o;
    }
};

uint32_t rd16(bench_initiator& t, uint64_t off) { return uint32_t(t.mmio(false, base + off, 2).value); }
void wr16(bench_initiator& t, uint64_t off, uint32_t v) { t.mmio(true, base + off, 2, v); }

// pl011_set_termios for 115200 8N1 with FIFOs at UARTCLK 24 MHz: quot = DIV_ROUND_CLOSEST(clk * 4, baud)
// = 833, IBRD = quot >> 6 = 13, FBRD = quot & 0x3f = 1; then enable as pl011_startup does.
void linux_setup(bench_initiator& t, uint32_t imsc) {
    const uint32_t quot = uint32_t((uartclk * 4 + 115200 / 2) / 115200);
    wr16(t, UART011_IBRD, quot >> 6);
    wr16(t, UART011_FBRD, quot & 0x3f);
    wr16(t, UART011_LCRH, UART01x_LCRH_WLEN_8 | UART01x_LCRH_FEN);
    wr16(t, UART011_IFLS, UART011_IFLS_RX4_8 | UART011_IFLS_TX4_8);
    wr16(t, UART011_ICR, 0x7ff);
    wr16(t, UART011_CR, UART01x_CR_UARTEN | UART011_CR_TXE | UART011_CR_RXE);
    wr16(t, UART011_IMSC, imsc);
}

// One 8N1 character (10 bits) at the divisor 833/64: 10 x 833 / (4 x 24e6) s, rounded up to a fs.
constexpr fs_t char_time = fs_t((10ULL * 833 * 1'000'000'000'000'000ULL + 4 * uartclk - 1) / (4 * uartclk));

} // namespace

TEST_CASE("pl011 bench: the amba bus finds PL011 IDs and the driver transmits with 16-bit writes") {
    uart_bench s;
    uint32_t pid = 0, cid = 0, fr = 0;
    s.b.run(s.uart, [&](bench_initiator& t) {
        for (unsigned i = 0; i < 4; ++i) { // amba_device_try_add: readl(base + size - 0x20 + 4i) & 255
            pid |= (t.read32(base + 0x1000 - 0x20 + 4 * i) & 255) << (i * 8);
            cid |= (t.read32(base + 0x1000 - 0x10 + 4 * i) & 255) << (i * 8);
        }
        linux_setup(t, UART011_RTIM | UART011_RXIM);
        fr = rd16(t, UART01x_FR);
        for (char c : std::string("Booting Linux\n")) {
            while (rd16(t, UART01x_FR) & UART01x_FR_TXFF) {} // pl011_tx_char
            wr16(t, UART01x_DR, uint8_t(c));
        }
        t.mmio(true, base + UART01x_DR, 1, '!'); // earlycon's writeb
    });
    CHECK((pid & 0x000fffff) == 0x00041011); // pl011_ids[] vendor_arm
    CHECK(cid == 0xb105f00d);                // AMBA_CID
    CHECK((fr & (UART01x_FR_TXFF | UART01x_FR_BUSY)) == 0);
    CHECK((fr & UART011_FR_TXFE) != 0);
    CHECK((fr & UART01x_FR_RXFE) != 0);
    CHECK(s.uart.transmitted() == "Booting Linux\n!");
    CHECK(s.b.irq_edges("uart0_irq").empty()); // TXIM is masked: no interrupt
}

TEST_CASE("pl011 bench: the transmit interrupt follows TXIM and clears through UARTICR") {
    uart_bench s;
    uint32_t mis_before = 0, mis_after = 0;
    s.b.run(s.uart, [&](bench_initiator& t) {
        linux_setup(t, 0);
        t.wait_until(1 * fs_per_us);
        wr16(t, UART01x_DR, 'x');
        t.wait_until(2 * fs_per_us);
        wr16(t, UART011_IMSC, UART011_TXIM); // pl011_start_tx_pio unmasks TXIM
        mis_before = rd16(t, UART011_MIS);
        t.wait_until(3 * fs_per_us);
        wr16(t, UART011_ICR, UART011_TXIM);
        mis_after = rd16(t, UART011_MIS);
    });
    CHECK(mis_before == UART011_TXIM);
    CHECK(mis_after == 0);
    const std::vector<irq_edge> expected = {{true, 2 * fs_per_us}, {false, 3 * fs_per_us}};
    CHECK(s.b.irq_edges("uart0_irq") == expected);
}

TEST_CASE("pl011 bench: received bytes arrive one per character time - RX at half full - timeout for the rest") {
    uart_bench s("0123456789"); // 10 bytes: 8 fill half of the 16-byte FIFO, 2 remain below the trigger
    std::string got;
    uint32_t ris_at_8 = 0;
    s.b.run(s.uart, [&](bench_initiator& t) {
        linux_setup(t, UART011_RTIM | UART011_RXIM);
        t.wait_until(8 * char_time + 1); // just after the 8th byte's instant
        ris_at_8 = rd16(t, UART011_RIS);
        while (!(rd16(t, UART01x_FR) & UART01x_FR_RXFE)) got += char(rd16(t, UART01x_DR) & 0xff); // pl011_fifo_to_tty
        t.wait_until(10 * char_time + 40 * char_time / 10); // the last byte, then 32 bit periods and more
        while (!(rd16(t, UART01x_FR) & UART01x_FR_RXFE)) got += char(rd16(t, UART01x_DR) & 0xff);
    });
    CHECK(got == "0123456789");
    CHECK((ris_at_8 & UART011_RXIM) != 0); // 8 of 16: the 1/2 trigger level
    const auto& e = s.b.irq_edges("uart0_irq");
    REQUIRE(e.size() == 4);
    CHECK(e[0] == irq_edge{true, 8 * char_time}); // the 8th byte reaches the trigger
    CHECK(e[1] == irq_edge{false, 8 * char_time + 1}); // drained
    // The timeout: 32 bit periods (3.2 characters at 10 bits) after the 10th byte.
    CHECK(e[2] == irq_edge{true, 10 * char_time + char_time / 10 * 32});
    CHECK(e[3].level == false);
}
