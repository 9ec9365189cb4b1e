#pragma once
// The IBM POWER9 In-Memory Collection counters (docs/imc.md): one `power9_imc`
// unit serves every chip of the platform.
//
//  - nest: per chip, the OCC 24x7 microcode model. It polls its control block
//    in HOMER every OCC tick (500 us), and posts the nest counts into HOMER as
//    big-endian 64-bit atomic adds with group header/trailer counts;
//  - core: per core, the SCOMs PDBAR / EVENT_MASK / HTM_MODE; the core writes
//    its counters into 8 KiB at PDBAR every `core_update_period`;
//  - thread: per hardware thread, the LDBAR SPR (enable, mode, address);
//    accumulation into 8 KiB at LDBAR on the same cadence;
//  - trace: TRACE_IMC_SCOM + LDBAR trace mode: a 64-byte record at each
//    overflow of the sampling CPMC, at that exact instant; no interrupt ever.
// The unit writes memory as a bus master (the OCC's PBA, the cores' IMC
// logic) through the same gate and bus as everyone else. Nothing is ticked per
// cycle: counts come from event sources; one SystemC event per OCC tick,
// per core update and per trace record.
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "imc/catalog.h"
#include "models/event_source.h"
#include "models/lazy_counter.h"
#include "models/register_bank.h"
#include "models/unit.h"
#include "models/unit_command.h"

