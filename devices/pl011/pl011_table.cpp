// The PL011's register table (docs/registers/pl011.md). The model decodes accesses itself
// (pl011.cpp): Linux uses 16-bit accesses, which a register bank does not serve.
#include "devices/pl011/pl011.h"

namespace pmusim {

namespace {

using fa = field_access;
using namespace pl011_field;

const char* const trm = "Arm DDI 0183 (PL011 TRM) 3.3";
const char* const linux_header = "Linux include/linux/amba/serial.h@v6.1.192";

register_def mreg(const std::string& name, uint64_t offset, uint64_t reset, std::vector<field_def> fields,
                  const std::string& description) {
    return register_def(name, std::nullopt, offset, 32, reset, std::move(fields), description);
}

std::vector<field_def> interrupt_fields(fa access, const std::string& what) {
    return {{"RIM", 0, 1, fa::raz_wi, "nUARTRI modem interrupt: not modelled"},
            {"CTSM_DCDM_DSRM", 1, 3, fa::raz_wi, "modem interrupts: not modelled"},
            {"RX", int_rx, 1, access, what + " receive (FIFO at or above the RXIFLSEL level)"},
            {"TX", int_tx, 1, access, what + " transmit (raised by each byte written, the FIFO being empty)"},
            {"RT", int_rt, 1, access, what + " receive timeout (32 bit periods without a byte, FIFO not empty)"},
            {"FE_PE_BE_OE", 7, 4, fa::raz_wi, "error interrupts: no errors are produced"}};
}

register_table make_table() {
    register_table t;
    t.unit = "pl011";
    t.title = "Arm PrimeCell UART (PL011)";
    t.summary = "The pl011 device: offsets in its 4 KB frame. Accesses of 1, 2 or 4 bytes (Linux uses 16-bit "
                "ones). Transmission is immediate; reception is paced at the programmed baud rate (docs/devices.md).";
    t.registers = {
        mreg("UARTDR", dr, 0,
             {{"DATA", 0, 8, fa::rw, "write: transmit; read: the oldest received byte"},
              {"FE_PE_BE_OE", 8, 4, fa::ro, "receive errors: always 0"}},
             "Data Register"),
        mreg("UARTRSR_ECR", rsr, 0, {{"errors", 0, 4, fa::raz_wi, "no receive errors are produced"}},
             "Receive Status / Error Clear Register"),
        mreg("UARTFR", fr, 0x90,
             {{"CTS_DSR_DCD", 0, 3, fa::ro, "modem inputs: 0"},
              {"BUSY", fr_busy, fa::ro, "0: transmission is immediate"},
              {"RXFE", fr_rxfe, fa::ro, "receive FIFO empty"},
              {"TXFF", fr_txff, fa::ro, "0: the transmit FIFO is never full"},
              {"RXFF", fr_rxff, fa::ro, "receive FIFO (or holding register) full"},
              {"TXFE", fr_txfe, fa::ro, "1: the transmit FIFO is always empty"},
              {"RI", fr_ri, fa::ro, "ring indicator: 0"}},
             "Flag Register"),
        mreg("UARTILPR", ilpr, 0, {{"ILPDVSR", 0, 8, fa::rw, "IrDA low-power divisor: stored"}}, "IrDA Low-Power Counter Register"),
        mreg("UARTIBRD", ibrd, 0, {{"BAUD_DIVINT", 0, 16, fa::rw, "integer baud divisor"}}, "Integer Baud Rate Register"),
        mreg("UARTFBRD", fbrd, 0, {{"BAUD_DIVFRAC", 0, 6, fa::rw, "fractional baud divisor (64ths)"}},
             "Fractional Baud Rate Register"),
        mreg("UARTLCR_H", lcr_h, 0,
             {{"BRK", lcr_brk, fa::rw, "send break: stored"},
              {"PEN", lcr_pen, fa::rw, "parity enable: one more bit per character"},
              {"EPS", lcr_eps, fa::rw, "even parity: stored"},
              {"STP2", lcr_stp2, fa::rw, "two stop bits"},
              {"FEN", lcr_fen, fa::rw, "FIFOs enabled (16 entries), else a 1-byte holding register"},
              {"WLEN", lcr_wlen, fa::rw, "word length 5 + WLEN bits"},
              {"SPS", lcr_sps, fa::rw, "stick parity: stored"}},
             "Line Control Register"),
        mreg("UARTCR", cr, 0x300,
             {{"UARTEN", cr_uarten, fa::rw, "UART enable"},
              {"SIREN_SIRLP", 1, 2, fa::rw, "IrDA: stored"},
              {"LBE", cr_lbe, fa::rw, "loopback: transmitted bytes enter the receive FIFO"},
              {"TXE", cr_txe, fa::rw, "transmit enable"},
              {"RXE", cr_rxe, fa::rw, "receive enable"},
              {"modem", cr_rest, fa::rw, "DTR, RTS, Out1, Out2, RTSEn, CTSEn: stored"}},
             "Control Register"),
        mreg("UARTIFLS", ifls, 0x12,
             {{"TXIFLSEL", ifls_tx, fa::rw, "transmit trigger: stored (the FIFO is always empty)"},
              {"RXIFLSEL", ifls_rx, fa::rw, "receive trigger: 1/8, 1/4, 1/2, 3/4, 7/8 of 16"}},
             "Interrupt FIFO Level Select Register"),
        mreg("UARTIMSC", imsc, 0, interrupt_fields(fa::rw, "mask (1 = enabled) of"), "Interrupt Mask Set/Clear Register"),
        mreg("UARTRIS", ris, 0, interrupt_fields(fa::ro, "raw status of"), "Raw Interrupt Status Register"),
        mreg("UARTMIS", mis, 0, interrupt_fields(fa::ro, "masked status of"), "Masked Interrupt Status Register"),
        mreg("UARTICR", icr, 0, interrupt_fields(fa::wo, "write 1 clears"), "Interrupt Clear Register"),
        mreg("UARTDMACR", dmacr, 0, {{"RXDMAE_TXDMAE_DMAONERR", 0, 3, fa::rw, "DMA enables: stored, no DMA"}},
             "DMA Control Register"),
        mreg("UARTPeriphID0", periph_id0, 0x11, {{"PartNumber0", 0, 8, fa::ro, "0x11"}}, "Peripheral ID 0"),
        mreg("UARTPeriphID1", periph_id0 + 4, 0x10, {{"Designer0_PartNumber1", 0, 8, fa::ro, "0x10"}}, "Peripheral ID 1"),
        mreg("UARTPeriphID2", periph_id0 + 8, 0x04, {{"Revision_Designer1", 0, 8, fa::ro, "0x04: revision 0, designer Arm"}},
             "Peripheral ID 2"),
        mreg("UARTPeriphID3", periph_id0 + 12, 0x00, {{"Configuration", 0, 8, fa::ro, "0x00"}}, "Peripheral ID 3"),
        mreg("UARTPCellID0", pcell_id0, 0x0D, {{"ID", 0, 8, fa::ro, "0x0D"}}, "PrimeCell ID 0"),
        mreg("UARTPCellID1", pcell_id0 + 4, 0xF0, {{"ID", 0, 8, fa::ro, "0xF0"}}, "PrimeCell ID 1"),
        mreg("UARTPCellID2", pcell_id0 + 8, 0x05, {{"ID", 0, 8, fa::ro, "0x05"}}, "PrimeCell ID 2"),
        mreg("UARTPCellID3", pcell_id0 + 12, 0xB1, {{"ID", 0, 8, fa::ro, "0xB1"}}, "PrimeCell ID 3"),
    };
    for (auto& r : t.registers) cite(r, std::string(trm) + "; offsets and bits as " + linux_header);
    cite(t, "UARTPeriphID", "Linux drivers/tty/serial/amba-pl011.c@v6.1.192 pl011_ids (0x00041011, mask 0x000fffff); "
                            "drivers/amba/bus.c@v6.1.192 assembles the bytes at size - 0x20");
    cite(t, "UARTPCellID", "Linux drivers/amba/bus.c@v6.1.192 (AMBA_CID 0xb105f00d, bytes at size - 0x10)");
    return t;
}

} // namespace

const register_table& pl011_table() {
    static const register_table t = make_table();
    return t;
}

} // namespace pmusim
