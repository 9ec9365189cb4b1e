#pragma once
// The platform configuration model and its YAML loader (docs/platform-config.md).
// Pure C++17, no SystemC: YAML text in, plain structs out. Building SystemC
// modules from a platform_config is the testbench's job.
//
// Every error in the input throws pmusim::input_error(file, line, message) whose
// message names the key and says what was expected and what was found, e.g.
//   my.yaml:14: clocks[2].frequency: expected a frequency like 2GHz, found 'fast'
// Lines are 1-based. Unknown keys, duplicate names and references that do not
// resolve (a CPU's clock, a unit's clock/cpus) are errors at the offending line.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/input_error.h"

namespace pmusim {

// ---------------------------------------------------------------------------
// Unit-type parameter schemas
// ---------------------------------------------------------------------------

enum class param_type { integer, boolean, string, frequency, duration, choice };

// One parameter of a unit type. `default_value` is written like a YAML value
// ("6", "0x50000000", "1GHz", "10ns", "true", a choice); it is validated and
// canonicalised on registration. `min`/`max` bound integers (the value),
// frequencies (Hz) and durations (femtoseconds); ignored for other types.
// Written like an aggregate: {"counters", param_type::integer, "6", "meaning", {}, 1, 31}
// (the constructor only spares -Wmissing-field-initializers warnings).
struct param_spec {
    std::string name;
    param_type type = param_type::integer;
    std::string default_value;
    std::string meaning;
    std::vector<std::string> choices; // param_type::choice only
    uint64_t min = 0, max = UINT64_MAX;

    param_spec() = default;
    param_spec(std::string name_, param_type type_, std::string default_value_, std::string meaning_,
               std::vector<std::string> choices_ = {}, uint64_t min_ = 0, uint64_t max_ = UINT64_MAX)
        : name(std::move(name_)), type(type_), default_value(std::move(default_value_)),
          meaning(std::move(meaning_)), choices(std::move(choices_)), min(min_), max(max_) {}
};

struct unit_type_info {
    std::string type;
    std::string description;
    std::vector<param_spec> params; // in declaration order, defaults canonical
    const param_spec* find_param(const std::string& name) const; // nullptr if absent
};

// Declares (or replaces) the parameter schema of a unit type. Throws
// model_error on a malformed schema (bad names, duplicate parameters, a choice
// without choices, min > max, a default that does not parse or is out of range).
void register_unit_type(const std::string& type, std::vector<param_spec> params,
                        std::string description);

// (Re)registers the placeholder schemas of the built-in unit types
// dsu_clusterpmu, cmn600 and power9_imc, replacing whatever is registered for
// them. The registry calls it by itself the first time it is used, before any
// other registration is applied, so a unit implementation's own
// register_unit_type() call always wins without anyone calling this.
void register_builtin_unit_types();

// A copy of the registered schema; std::nullopt if `type` is not registered.
std::optional<unit_type_info> find_unit_type(const std::string& type);
std::vector<std::string> registered_unit_types(); // sorted

const char* param_type_name(param_type t); // "integer", "boolean", ...
// "integer 1..31", "choice original|dsu-110|dsu-120", "frequency", ...
std::string describe_param_type(const param_spec& p);
// Display form of a canonical value of `p` ("6", "0x50000000", "2GHz"), as --list-params shows it.
std::string display_param_value(const param_spec& p, const std::string& canonical);

// ---------------------------------------------------------------------------
// The platform
// ---------------------------------------------------------------------------

enum class arch_kind { arm, power };
enum class amu_version { none, v1, v1p1 };
// tf_a: Arm Trusted Firmware-A enables the counters at boot (arch arm only);
// opal: skiboot/OPAL + OCC microcode set up IMC (arch power only);
// none: no firmware support, counters are left disabled at reset values.
enum class firmware_profile { tf_a, opal, none };
enum class endianness { little, big };

const char* to_string(arch_kind a);        // "arm", "power"
const char* to_string(amu_version v);      // "none", "v1", "v1p1"
const char* to_string(firmware_profile f); // "tf-a", "opal", "none"
const char* to_string(endianness e);       // "little", "big"

struct clock_config {
    std::string name;
    uint64_t frequency_hz = 0; // > 0
    unsigned line = 0;
};

struct cpu_features {
    amu_version amu = amu_version::none;
    unsigned amu_aux_counters = 0;  // 0..16; non-zero needs amu != none
    bool amu_external_view = false; // memory-mapped AMU view; needs amu != none
    bool fgt = false;               // FEAT_FGT (arch arm): with an AMU, HAFGRTR_EL2 read traps
};

struct cpu_config {
    std::string name;   // "cpuN"
    unsigned index = 0; // N: position in the cpus list
    std::string clock;  // a clock_config name (resolved)
    cpu_features features;
    // arch arm
    unsigned cluster = 0;
    // The instruction-set simulator (docs/firmware.md): CPU clock cycles each instruction costs,
    // and the interrupt lines ORed into the CPU's IRQ input (no GIC).
    unsigned cycles_per_instruction = 1;
    std::vector<std::string> irq;
    unsigned irq_line = 0; // line of the irq key, for errors found once the units are known
    // arch power: each CPU entry is one hardware thread
    unsigned chip = 0;
    unsigned core = 0;
    unsigned threads = 4; // SMT width of its core, 1..4, equal for all threads of a core
    unsigned thread = 0;  // derived: position among the CPUs of the same chip/core
    unsigned line = 0;
};

struct unit_config {
    std::string name;
    std::string type; // a registered unit type
    bool has_mmio = false; // base and size were given (both or neither)
    uint64_t base = 0;
    uint64_t size = 0;
    std::string clock;             // empty when not given; else a clock name (resolved)
    std::vector<std::string> cpus; // CPU names (resolved), in the order written
    std::string irq;               // empty when not given; else an irq line name
    // Every declared parameter of the type, explicit or defaulted, as canonical
    // text: integers in decimal, frequencies in Hz, durations in fs, booleans
    // true/false, strings and choices as written.
    std::map<std::string, std::string> params;
    std::map<std::string, unsigned> param_lines; // only params written in the file
    std::map<std::string, unsigned> key_lines;   // line of each key written (base, cpus, ...)
    std::string file;
    unsigned index = 0; // position in the units list ("units[index]" in messages)
    unsigned line = 0;

