#pragma once
// The IMC event catalog: PMU units and their events, read from a device tree
// with Linux's rules, and the `imc-counters` node skiboot hands to Linux,
// pruned by the nest availability vector (docs/imc.md "Catalog and device tree").
//
// Rules (Linux arch/powerpc/perf/imc-pmu.c@v6.1: update_events_in_group, imc_parse_event, the
// "nest_%s_imc" name; arch/powerpc/platforms/powernv/opal-imc.c@v6.1 for `type`; skiboot
// hw/imc.c@ecebf4fb3d9c check_imc_device_type):
//  - a unit is a node with compatible "ibm,imc-counters" and a `type`
//    (0x10 nest, 0x4 core, 0x1 thread, 0x2 trace); one of missing or unknown
//    type is dropped, as skiboot's check_imc_device_type deletes it and Linux
//    skips it (not an error); `events` is a phandle to the
//    events node; `events-prefix` prefixes every event name;
//  - an event is a child of the events node with `event-name` and `reg`;
//    its value (perf `config`, and its offset in counter memory) is the unit's
//    first `reg` cell plus the event's first `reg` cell;
//  - an event without `scale`/`unit` takes the unit's (inheritance);
//  - nest PMUs are named nest_<node name>_imc, the others <node name>_imc.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "imc/device_tree.h"

namespace pmusim::imc {

enum class imc_domain { nest = 1, core = 2, thread = 3, trace = 4 };
const char* to_string(imc_domain d); // "nest", "core", "thread", "trace"

// IMC_COUNTER_* of the `type` property.
constexpr uint32_t type_chip = 0x10, type_core = 0x4, type_thread = 0x1, type_trace = 0x2;

struct catalog_event {
    std::string name;       // full: events-prefix + event-name ("PM_MCS01_128B_RD_DISP_PORT01")
    std::string event_name; // as in the catalog ("128B_RD_DISP_PORT01")
    uint32_t reg = 0;       // relative to the unit's reg
    uint32_t value = 0;     // unit reg + event reg: perf config and memory offset
    std::string desc;
    std::optional<std::string> scale, unit; // effective, after inheritance
    bool scale_inherited = false, unit_inherited = false;
};

struct catalog_unit {
    std::string node_name; // "mcs01@c8"
    std::string name;      // "mcs01"
    imc_domain domain = imc_domain::nest;
    uint32_t reg = 0;
    uint32_t size = 0;
    std::optional<uint32_t> offset;    // nest: counter region offset from HOMER
    std::optional<uint32_t> cb_offset; // nest: control block offset from the counter region
    std::string prefix;
    std::optional<std::string> scale, unit;
    std::vector<catalog_event> events;
    unsigned line = 0;
    std::string pmu_name() const; // "nest_mcs01_imc", "core_imc"
    const catalog_event* find_event(const std::string& full_name) const;
};

// The units under `parent` (the catalog root, or an emitted imc-counters node).
// strict: a malformed unit is an input_error (file:line, what was expected);
// otherwise it is skipped as Linux skips it.
std::vector<catalog_unit> read_units(const dt_node& parent, const std::string& file, bool strict);

struct catalog {
    std::string file;
    dt_node root;
    std::vector<catalog_unit> units;
    const catalog_unit* find_unit(const std::string& name) const;
    const catalog_unit* domain_unit(imc_domain d) const; // the first unit of a domain
};

catalog load_catalog(const std::string& text, const std::string& file);
// The catalog file pmusim ships (imc/catalog/power9_dd2.dts in the source tree).
std::string builtin_catalog_path();
catalog load_catalog_file(const std::string& path); // input_error if unreadable or malformed

// skiboot's nest_pmus_p9[]: the unit of IBM bit i of the availability vector.
const std::vector<std::string>& nest_units_p9();
// Whether skiboot keeps a nest unit given the availability vector
// (mcs0..mcs7 always go; mcs01 needs bit 1 or 2, ...; unknown names stay).
bool nest_unit_kept(const std::string& name, uint64_t avl_vector);

struct chip_homer {
    unsigned chip_id = 0;
    uint64_t homer_base = 0;
};

// The `imc-counters` node as skiboot builds it for Linux: the catalog expanded
// under it, nest units pruned by avl_vector (every nest unit when
// nest_available is false: a chip whose microcode is not running), base-addr
// and chip-id added to every nest unit, trace removed when !trace_supported.
dt_node imc_counters_node(const catalog& c, const std::vector<chip_homer>& chips, uint64_t avl_vector,
                          bool nest_available, bool trace_supported);

// One event as Linux publishes it in sysfs (/sys/bus/event_source/devices/PMU/events/NAME).
struct linux_event {
    std::string pmu, name;
    uint32_t value = 0; // "event=0x..."
    std::optional<std::string> scale, unit;
};
// Reads the emitted node as Linux's opal-imc.c / imc-pmu.c do: thread_imc is
// unregistered when no core_imc registers (opal_imc_counters_probe).
std::vector<linux_event> linux_events(const dt_node& imc_counters, const std::string& file);

} // namespace pmusim::imc
