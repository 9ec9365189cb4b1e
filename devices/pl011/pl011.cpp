// The PL011 UART's behaviour (pl011.h): registers, immediate transmission, paced reception and
// the combined interrupt.
#include "devices/pl011/pl011.h"

#include <cstring>
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

namespace pmusim {

using namespace pl011_field;

pl011_unit::pl011_unit(const sc_core::sc_module_name& name, soc& system, pl011_options options, interrupt_line* irq)
    : unit(name, system), opt_(std::move(options)), irq_(irq) {
    SC_METHOD(receive_due);
    sensitive << receive_event_;
    dont_initialize();
    SC_METHOD(timeout_due);
    sensitive << timeout_event_;
    dont_initialize();
    reset(true);
}

pl011_unit::~pl011_unit() {
    if (opt_.output) std::fflush(opt_.output);
    if (opt_.output && opt_.output_owned) std::fclose(opt_.output);
}

void pl011_unit::reset(bool) {
    // Reset values (DDI 0183 Table 3-1): UARTCR 0x300 (TXE, RXE), UARTIFLS 0x12 (both 1/2), the rest 0.
    ibrd_ = fbrd_ = lcr_h_ = imsc_ = ris_ = ilpr_ = dmacr_ = 0;
    cr_ = uint32_t(cr_txe.mask() | cr_rxe.mask());
    ifls_ = 0x12;
    rx_fifo_.clear();
    receive_event_.cancel();
    timeout_event_.cancel();
    receive_scheduled_ = false;
    update();
}

fs_t pl011_unit::character_time() const {
    const uint64_t divisor64 = uint64_t(ibrd_) * 64 + fbrd_; // 64 x (IBRD + FBRD / 64)
    if (!divisor64 || !opt_.uartclk_hz) return fs_never;
    // Bits per character: start, 5-8 data, parity if enabled, 1 or 2 stop (3.3.7).
    const unsigned bits = 1 + 5 + unsigned(lcr_wlen.get(lcr_h_)) + (lcr_pen.in(lcr_h_) ? 1 : 0) + (lcr_stp2.in(lcr_h_) ? 2 : 1);
    // Baud = UARTCLK / (16 x divisor), so one bit lasts 16 x divisor64 / 64 / UARTCLK = divisor64 / (4 x UARTCLK) s.
    const unsigned __int128 fs = (unsigned __int128)bits * divisor64 * 1'000'000'000'000'000ULL;
    return fs_t((fs + 4 * opt_.uartclk_hz - 1) / (4 * opt_.uartclk_hz));
}

unsigned pl011_unit::rx_trigger() const {
    // RXIFLSEL: 1/8, 1/4, 1/2, 3/4, 7/8 full (3.3.9); without the FIFO, one byte.
    static const unsigned eighths[] = {1, 2, 4, 6, 7};
    if (!fifo_enabled()) return 1;
    const unsigned sel = unsigned(ifls_rx.get(ifls_));
    return fifo_depth * eighths[sel < 5 ? sel : 2] / 8;
}

void pl011_unit::update() {
    if (rx_fifo_.size() >= rx_trigger()) ris_ |= 1u << int_rx;
    else ris_ &= ~(1u << int_rx);
    if (rx_fifo_.empty()) ris_ &= ~(1u << int_rt); // the timeout clears when the FIFO empties
    if (irq_) irq_->set((ris_ & imsc_) != 0);
    schedule_receive();
}

void pl011_unit::poll_stdin() {
    if (!opt_.input_stdin) return;
    pollfd p{STDIN_FILENO, POLLIN, 0};
    while (::poll(&p, 1, 0) == 1 && (p.revents & POLLIN)) {
        uint8_t buf[256];
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        if (n <= 0) {
            opt_.input_stdin = false; // end of input
            return;
        }
        stdin_bytes_.insert(stdin_bytes_.end(), buf, buf + n);
    }
}

void pl011_unit::schedule_receive() {
    if (receive_scheduled_ || !receiving() || rx_fifo_.size() >= rx_capacity()) return;
    const bool more = input_next_ < opt_.input.size() || !stdin_bytes_.empty() || opt_.input_stdin;
    const fs_t t = character_time();
    if (!more || t == fs_never || !sc_core::sc_is_running()) return;
    receive_scheduled_ = true;
    receive_event_.notify(to_sc_time(t));
}

void pl011_unit::receive_due() {
    receive_scheduled_ = false;
    if (!receiving() || rx_fifo_.size() >= rx_capacity()) return;
    int byte = -1;
    if (input_next_ < opt_.input.size()) byte = opt_.input[input_next_++];
    else {
        poll_stdin();
        if (!stdin_bytes_.empty()) {
            byte = stdin_bytes_.front();
            stdin_bytes_.pop_front();
        }
    }
    if (byte >= 0) {
        rx_fifo_.push_back(uint16_t(byte));
        ++rx_arrivals_;
        timeout_armed_for_ = rx_arrivals_;
        // The timeout: 32 bit periods after this byte, if none follows (DDI 0183 2.9.2).
        const fs_t t = character_time();
        const unsigned bits = 1 + 5 + unsigned(lcr_wlen.get(lcr_h_)) + (lcr_pen.in(lcr_h_) ? 1 : 0) + (lcr_stp2.in(lcr_h_) ? 2 : 1);
        timeout_event_.cancel(); // each byte restarts the timeout (a pending earlier notification would win)
        if (t != fs_never) timeout_event_.notify(to_sc_time(t / bits * 32));
    }
    update();
}

void pl011_unit::timeout_due() {
    if (timeout_armed_for_ == rx_arrivals_ && !rx_fifo_.empty()) ris_ |= 1u << int_rt;
    update();
}

void pl011_unit::transmit(uint8_t byte) {
    transmitted_.push_back(char(byte));
    if (opt_.output) {
        std::fputc(byte, opt_.output);
        if (byte == '\n') std::fflush(opt_.output);
    }
    ris_ |= 1u << int_tx; // the (empty) transmit FIFO is at or below its trigger level
}

uint32_t pl011_unit::read_register(uint64_t off) {
    switch (off) {
    case dr: {
        if (rx_fifo_.empty()) return 0;
        const uint32_t v = rx_fifo_.front();
        rx_fifo_.pop_front();
        update();
        return v;
    }
    case rsr: return 0; // no framing, parity, break or overrun errors are produced
    case fr: {
        uint32_t v = uint32_t(fr_txfe.mask()); // transmit FIFO always empty, never busy
        if (rx_fifo_.empty()) v |= uint32_t(fr_rxfe.mask());
        if (rx_fifo_.size() >= rx_capacity()) v |= uint32_t(fr_rxff.mask());
        return v;
    }
    case ilpr: return ilpr_;
    case ibrd: return ibrd_;
    case fbrd: return fbrd_;
    case lcr_h: return lcr_h_;
    case cr: return cr_;
    case ifls: return ifls_;
    case imsc: return imsc_;
    case ris: return ris_;
    case mis: return ris_ & imsc_;
    case dmacr: return dmacr_;
    default: break;
    }
    // UARTPeriphID0-3 and UARTPCellID0-3: one byte each, low byte first (3.3.15-3.3.22).
    if (off >= periph_id0 && off < periph_id0 + 0x10) return (opt_.periph_id >> (8 * ((off - periph_id0) / 4))) & 0xFF;
    if (off >= pcell_id0 && off < pcell_id0 + 0x10) return (0xB105F00Du >> (8 * ((off - pcell_id0) / 4))) & 0xFF;
    return 0;
}

void pl011_unit::write_register(uint64_t off, uint32_t value) {
    switch (off) {
    case dr:
        // Transmit while enabled (UARTEN and TXE; 3.3.8); with LBE the byte also loops back.
        if (cr_uarten.in(cr_) && cr_txe.in(cr_)) {
            if (cr_lbe.in(cr_)) {
                if (rx_fifo_.size() < rx_capacity()) rx_fifo_.push_back(uint8_t(value));
            } else {
                transmit(uint8_t(value));
            }
        }
        break;
    case rsr: break; // UARTECR: clears the (never set) error bits
    case ilpr: ilpr_ = value & 0xFF; break;
    case ibrd: ibrd_ = value & 0xFFFF; break;
    case fbrd: fbrd_ = value & 0x3F; break;
    case lcr_h: {
        const bool was_fifo = fifo_enabled();
        lcr_h_ = value & 0xFF;
        if (was_fifo && !fifo_enabled()) // shrinking to the 1-byte holding register keeps the oldest byte
            while (rx_fifo_.size() > 1) rx_fifo_.pop_back();
        break;
    }
    case cr: cr_ = value & 0xFF87; break; // bits [6:3] reserved (3.3.8)
    case ifls: ifls_ = value & 0x3F; break;
    case imsc: imsc_ = value & int_all; break;
    case icr: ris_ &= ~(value & int_all); break;
    case dmacr: dmacr_ = value & 0x7; break;
    default: break;
    }
    update();
}

void pl011_unit::access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    const uint64_t off = trans.get_address() - opt_.base;
    const unsigned len = trans.get_data_length();
    // Linux reads and writes 16 bits (readw/writew), its earlycon writes bytes, the amba bus reads
    // the ID registers with 32-bit loads: any aligned access of 1, 2 or 4 bytes within a word.
    if (ctx.path != access_path::memory_mapped || off >= frame_size || !(len == 1 || len == 2 || len == 4) ||
        (off & (len - 1))) {
        ctx.outcome = access_outcome::error;
        ctx.detail = fmt::format("{}-byte access at offset {:#x}: the PL011 takes aligned accesses of 1, 2 or 4 bytes", len, off);
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    const uint64_t reg = off & ~uint64_t(3);
    const unsigned shift = unsigned(off & 3) * 8;
    if (trans.is_read()) {
        const uint32_t v = read_register(reg) >> shift;
        std::memcpy(trans.get_data_ptr(), &v, len);
    } else {
        uint32_t v = 0;
        std::memcpy(&v, trans.get_data_ptr(), len);
        if (shift == 0) write_register(reg, v); // a write to a register's upper bytes changes nothing
    }
    ctx.outcome = access_outcome::ok;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void pl011_unit::report(std::ostream& out) {
    out << fmt::format("{}: {} bytes transmitted, {} received\n", basename(), transmitted_.size(), rx_arrivals_);
}

} // namespace pmusim
