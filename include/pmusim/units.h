#pragma once
/// @file
/// The counter units alone, each an ordinary TLM-2.0 target in a user's platform, built from typed
/// options with no pmusim platform file around it (docs/embedding.md). Every unit is a pmusim::model:
/// see model.h for the socket, the interrupt and frequency ports and the activity inputs.
#include <cstdint>
#include <map>
#include <string>

#include "pmusim/model.h"

namespace pmusim {

/// "Non-secure, EL1, CPU 0, memory-mapped": the default initiator of a memory-mapped frame.
access_context ns_el1_cpu0();
/// "POWER supervisor (OS), CPU 0, memory-mapped": the default initiator on a POWER9 IMC.
access_context power_supervisor_cpu0();

/// Options of a DSU cluster PMU (Arm DynamIQ Shared Unit CLUSTERPMU; docs/dsu_clusterpmu.md).
struct dsu_pmu_options {
    std::string variant = "dsu-110";      ///< "original", "dsu-110" or "dsu-120"
    unsigned counters = 6;                ///< CLUSTERPMCR_EL1.N, 1..31
    unsigned cpus = 4;                    ///< cores in the cluster (cpu0..cpuN-1)
    uint64_t clock_hz = 1000000000;       ///< the DSU clock (SCLK) the counters count
    uint64_t cpu_clock_hz = 2000000000;   ///< the cores' clock
    uint64_t const_clock_hz = 100000000;  ///< the constant-frequency reference clock
    std::string firmware = "tf-a";        ///< "tf-a" (boot code enables EL1 access) or "none"
    bool irq_must_be_bound = true;        ///< an unbound `irq` is an elaboration error
    access_context default_initiator = ns_el1_cpu0();
    /// Further unit parameters as in a platform file (filter_reading, irq_needs_enable, ...).
    std::map<std::string, std::string> params;
};

/// A DSU cluster PMU. `target` serves its memory-mapped CLUSTERPMU frame at offsets 0..0xFFFF;
/// the cores' CLUSTERPM*_EL1 registers through read_sysreg()/write_sysreg().
class dsu_pmu : public model {
public:
    explicit dsu_pmu(const sc_core::sc_module_name& name, const dsu_pmu_options& options = {});
    /// nCLUSTERPMUIRQ (high = asserted): an enabled counter overflowed with its interrupt enabled.
    sc_core::sc_out<bool>& irq;
    /// The DSU clock's frequency input (optional).
    frequency_port& clock_in;
    /// DVFS of the DSU clock (SCLK).
    void set_clock_frequency(uint64_t hz) { set_frequency("sclk", hz); }
    /// Events at the DSU's inputs (event names as in docs/dsu_clusterpmu.md, e.g. "l3d_cache").
    void inject(const std::string& event, uint64_t count, const sc_core::sc_time& over = sc_core::SC_ZERO_TIME) {
        model::inject("dsu", event, count, over);
    }
    using model::inject;
};

/// Options of a CMN-600 mesh (configuration space and PMU; docs/cmn.md).
struct cmn600_options {
    unsigned mesh_x = 3, mesh_y = 3;      ///< crosspoints
    /// Device ports, one per line 'X,Y p0|p1 KIND [xN]' (empty: the default layout, docs/cmn.md).
    std::string nodes;
    std::string events;                   ///< constant node event rates (docs/cmn.md)
    uint64_t clock_hz = 1000000000;       ///< the mesh clock
    bool irq_must_be_bound = true;        ///< an unbound `irq` is an elaboration error
    access_context default_initiator = ns_el1_cpu0();
    std::map<std::string, std::string> params; ///< further unit parameters (revision, latencies, ...)
};

/// A CMN-600. `target` serves its 64 MiB configuration space at offsets from PERIPHBASE (the
/// root node at offset 0 unless params["root_node_offset"] says otherwise).
class cmn600_pmu : public model {
public:
    explicit cmn600_pmu(const sc_core::sc_module_name& name, const cmn600_options& options = {});
    sc_core::sc_out<bool>& irq;   ///< the DTC overflow interrupt
    frequency_port& clock_in;     ///< the mesh clock's frequency input (optional)
    void set_clock_frequency(uint64_t hz) { set_frequency("mesh", hz); }
    /// Requester traffic: requester {"X,Y", "pP"}, settings as the sequence language's `traffic`.
    void set_traffic(const std::vector<std::string>& requester, const std::vector<std::string>& settings) {
        model::set_traffic("cmn", requester, settings);
    }
    using model::set_traffic;
};

/// Options of the Activity Monitors of a group of CPUs (Arm AMU; docs/amu.md).
struct amu_options {
    unsigned cpus = 1;                    ///< CPUs, each with its AMU (cpu0..cpuN-1)
    std::string version = "v1p1";         ///< "v1" or "v1p1"
    unsigned aux_counters = 0;            ///< auxiliary counters, 0..16
    uint64_t cpu_clock_hz = 2000000000;   ///< every CPU's clock ("cpuN")
    uint64_t const_clock_hz = 100000000;  ///< the constant-frequency reference clock ("const")
    std::string firmware = "tf-a";        ///< "tf-a" (enables the counters, clears the EL3 trap) or "none"
    access_context default_initiator = ns_el1_cpu0();
};

/// The AMUs of `cpus` CPUs: system registers only (read_sysreg/write_sysreg; AMEVCNTR0<n>_EL0 ...).
/// The CPUs' workload (set_workload) drives the event counters.
class amu_cpus : public model {
public:
    explicit amu_cpus(const sc_core::sc_module_name& name, const amu_options& options = {});
};

/// Options of an Arm CoreSight PMU architecture counter block (IHI 0091; docs/cspmu.md).
struct coresight_pmu_options {
    unsigned counters = 8;                ///< event counters, 1..31 (PMCFGR.N counts the cycle counter too)
    unsigned counter_width = 64;          ///< counter size in bits, 32..64 (PMCFGR.SIZE + 1)
    bool cycle_counter = true;            ///< a cycle counter at index 31 (PMCFGR.CC)
    uint32_t pmiidr = 0x43B;              ///< PMIIDR (implementer, revision, variant, product)
    uint64_t clock_hz = 1000000000;       ///< the clock the cycle counter counts
    bool irq_must_be_bound = true;        ///< an unbound `irq` is an elaboration error
    access_context default_initiator = ns_el1_cpu0();
    std::map<std::string, std::string> params; ///< further unit parameters as in a platform file
};

/// A CoreSight PMU. `target` serves its 4 KB register page at offsets 0..0xFFF.
class coresight_pmu : public model {
public:
    explicit coresight_pmu(const sc_core::sc_module_name& name, const coresight_pmu_options& options = {});
    sc_core::sc_out<bool>& irq;   ///< the overflow interrupt
    frequency_port& clock_in;     ///< the counted clock's frequency input (optional)
    void set_clock_frequency(uint64_t hz) { set_frequency("pmu_clk", hz); }
    /// Events at the PMU's inputs (names as in docs/cspmu.md).
    void inject(const std::string& event, uint64_t count, const sc_core::sc_time& over = sc_core::SC_ZERO_TIME) {
        model::inject("cspmu", event, count, over);
    }
    using model::inject;
};

/// Options of the POWER9 In-Memory Collection counters of one chip (docs/imc.md).
struct power9_imc_options {
    unsigned cores = 4;                   ///< SMT cores of the chip (clocks core0..coreN-1)
    unsigned threads_per_core = 4;        ///< hardware threads per core, 1..4 (cpu0..cpuM-1 in core order)
    uint64_t core_clock_hz = 3200000000;  ///< every core's clock
    uint64_t nest_clock_hz = 2000000000;  ///< the nest (PowerBus) clock ("nest")
    uint64_t timebase_hz = 512000000;     ///< the timebase ("tb")
    uint64_t homer_base = 0x10000000;     ///< the chip's 4 MiB HOMER image; its counters' memory follows it
    std::string firmware = "opal";        ///< "opal" (skiboot + OCC start the counters) or "none"
    access_context default_initiator = power_supervisor_cpu0();
    std::map<std::string, std::string> params; ///< further unit parameters (core_update_period, catalog, ...)
};

/// A POWER9 IMC: the nest, core and thread counters, posted big-endian to memory. `target` serves
/// the model's bus: the HOMER image at homer_base and the counters' memory after it (1 MiB).
class power9_imc : public model {
public:
    explicit power9_imc(const sc_core::sc_module_name& name, const power9_imc_options& options = {});
};

} // namespace pmusim