namespace pmusim {

struct unit_entry;
struct platform_view;
struct unit_tool;

namespace imc {

// ---- facts: skiboot include/imc.h, hw/imc.c @ecebf4fb3d9c; Linux arch/powerpc/include/asm/imc-pmu.h
// (IMC_CNTL_BLK_OFFSET, THREAD_IMC_LDBAR_MASK, IMC_TRACE_RECORD_TB1_MASK) and asm/reg.h (SPRN_LDBAR)
// @v6.1; nest_offset is the P9 catalog's `offset`; TOTAL_POSTINGS and the version word at 0x1AFC00
// from the OCC 24x7 microcode (open-power/occ@3515ab0e78eb src/occ_gpe1/gpe1_24x7.{c,h}; UNVERIFIED
// against a second source); the XSCOM base from QEMU's pnv (PNV9_XSCOM_BASE) -------------------
constexpr uint64_t nest_offset = 0x180000;     // nest counters in HOMER (catalog `offset`)
constexpr uint64_t cb_offset = 0x3fc00;        // control block from the nest counters
constexpr uint64_t version_offset = 0x1afc00;  // OCC 24x7 version word in HOMER
constexpr uint64_t nest_posting_words = 238;   // OCC TOTAL_POSTINGS
constexpr uint32_t ldbar_spr = 850;            // SPR number of LDBAR
constexpr uint64_t ldbar_address_mask = 0x0003ffffffffe000ULL; // what Linux programs (IBM 14:50)
constexpr uint64_t htm_mode_disable = 0xE000000000000000ULL;   // skiboot IMC_HTM_MODE off
constexpr uint64_t htm_mode_enable = 0xE800000000000000ULL;    // skiboot IMC_HTM_MODE on (IBM bit 4)
constexpr uint64_t core_event_mask = 0x0402010000000000ULL;    // skiboot CORE_IMC_EVENT_MASK
constexpr uint64_t xscom_default_base = 0x000603FC00000000ULL; // chip 0 XSCOM MMIO (QEMU pnv PNV9_XSCOM_BASE)
constexpr uint64_t xscom_size = 0x400000000ULL;                // per chip
constexpr unsigned xscom_chip_shift = 42;
constexpr uint64_t trace_tb_mask = 0x3FFFFFFFFFFULL;           // IMC_TRACE_RECORD_TB1_MASK

// The fields the model reads or composes, in LSB0 positions (IBM bit b = 63 - b): the tables
// (imc_table.cpp) place their fields with these same descriptors, so each position is written once.
namespace imc_field {
constexpr reg_field ldbar_enable{63, 1}, ldbar_mode{62, 1}, ldbar_address{13, 43};
constexpr reg_field pdbar_address{13, 37};
constexpr reg_field htm_imc_select{61, 3}, htm_imc_on{59, 1};
constexpr uint64_t htm_imc_select_imc = 7; // IMC_SELECT = 0b111: the IMC use of the HTM logic
constexpr reg_field trace_sampsel{62, 2}, trace_cpmc_load{30, 32}, trace_cpmc1sel{23, 7}, trace_cpmc2sel{16, 7},
                    trace_buffersize{13, 3};
constexpr unsigned cpmc_sel_32mhz = 2; // CPMC1SEL/CPMC2SEL: 32 MHz cycles (other values: instructions)
constexpr reg_field version_major{60, 4}; // OCC_24X7_VERSION: major [63:60] (minor [59:52], bugfix [51:48])
} // namespace imc_field

// (Written `1 << lsb` so that tests/limits/check_test_oracles.py still reads them as constants.)
constexpr uint64_t ldbar_enable = uint64_t{1} << imc_field::ldbar_enable.lsb;   // IBM bit 0
constexpr uint64_t ldbar_trace_mode = uint64_t{1} << imc_field::ldbar_mode.lsb; // IBM bit 1

// Control block words (struct imc_chip_cb), offsets from the control block.
enum cb_word : uint64_t { cb_run_status = 0x00, cb_command = 0x08, cb_speed = 0x10, cb_avl_vector = 0x18, cb_run_mode = 0x20 };
enum run_status : uint64_t { status_init = 0, status_running = 1, status_paused = 2, status_bad_speed = 3, status_bad_mode = 4 };
enum nest_command : uint64_t { cmd_nop = 0, cmd_resume = 1, cmd_pause = 2, cmd_clear = 3 };

// An IMC memory access that reached no memory (recorded by load64/store64, reported by guarded()).
struct memory_fault {
    uint64_t address = 0;
    bool write = false;
};

// SCOM (PCB) addresses, skiboot include/xscom.h and hw/imc.c.
uint32_t scom_pdbar(unsigned core);
uint32_t scom_htm_mode(unsigned core);
uint32_t scom_event_mask(unsigned core);
uint32_t scom_trace(unsigned core);
// skiboot xscom_addr() on POWER9: MMIO offset of a PCB address in a chip's XSCOM window (pcb << 3), and back.
uint64_t xscom_offset(uint32_t pcb);
std::optional<uint32_t> pcb_of_offset(uint64_t offset);
// TRACE_IMC_SCOM(sampsel, cpmc_load, cpmc1sel, cpmc2sel, buffersize) as skiboot builds it.
uint64_t trace_scom_value(unsigned sampsel, uint32_t period, unsigned cpmc1sel, unsigned cpmc2sel, unsigned buffersize);
constexpr uint64_t skiboot_trace_scom = 0x7FFFFFC142020000ULL; // TRACE_IMC_SCOM(1, 0xfa, 4, 2, 0)

const register_table& imc_table();       // SCOMs and LDBAR
const register_table& imc_homer_table(); // control block and HOMER layout (documentation; memory, not registers)

struct imc_options {
    unsigned chips = 1;
    uint64_t homer_base = 0x10000000;
    uint64_t homer_stride = 0x400000;
    uint64_t xscom_base = xscom_default_base;
    uint64_t avl_vector = 0xFFFF8073F007E000ULL; // OCC CNTL_UAV_TEMP
    fs_t occ_tick = 500'000'000'000ULL;          // 500 us (OCC HW_MICS_PER_TICK)
    fs_t core_update_period = 1'000'000'000'000ULL; // 1 ms (UNVERIFIED; a parameter)
    std::string catalog_path;                    // the catalog file (read_imc_options: resolved, or the built-in one)
    bool trace_supported = true;                 // Nimbus DD2.2 and later (skiboot is_imc_device_type_supported)
    std::string nest_clock = "nest";
    std::string timebase_clock = "tb";
    // The hardware threads whose core/thread IMC the unit serves (the entry's `cpus:`, in order).
    struct hardware_thread {
        unsigned cpu = 0;
        std::string name; // cpuN
        unsigned chip = 0, core = 0, thread = 0;
        std::string clock; // its core's clock domain
    };
    std::vector<hardware_thread> threads;
    uint64_t homer_base_of(unsigned chip) const { return homer_base + chip * homer_stride; }
};

// The typed options of a `power9_imc` entry as written, with its catalog path resolved; what the
// unit is built from (after the checks of its factory) and what `pmusim imc-dt` prints.
imc_options read_imc_options(const unit_entry& u, const platform_view& p);

// skiboot: trace IMC needs P9 Nimbus DD2.2 or later (PVR major 2, minor >= 2).
constexpr bool trace_supported_on(unsigned dd_major, unsigned dd_minor) {
    return dd_major > 2 || (dd_major == 2 && dd_minor >= 2);
}

// The PIR of a thread: chip << 8 | core << 2 | thread (P9, non-fused).
constexpr uint32_t pir_of(unsigned chip, unsigned core, unsigned thread) { return (chip << 8) | (core << 2) | thread; }

} // namespace imc

// The unit commands of this type (imc_opal.cpp): `opal`.
unit_command imc_opal_command();

class imc_unit : public unit, public bus_master, public firmware_profile_code {
public:
    tlm_utils::simple_initiator_socket<imc_unit> to_memory; // OCC PBA and the cores' IMC writes

