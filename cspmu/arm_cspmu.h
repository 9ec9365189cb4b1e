#pragma once
// A memory-mapped Arm CoreSight PMU architecture counter block (IHI 0091), as Linux's
// drivers/perf/arm_cspmu drives it: up to 31 event counters and a cycle counter at index 31,
// counters of PMCFGR.SIZE+1 bits in 32- or 64-bit registers, one SET/CLR register per bitmap, an
// overflow interrupt. The worked example of the unit boundary: this folder and one line in
// tb/unit_list.{h,cpp} are all there is (docs/extending.md, docs/cspmu.md).
#include <array>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/event_source.h"
#include "models/lazy_counter.h"
#include "models/direct_mmio_target.h"
#include "models/pmu_counter_unit.h"

namespace pmusim {

// The positions of the fields the model reads or composes: the tables (cspmu_tables.cpp) place
// their fields with these same constants, so each position is written once.
namespace cspmu_field {
constexpr unsigned cycle_counter = 31; // the cycle counter's index (Linux ARM_CSPMU_CYCLE_CNTR_IDX)
// Counter n's flag in the SET/CLR bitmaps (PMCNTEN, PMINTEN, PMOVS): bit n, the cycle counter's at 31.
constexpr reg_field counter_flag(unsigned n) { return {n, 1}; }
constexpr reg_field event_counter_flags{0, 31}, cycle_counter_flag = counter_flag(cycle_counter);
constexpr reg_field pmcr_e{0, 1}, pmcr_p{1, 1}, pmcr_c{2, 1};
constexpr reg_field pmcfgr_n{0, 8}, pmcfgr_size{8, 6}, pmcfgr_cc{14, 1};
constexpr reg_field pmiidr_implementer{0, 12}, pmiidr_revision{12, 4}, pmiidr_variant{16, 4}, pmiidr_productid{20, 12};
} // namespace cspmu_field

// Counter registers are 64 bits wide when PMCFGR.SIZE+1 > 32 (PMEVCNTR<n> at 8n), else 32 (at 4n).
enum class cspmu_layout { ctr64, ctr32 };
const register_table& cspmu_table(cspmu_layout layout);
// PMPIDRn (n = 0..4) for a PMIIDR: its fields where Linux's arm_cspmu_get_pmiidr() reads them back.
uint32_t cspmu_pidr(unsigned n, uint32_t pmiidr);

// One event a PMEVTYPER can select. The CoreSight PMU architecture leaves event numbers
// IMPLEMENTATION DEFINED; these are pmusim's (docs/cspmu.md).
struct cspmu_event_info {
    uint32_t code;
    const char* name;
    const char* cpu_key; // the CPUs' workload key summed over `cpus:`; nullptr: none
    bool clock_event;    // counts the unit's clock edges (cannot be injected)
};
const std::vector<cspmu_event_info>& cspmu_events();
// Event code by number ("0x3", "3") or name; -1 if unknown.
int cspmu_event_code(const std::string& text);

struct cspmu_options {
    unsigned counters = 8;       // event counters, 0..counters-1
    unsigned counter_width = 64; // bits (PMCFGR.SIZE + 1)
    bool cycle_counter = true;   // counter 31 (PMCFGR.CC)
    uint32_t pmiidr = 0x43B;     // PMIIDR: implementer Arm (JEP106 0x43B), product 0
    cspmu_layout layout() const { return counter_width > 32 ? cspmu_layout::ctr64 : cspmu_layout::ctr32; }
};

class arm_cspmu : public pmu_counter_unit, public direct_mmio_target {
public:
    SC_HAS_PROCESS(arm_cspmu);
    // `cpus`: the CPUs whose activity the CPU events sum; `irq`: the overflow interrupt line ("" for none).
    arm_cspmu(const sc_core::sc_module_name& name, soc& system, cspmu_options options, const std::string& clock,
              std::vector<unsigned> cpus, const std::string& irq, uint64_t base, uint64_t size);

    std::string type() const override { return "arm_cspmu"; }
    const register_table& table() const override { return cspmu_table(opt_.layout()); }
    std::vector<address_window> mmio_windows() const override { return {{basename(), base_, size_}}; }
    void reset(bool cold) override;
    void report(std::ostream& out) override;
    void observables(std::vector<observable>& out) override;
    void control_registers(std::vector<observable>& out) override;
    void event_totals(std::vector<event_total>& out) override;

    const cspmu_options& options() const { return opt_; }
    bool irq_level() const { return irq_level_; }
    // The frame, from the system bus directly (models/direct_mmio_target.h) or through the socket.
    void serve_memory_mapped(tlm::tlm_generic_payload& trans, access_context& ctx) override;

protected:
    void access(tlm::tlm_generic_payload& trans, access_context& ctx) override;

private:
    struct event_feed {
        const cspmu_event_info* info = nullptr;
        summed_source all;
        injected_events injected;
    };
    void bind_hooks();
    void apply() override; // counter sources and enables from the registers
    void update_irq() override;
    void state_reset();
    event_feed* feed(uint32_t code) const;
    uint32_t implemented() const; // the counters' bits in the SET/CLR bitmaps
    uint64_t pmcfgr_value() const;

    cspmu_options opt_;
    const clock_domain& clock_;
    std::vector<unsigned> cpus_;
    interrupt_line* irq_ = nullptr;
    bool irq_level_ = false;
    uint64_t base_, size_;
    std::unique_ptr<register_bank> bank_;

    clock_edges cycles_;
    std::vector<std::unique_ptr<event_feed>> feeds_;

    std::array<lazy_counter, 31> ctr_;
    lazy_counter cc_;
    std::array<uint32_t, 31> evtype_{};
    bool e_ = false;
    uint32_t cnten_ = 0, inten_ = 0;
};

} // namespace pmusim
