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
#include "models/unit_descriptor.h"

namespace pmusim {

// Unit types (their parameter schemas, per-CPU feature keys and factories) are registered as
// descriptors: models/unit_descriptor.h. The loader validates against them and knows no unit.

// ---------------------------------------------------------------------------
// The platform
// ---------------------------------------------------------------------------

enum class arch_kind { arm, power };
// tf_a: Arm Trusted Firmware-A enables the counters at boot (arch arm only);
// opal: skiboot/OPAL + OCC microcode set up IMC (arch power only);
// none: no firmware support, counters are left disabled at reset values.
enum class firmware_profile { tf_a, opal, none };
enum class endianness { little, big };

const char* to_string(arch_kind a);        // "arm", "power"
const char* to_string(firmware_profile f); // "tf-a", "opal", "none"
const char* to_string(endianness e);       // "little", "big"

struct clock_config {
    std::string name;
    uint64_t frequency_hz = 0; // > 0
    unsigned line = 0;
};

struct cpu_config {
    std::string name;   // "cpuN"
    unsigned index = 0; // N: position in the cpus list
    std::string clock;  // a clock_config name (resolved)
    // Every `features:` key the registered unit types declare (registered_cpu_features()), written
    // or defaulted, as canonical text (canonical_param_value).
    std::map<std::string, std::string> features;
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

// A `units:` entry as the loader read it (name, file and lines in unit_origin). Its factory
// receives it as a unit_entry (vp/unit_list.h unit_entry_of): typed values, CPUs by index.
struct unit_config : unit_origin {
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

    // The typed values; a name that is not a declared parameter throws model_error. A parameter
    // missing from `params` (the platform was parsed before the type was registered) is the
    // registered default: units never restate defaults.
    param_values typed_params() const;
    uint64_t param_int(const std::string& name) const { return typed_params().integer(name); }
    bool param_bool(const std::string& name) const { return typed_params().boolean(name); }
    std::string param_string(const std::string& name) const { return typed_params().text(name); }
    std::string param_choice(const std::string& name) const { return typed_params().choice(name); }
    uint64_t param_frequency_hz(const std::string& name) const { return typed_params().frequency_hz(name); }
    uint64_t param_duration_fs(const std::string& name) const { return typed_params().duration_fs(name); }
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

// platform_config::resolve_path for a platform read from `file`.
std::string resolve_platform_path(const std::string& file, const std::string& written);

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

} // namespace pmusim