    // `events`: the catalog read from options.catalog_path.
    imc_unit(const sc_core::sc_module_name& name, soc& system, const imc::imc_options& options, imc::catalog events);
    ~imc_unit() override;

    std::string type() const override { return "power9_imc"; }
    const register_table& table() const override { return imc::imc_table(); }
    std::vector<address_window> mmio_windows() const override;
    std::vector<const register_def*> sysregs(unsigned cpu) const override;
    access_outcome sysreg_rule(access_context& ctx, const register_def& reg, bool is_write) override;
    tlm::tlm_initiator_socket<>& bus_master_socket() override { return to_memory; }
    void reset(bool cold) override;
    bool inject(const std::string& node, const std::string& event, uint64_t count, fs_t over,
                std::string& error) override;
    firmware_code firmware_boot(const std::string& profile) override;
    // `opal imc_counters_init|start|stop nest|core|trace [ADDRESS] cpuN` (imc_opal.cpp): the accesses
    // skiboot makes for the call, made by `caller` at hypervisor privilege.
    command_result opal_call(const std::vector<std::string>& args, const access_context& caller);
    void report(std::ostream& out) override;
    // What-if (docs/whatif.md "POWER9 IMC"): the memory words software reads, and the events
    // at the engines' inputs since time 0 (nest per chip, core per core, thread per thread).
    void observables(std::vector<observable>& out) override;
    void event_totals(std::vector<event_total>& out) override;

    const imc::catalog& catalog() const { return catalog_; }
    const imc::imc_options& options() const { return options_; }
    uint64_t homer_base(unsigned chip) const { return options_.homer_base_of(chip); }
    uint64_t xscom_base(unsigned chip) const { return options_.xscom_base + (uint64_t(chip) << imc::xscom_chip_shift); }
    // The imc-counters node skiboot would hand to Linux now.
    imc::dt_node device_tree() const;
    // Counting proof for the trace engine: it never raises an interrupt.
    uint64_t interrupts_raised() const { return interrupts_raised_; }
    uint64_t trace_records(unsigned cpu) const;
    uint64_t nest_postings(unsigned chip) const;
    uint64_t memory_writes() const { return memory_writes_; }
    // IMC memory accesses that hit no memory (the engine concerned stops; docs/imc.md).
    uint64_t memory_faults() const { return memory_faults_; }
    // A thread's engines as the model holds them, for the fuzzers' invariants (fuzz/invariants.cpp):
    // what the docs define them by (HTM_MODE, LDBAR, TRACE_IMC) is checked against these.
    struct thread_engine_state {
        unsigned chip = 0, core = 0;
        bool core_accumulating = false, thread_accumulating = false, tracing = false;
        uint64_t trace_buffer = 0, trace_entries = 0, next_record = 0; // while tracing
    };
    std::optional<thread_engine_state> thread_engines(unsigned cpu) const;

protected:
    void access(tlm::tlm_generic_payload& trans, access_context& ctx) override;
    void start_of_simulation() override;

private:
    struct nest_counter;
    struct nest_chip;
    struct acc_counter;
    struct core_imc;
    struct thread_imc;