    bool param_is_default(const std::string& name) const { return !param_lines.count(name); }
    // Accessors; a name that is not a declared parameter throws model_error. A parameter missing
    // from `params` (the platform was parsed before the type's schema was registered) is the
    // registered default: units never restate defaults.
    std::string param(const std::string& name) const;
    uint64_t param_int(const std::string& name) const;
    bool param_bool(const std::string& name) const;
    std::string param_string(const std::string& name) const;
    std::string param_choice(const std::string& name) const { return param_string(name); }
    uint64_t param_frequency_hz(const std::string& name) const;
    uint64_t param_duration_fs(const std::string& name) const;
    // Line of the parameter if written, else of the unit entry.
    unsigned param_line(const std::string& name) const;
    unsigned key_line(const std::string& key) const; // line of a unit key if written, else the entry's
    // Errors for the unit implementations to throw, e.g.
    //   throw u.param_error("counters", "a DSU-120 has at most 8 counters");
    // gives "file:line: units[0].params.counters: a DSU-120 has at most 8 counters".
    input_error param_error(const std::string& name, const std::string& message) const;
    input_error key_error(const std::string& key, const std::string& message) const;
    input_error error(const std::string& message) const;
};

struct memory_region_config {
    std::string name;
    uint64_t base = 0;
    uint64_t size = 0; // > 0; base + size <= 2^64
    pmusim::endianness endianness = pmusim::endianness::little;
    unsigned line = 0;
};

struct irq_line_config {
    std::string name;
    std::string driver; // the unit whose irq this is, empty if none
    unsigned line = 0;
};

struct firmware_config {
    firmware_profile profile = firmware_profile::tf_a; // opal by default for arch power
    unsigned line = 0;
};

struct latency_config {
    uint64_t register_access_fs = 0;
    unsigned line = 0;
};

struct platform_config {
    std::string file; // as given to parse_platform; "platforms/NAME.yaml" for built-ins
    std::string name;
    std::string description;
    arch_kind arch = arch_kind::arm;
    std::vector<clock_config> clocks;
    std::vector<cpu_config> cpus; // cpus[i].name == "cpu" + i
    firmware_config firmware;
    std::vector<unit_config> units;
    std::vector<memory_region_config> memory;
    std::vector<irq_line_config> irq_lines; // explicit ones first, then units' in unit order
    latency_config latency;

    const clock_config* find_clock(const std::string& name) const;
    const cpu_config* find_cpu(const std::string& name) const;
    const unit_config* find_unit(const std::string& name) const;
    // A path written inside this platform (a unit's file parameter such as the IMC `catalog`):
    // absolute as written; relative from this file's folder, as `platform` in a sequence is read
    // from the sequence's folder; for a built-in platform, from its folder in the data directory.
    std::string resolve_path(const std::string& written) const;
    const memory_region_config* find_memory(const std::string& name) const;
    const irq_line_config* find_irq_line(const std::string& name) const;
    std::vector<const unit_config*> units_of_type(const std::string& type) const;
    input_error error_at(unsigned line, const std::string& message) const {
        return input_error(file, line, message);
    }
};

// Parses and validates YAML text. `file` is used in error messages only.
platform_config parse_platform(std::string_view yaml_text, const std::string& file);

// A built-in platform name (see builtin_platforms.h) or the path of a YAML file.
// Built-in names win over same-named files. An unknown name or a file that
// cannot be read is an input_error that lists the built-in platforms.
platform_config load_platform(const std::string& name_or_path);
// The platform a `platform NAME` statement of `from_file` (at `line`) means: a built-in name, or a
// YAML path resolved from that file's folder (docs/sequence-language.md). A path that does not
// exist is an input error naming from_file:line.
std::string platform_reference(const std::string& name, const std::string& from_file, unsigned line);

// ---------------------------------------------------------------------------
// Listing (pmusim --list-params)
// ---------------------------------------------------------------------------

struct param_listing {
    std::string path;          // "clocks.cpu0.frequency", "units.dsu0.params.counters"
    std::string type;          // describe_param_type() style
    std::string value;         // resolved value, display form ("2GHz", "6", "0x2a000000")
    std::string default_value; // display form; "(required)" when there is none
    std::string meaning;
};

// Every knob of the platform with its resolved value: clock frequencies, CPU
// clocks/topology/features, firmware profile, latency, memory regions, and
// each unit's parameters (declared schema order).
std::vector<param_listing> collect_params(const platform_config& p);
// The same as aligned text lines, a header line first.
std::vector<std::string> list_params(const platform_config& p);
// Every registered unit type with its parameters (type, default, meaning).
std::vector<std::string> list_unit_types();

} // namespace pmusim
