// The IMC register tables and SCOM address arithmetic (docs/imc.md,
// skiboot include/imc.h, include/xscom.h XSCOM_ADDR_P9_EQ/_EC and hw/xscom.c @ecebf4fb3d9c; Linux
// arch/powerpc/include/asm/imc-pmu.h@v6.1).
#include <fmt/format.h>

#include "imc/imc.h"

namespace pmusim::imc {

namespace {
constexpr uint32_t pdbar_p9[4] = {0x1001220B, 0x1001230B, 0x1001260B, 0x1001270B};
constexpr uint32_t htm_p9[4] = {0x10012200, 0x10012300, 0x10012600, 0x10012700};
constexpr uint32_t eq_addr(unsigned core, uint32_t a) { return uint32_t((((core & 0x1c) + 0x40) << 22) | a); }
constexpr uint32_t ec_addr(unsigned core, uint32_t a) { return uint32_t((((core & 0x1f) + 0x20) << 24) | a); }
} // namespace

uint32_t scom_pdbar(unsigned core) { return eq_addr(core, pdbar_p9[core % 4]); }
uint32_t scom_htm_mode(unsigned core) { return eq_addr(core, htm_p9[core % 4]); }
uint32_t scom_event_mask(unsigned core) { return ec_addr(core, 0x20010AA8); }
uint32_t scom_trace(unsigned core) { return ec_addr(core, 0x20010AA9); }

// skiboot hw/xscom.c xscom_addr(): POWER9 (and later) place PCB address a at a << 3; the
// interleaved (a << 4 & ~0xff) | (a << 3 & 0x78) is POWER8's only.
uint64_t xscom_offset(uint32_t pcb) { return uint64_t(pcb) << 3; }

std::optional<uint32_t> pcb_of_offset(uint64_t offset) {
    if (offset & 7) return std::nullopt;   // the byte within the doubleword
    if (offset >> 35) return std::nullopt; // PCB addresses are 32 bits
    return uint32_t(offset >> 3);
}

uint64_t trace_scom_value(unsigned sampsel, uint32_t period, unsigned cpmc1sel, unsigned cpmc2sel, unsigned buffersize) {
    using namespace imc_field;
    // skiboot loads the sampling CPMC with (all ones - period): it wraps after `period` events.
    return trace_sampsel.put(sampsel) | trace_cpmc_load.put(trace_cpmc_load.ones() - period) | trace_cpmc1sel.put(cpmc1sel) |
           trace_cpmc2sel.put(cpmc2sel) | trace_buffersize.put(buffersize);
}

const register_table& imc_table() {
    using fa = field_access;
    static const register_table t = [] {
        register_table r;
        r.unit = "imc";
        r.title = "IBM POWER9 IMC: SCOM registers and LDBAR";
        r.summary =
            "The per-core SCOM registers skiboot programs for core and trace IMC, reached through each chip's "
            "XSCOM window (MMIO offset = pcb << 3 on POWER9, skiboot hw/xscom.c xscom_addr(); 8-byte accesses, "
            "hypervisor only), and the per-thread LDBAR SPR (850, shown in the S<op0>_... form of its SPR number). Offsets "
            "are those of core 0; core n's PDBAR and HTM_MODE are at EQ(n, {0x1001220B, 0x1001230B, 0x1001260B, "
            "0x1001270B}[n % 4]) and EQ(n, {0x10012200, 0x10012300, 0x10012600, 0x10012700}[n % 4]) with "
            "EQ(n, a) = ((n & 0x1c) + 0x40) << 22 | a; EVENT_MASK and TRACE_IMC at EC(n, 0x20010AA8) and "
            "EC(n, 0x20010AA9) with EC(n, a) = ((n & 0x1f) + 0x20) << 24 | a. Bit numbers are LSB0 (IBM bit b = "
            "63 - b). See docs/imc.md.";
        register_def ldbar;
        ldbar.name = "LDBAR";
        ldbar.sysreg = sysreg_encoding::from_key(ldbar_spr);
        ldbar.description = "SPR 850, per thread, hypervisor privileged: thread/trace IMC memory address";
        ldbar.fields = {
            {"ENABLE", imc_field::ldbar_enable, fa::rw, "IBM bit 0: accumulation-mode thread IMC on (0 in trace mode)"},
            {"MODE", imc_field::ldbar_mode, fa::rw, "IBM bit 1: 0 accumulation, 1 trace"},
            {"PB_SCOPE", 57, 3, fa::rw, "IBM bits 4:6: PowerBus scope (Linux writes 0)"},
            {"ADDRESS", imc_field::ldbar_address, fa::rw, "IBM bits 8:50: counter memory / trace buffer address, 8 KiB aligned"},
        };
        r.registers.push_back(ldbar);

        register_def pdbar;
        pdbar.name = "PDBAR";
        pdbar.offset = xscom_offset(scom_pdbar(0));
        pdbar.description = "SCOM EQ(core, pdbar_p9[core % 4]): core IMC counter memory (8 KiB per core)";
        pdbar.fields = {{"ADDRESS", imc_field::pdbar_address, fa::rw, "IBM bits 14:50: 8 KiB aligned physical address"}};
        r.registers.push_back(pdbar);

        register_def mask;
        mask.name = "EVENT_MASK";
        mask.offset = xscom_offset(scom_event_mask(0));
        mask.description = "SCOM EC(core, 0x20010AA8): event selection and MSR[HV PR] multiplexing; skiboot "
                           "writes 0x0402010000000000 (field meaning UNVERIFIED; stored, not interpreted)";
        r.registers.push_back(mask);

        register_def htm;
        htm.name = "HTM_MODE";
        htm.offset = xscom_offset(scom_htm_mode(0));
        htm.description = "SCOM EQ(core, htm_p9[core % 4]): skiboot writes 0xE000000000000000 (IMC off) and "
                          "0xE800000000000000 (IMC on); pmusim counts when IMC_SELECT = 7 and IMC_ON = 1";
        htm.fields = {
            {"IMC_SELECT", imc_field::htm_imc_select, fa::rw, "IBM bits 0:2: 0b111 selects the IMC use of the HTM logic"},
            {"IMC_ON", imc_field::htm_imc_on, fa::rw, "IBM bit 4: core/thread/trace IMC collection on"},
        };
        r.registers.push_back(htm);

        register_def trace;
        trace.name = "TRACE_IMC";
        trace.offset = xscom_offset(scom_trace(0));
        trace.description = "SCOM EC(core, 0x20010AA9): trace IMC sampling; skiboot writes 0x7FFFFFC142020000";
        trace.fields = {
            {"SAMPSEL", imc_field::trace_sampsel, fa::rw, "IBM 0:1: sampling counter 0 = CPMC1, 1 = CPMC2"},
            {"CPMC_LOAD", imc_field::trace_cpmc_load, fa::rw, "IBM 2:33: value loaded into the sampling CPMC (0xFFFFFFFF - period)"},
            {"CPMC1SEL", imc_field::trace_cpmc1sel, fa::rw, "IBM 34:40: CPMC1 event (2 = 32 MHz cycles; others: instructions)"},
            {"CPMC2SEL", imc_field::trace_cpmc2sel, fa::rw, "IBM 41:47: CPMC2 event (2 = 32 MHz cycles; others: instructions)"},
            {"BUFFERSIZE", imc_field::trace_buffersize, fa::rw, "IBM 48:50: 4096 << n records of 64 bytes (n = 0..4)"},
        };
        r.registers.push_back(trace);
        cite(r, "LDBAR$", "Linux arch/powerpc/include/asm/imc-pmu.h (THREAD_IMC_LDBAR_MASK, THREAD_IMC_ENABLE, TRACE_IMC_ENABLE); "
                          "POWER9 UM: LDBAR SPR 850; PB_SCOPE UNVERIFIED");
        cite(r, "PDBAR$", "skiboot include/imc.h (pdbar_scom_index, CORE_IMC_PDBAR_MASK); hw/xscom.c POWER9 offset pcb << 3");
        cite(r, "EVENT_MASK$", "skiboot include/imc.h (CORE_IMC_EVENT_MASK_ADDR_P9, CORE_IMC_EVENT_MASK); fields UNVERIFIED: stored, not interpreted");
        cite(r, "HTM_MODE$", "skiboot include/imc.h (htm_scom_index, CORE_IMC_HTM_MODE_ENABLE/DISABLE)");
        cite(r, "TRACE_IMC$", "skiboot include/imc.h (TRACE_IMC_ADDR_P9, TRACE_IMC_SAMPLESEL, _CPMC_LOAD, _CPMC1SEL, _CPMC2SEL, _BUFFERSIZE)");
        return r;
    }();
    return t;
}

const register_table& imc_homer_table() {
    using fa = field_access;
    static const register_table t = [] {
        register_table r;
        r.unit = "imc_homer";
        r.title = "IBM POWER9 IMC: nest counters and control block in HOMER";
        r.summary = "Memory, not registers: words of a chip's HOMER image (big-endian 64-bit), at these offsets "
                    "from the chip's HOMER base. The OCC 24x7 microcode (pmusim's nest engine) owns run status, "
                    "availability vector and the postings; the host writes command, speed and mode.";
        auto word = [&](std::string name, uint64_t off, uint64_t reset, std::string desc, std::vector<field_def> f = {}) {
            register_def d;
            d.name = std::move(name);
            d.offset = off;
            d.reset = reset;
            d.description = std::move(desc);
            d.fields = std::move(f);
            r.registers.push_back(d);
        };
        const uint64_t cb = nest_offset + cb_offset;
        word("NEST_G1_HEADER", nest_offset, 0,
             "first posting word: +1 at the start of every group-1 posting (groups 2..7 at 0x180110, 0x180220, "
             "0x180330, 0x180440, 0x180550, 0x180660)");
        word("NEST_COUNTERS", nest_offset + 8, 0,
             "event counters: HOMER + 0x180000 + event value (unit reg + event reg), atomically added");
        word("NEST_G1_TRAILER", nest_offset + 0x108, 0,
             "+1 at the end of every group-1 posting (groups 2..7 at 0x180218, 0x180328, 0x180438, 0x180548, "
             "0x180658, 0x180768)");
        word("OCC_24X7_VERSION", version_offset, 0,
             "microcode version: major [63:60], minor [59:52], bugfix [51:48] (pmusim writes v2.0.0)");
        word("CB_RUN_STATUS", cb + cb_run_status, status_running,
             "imc_chip_run_status: 0 initialising, 1 running, 2 paused, 3 bad speed, 4 bad mode (microcode)");
        word("CB_COMMAND", cb + cb_command, 0,
             "imc_chip_command: 0 NOP, 1 resume, 2 pause, 3 clear and restart (host; microcode resets to 0)");
        word("CB_COLLECTION_SPEED", cb + cb_speed, 0,
             "collection speed code 0..0xB: group 1-3 postings every (code+1) ms (OCC source reading)");
        word("CB_AVL_VECTOR", cb + cb_avl_vector, 0,
             "unit availability: IBM bit i = skiboot nest_pmus_p9[i] (microcode)",
             {{"POWERBUS0", 63, 1, fa::rw, "IBM bit 0"}, {"MCS0_7", 55, 8, fa::rw, "IBM bits 1:8"}});
        word("CB_RUN_MODE", cb + cb_run_mode, 0, "imc_chip_run_mode: 0 monitor, 1 debug (others: status 4)");
        cite(r, "NEST_", "skiboot hw/imc.c (nest counters in HOMER) and the IMC catalog's reg offsets; "
                         "group header/trailer offsets UNVERIFIED: OCC 24x7 microcode layout");
        cite(r, "OCC_24X7_VERSION$", "UNVERIFIED: OCC 24x7 microcode version word (not in skiboot's headers)");
        cite(r, "CB_", "skiboot include/imc.h (P9_CB_STRUCT_OFFSET, P9_CB_STRUCT_CMD, P9_CB_STRUCT_SPEED, struct imc_chip_cb); "
                       "speed codes UNVERIFIED");
        return r;
    }();
    return t;
}

} // namespace pmusim::imc