    // Memory as the bus master sees it (big-endian HOMER: values in host order).
    // Runs an engine step; a memory fault stops the engine with a warning instead of the run.
    // The engine steps return false at the first access that reached no memory (recorded in
    // fault_) instead of throwing: an exception thrown inside a SystemC process after coroutine
    // switches trips AddressSanitizer's stack tracking (docs/reliability.md, "Sanitizers").
    template <class Step> bool guarded(const std::string& engine, Step&& step);
    bool memory_access(bool write, uint64_t address, uint8_t (&data)[8]);
    [[nodiscard]] bool load64(uint64_t address, uint64_t& value);
    uint64_t peek64(uint64_t address); // a load, 0 where no memory answers (for observables)
    [[nodiscard]] bool store64(uint64_t address, uint64_t value);
    [[nodiscard]] bool add64(uint64_t address, uint64_t delta);

    void build_nest(nest_chip& c);
    [[nodiscard]] bool init_control_block(nest_chip& c);
    void occ_tick(nest_chip& c);
    [[nodiscard]] bool occ_step(nest_chip& c);
    [[nodiscard]] bool post_group(nest_chip& c, unsigned group);
    void restart_nest_baselines(nest_chip& c, fs_t now);

    void scom_write(core_imc& c, uint32_t pcb, uint64_t value);
    uint64_t scom_read(core_imc& c, uint32_t pcb);
    void ldbar_written(thread_imc& t);
    void power_changed(thread_imc& t);
    void refresh_core(core_imc& c);
    void core_update(core_imc& c);
    [[nodiscard]] bool core_update_step(core_imc& c);
    void trace_overflow(thread_imc& t);
    [[nodiscard]] bool trace_record(thread_imc& t);
    void schedule_trace(thread_imc& t);

    // Every value the engines write to memory is read from a free-running 64-bit lazy_counter
    // of its source (a "meter", enabled from time 0), never from the source directly, so the
    // reference mode counts it edge by edge too (docs/reference-mode.md step 4).
    void add_meter(const event_source& source);
    uint64_t metered(const event_source& source, fs_t now);

    imc::imc_options options_;
    imc::catalog catalog_;
    std::vector<std::unique_ptr<nest_chip>> chips_;
    std::vector<std::unique_ptr<core_imc>> cores_;
    std::vector<std::unique_ptr<thread_imc>> threads_; // by CPU index; null for CPUs not served
    std::unique_ptr<clock_edges> timebase_;
    std::unique_ptr<event_source> ref32_; // the 32 MHz reference: timebase / 16
    std::map<const event_source*, std::unique_ptr<lazy_counter>> meters_;
    uint64_t interrupts_raised_ = 0;
    uint64_t memory_writes_ = 0;
    uint64_t memory_faults_ = 0;
    imc::memory_fault fault_{}; // the access that stopped the last failed engine step
};

} // namespace pmusim

namespace pmusim::imc {
// `pmusim imc-dt`: the imc-counters node skiboot hands to Linux for a power9_imc unit with
// these options (read_imc_options), as DTS text; with `linux_view`, instead the PMUs and events
// Linux publishes in sysfs, one per line: "PMU/EVENT event=0x.. [scale=S] [unit=U]".
// avl_override replaces the unit's availability vector.
std::string imc_device_tree_text(const imc_options& o, bool linux_view, std::optional<uint64_t> avl_override);
// `pmusim imc-dt [--avl-vector V] [--linux-events]` as the unit type's tool (models/unit_tool.h).
unit_tool imc_device_tree_tool();
} // namespace pmusim::imc
