#pragma once
// An Arm PrimeCell UART (PL011), as the ARM PrimeCell UART (PL011) Technical Reference Manual
// (DDI 0183) describes it and Linux's drivers/tty/serial/amba-pl011.c drives it: 16-entry FIFOs
// (PeriphID 0x00041011, revision 0, so Linux sizes them 16), the registers the driver touches
// and its combined interrupt (UARTINTR) on an interrupt_line.
//
// Transmission is immediate: a byte written to UARTDR leaves at once for the output (stdout or a
// file), so the transmit FIFO is always empty and never busy, and the transmit interrupt is raised
// after each byte written (the FIFO is at or below any trigger level) until cleared or refilled.
// Reception is paced by the baud rate: once the receiver is enabled, the input's bytes (a file, or
// stdin) arrive one per character time (start + data + parity + stop bits at UARTCLK / (16 x
// divisor)), as far as the receive FIFO has room (the input waits rather than overrunning). The
// receive interrupt follows the FIFO level against UARTIFLS; the receive timeout rises when the
// FIFO holds data and nothing arrived for 32 bit periods (DDI 0183 2.9).
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "models/unit.h"

namespace pmusim {

const register_table& pl011_table();

namespace pl011_field {
// Offsets (DDI 0183 3.2, Table 3-1; Linux include/linux/amba/serial.h).
constexpr uint64_t dr = 0x000, rsr = 0x004, fr = 0x018, ilpr = 0x020, ibrd = 0x024, fbrd = 0x028, lcr_h = 0x02C,
                   cr = 0x030, ifls = 0x034, imsc = 0x038, ris = 0x03C, mis = 0x040, icr = 0x044, dmacr = 0x048,
                   periph_id0 = 0xFE0, pcell_id0 = 0xFF0;
constexpr uint64_t frame_size = 0x1000;
// UARTFR (3.3.3): CTS [0], DSR [1], DCD [2], BUSY [3], RXFE [4], TXFF [5], RXFF [6], TXFE [7], RI [8].
constexpr reg_field fr_cts{0, 1}, fr_dsr{1, 1}, fr_dcd{2, 1}, fr_busy{3, 1}, fr_rxfe{4, 1}, fr_txff{5, 1},
                    fr_rxff{6, 1}, fr_txfe{7, 1}, fr_ri{8, 1};
// UARTLCR_H (3.3.7): BRK [0], PEN [1], EPS [2], STP2 [3], FEN [4], WLEN [6:5], SPS [7].
constexpr reg_field lcr_brk{0, 1}, lcr_pen{1, 1}, lcr_eps{2, 1}, lcr_stp2{3, 1}, lcr_fen{4, 1}, lcr_wlen{5, 2},
                    lcr_sps{7, 1};
// UARTCR (3.3.8): UARTEN [0], SIREN [1], SIRLP [2], LBE [7], TXE [8], RXE [9], DTR [10], RTS [11],
// Out1 [12], Out2 [13], RTSEn [14], CTSEn [15].
constexpr reg_field cr_uarten{0, 1}, cr_lbe{7, 1}, cr_txe{8, 1}, cr_rxe{9, 1}, cr_rest{10, 6};
// UARTIFLS (3.3.9): TXIFLSEL [2:0], RXIFLSEL [5:3]: 1/8, 1/4, 1/2, 3/4, 7/8 of the FIFO.
constexpr reg_field ifls_tx{0, 3}, ifls_rx{3, 3};
// Interrupt bits of UARTIMSC, UARTRIS, UARTMIS, UARTICR (3.3.10-3.3.13).
constexpr unsigned int_rx = 4, int_tx = 5, int_rt = 6, int_oe = 10;
constexpr uint32_t int_all = 0x7FF;
constexpr unsigned fifo_depth = 16;
} // namespace pl011_field

struct pl011_options {
    uint64_t base = 0;
    uint64_t uartclk_hz = 24'000'000; // UARTCLK, the reference clock the baud divisor divides
    uint32_t periph_id = 0x00041011;  // UARTPeriphID0-3 as Linux's amba bus assembles them
    std::FILE* output = nullptr;      // null: transmitted bytes are dropped
    bool output_owned = false;        // close on destruction
    std::vector<uint8_t> input;       // bytes to receive (a file's content)
    bool input_stdin = false;         // receive what arrives on stdin as well
};

class pl011_unit : public unit {
public:
    SC_HAS_PROCESS(pl011_unit);
    pl011_unit(const sc_core::sc_module_name& name, soc& system, pl011_options options, interrupt_line* irq);
    ~pl011_unit() override;

    std::string type() const override { return "pl011"; }
    const register_table& table() const override { return pl011_table(); }
    std::vector<address_window> mmio_windows() const override { return {{basename(), opt_.base, pl011_field::frame_size}}; }
    void reset(bool cold) override;
    // What a boot loader leaves for the kernel's console: UARTEN, TXE and RXE set (UARTCR 0x301).
    // Linux's earlycon only polls UARTFR and writes UARTDR (linux-6.1:drivers/tty/serial/
    // amba-pl011.c:2553 pl011_putc): it never enables the UART, as U-Boot or TF-A's console has.
    void enable_as_console() { cr_ = uint32_t(pl011_field::cr_uarten.mask() | pl011_field::cr_txe.mask() | pl011_field::cr_rxe.mask()); }
    void report(std::ostream& out) override;

    // For tests: what was transmitted, the raw interrupt status, the current character time.
    const std::string& transmitted() const { return transmitted_; }
    uint32_t raw_interrupts() const { return ris_; }
    fs_t character_time() const;

protected:
    void access(tlm::tlm_generic_payload& trans, access_context& ctx) override;

private:
    uint32_t read_register(uint64_t offset);
    void write_register(uint64_t offset, uint32_t value);
    unsigned rx_trigger() const;
    bool fifo_enabled() const { return pl011_field::lcr_fen.in(lcr_h_); }
    unsigned rx_capacity() const { return fifo_enabled() ? pl011_field::fifo_depth : 1; }
    bool receiving() const { return pl011_field::cr_uarten.in(cr_) && pl011_field::cr_rxe.in(cr_); }
    void transmit(uint8_t byte);
    void receive_due();    // the SC method: the next input byte arrives (or stdin is polled)
    void timeout_due();    // the SC method: 32 bit periods without a new byte
    void schedule_receive();
    void poll_stdin();
    void update();         // recomputes RXRIS and the interrupt output

    pl011_options opt_;
    interrupt_line* irq_;
    size_t input_next_ = 0;
    std::deque<uint8_t> stdin_bytes_;
    std::deque<uint16_t> rx_fifo_; // data and error bits as UARTDR reads them
    uint32_t ibrd_ = 0, fbrd_ = 0, lcr_h_ = 0, cr_ = 0, ifls_ = 0, imsc_ = 0, ris_ = 0, ilpr_ = 0, dmacr_ = 0;
    uint64_t rx_arrivals_ = 0; // bytes received so far (the timeout checks none came since)
    uint64_t timeout_armed_for_ = 0;
    sc_core::sc_event receive_event_, timeout_event_;
    bool receive_scheduled_ = false;
    std::string transmitted_;
};

} // namespace pmusim
