#pragma once
// A unit type as the platform builder sees it: one unit_descriptor, registered from the unit's
// own folder (its register.cpp) with one register_unit() call. It carries
//  - the parameter schema of a `units:` entry of the type,
//  - the keys the type adds under `cpus[N].features` (the AMU's amu, amu_aux_counters, ...),
//  - the register tables it documents (`pmusim regs`, docs/registers),
//  - its factories, which receive typed, validated values: their own entry (unit_entry, with
//    param_values) and a narrow view of the platform (platform_view), never the testbench's
//    configuration structs and never text to parse.
// The platform loader (tb/platform_config.h) validates `units:` and `features:` against the
// registered descriptors and knows no unit. How to add a unit: docs/extending.md.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/input_error.h"
#include "models/param_schema.h"
#include "models/unit_command.h"
#include "models/unit_tool.h"

namespace pmusim {

class soc;
class unit;
struct register_table;

// A key a unit type adds under `cpus[N].features`. Its value reaches the unit through
// platform_cpu::features and cpu_description::features (models/soc.h).
struct cpu_feature_spec {
    param_spec spec;
    // An Arm feature: --list-params lists the key for Arm CPUs only.
    bool arm_only = false;
    // Non-empty: on arch power the value must stay the default; this phrase follows "expected".
    std::string power_expected;
    // Non-empty: a value other than the default needs the feature `needs` to be other than its
    // default too; `needs_message` follows "cpus[N].features.KEY: " otherwise.
    std::string needs;
    std::string needs_message;
    // Non-empty: the field of ID_AA64PFR0_EL1 (by its name in cpu_controls_table()) that holds the
    // value (an integer, or a choice's position) on this CPU.
    std::string id_aa64pfr0_field;
    // With id_aa64pfr0_field: KVM shows guests the field as 0 (the AMU: Linux's KVM hides it).
    bool hidden_from_guests = false;

    // Written like an aggregate (the constructor only spares -Wmissing-field-initializers warnings).
    cpu_feature_spec(param_spec spec_, bool arm_only_ = false, std::string power_expected_ = {},
                     std::string needs_ = {}, std::string needs_message_ = {}, std::string id_aa64pfr0_field_ = {},
                     bool hidden_from_guests_ = false)
        : spec(std::move(spec_)), arm_only(arm_only_), power_expected(std::move(power_expected_)),
          needs(std::move(needs_)), needs_message(std::move(needs_message_)),
          id_aa64pfr0_field(std::move(id_aa64pfr0_field_)), hidden_from_guests(hidden_from_guests_) {}
};

// Where a unit's entry was written, for the errors its factory throws. Shared by the loader's
// record (tb unit_config) and what the factory receives (unit_entry), so both word them alike.
struct unit_origin {
    std::string name;
    std::string file;
    unsigned index = 0; // position in the units list ("units[index]" in messages)
    unsigned line = 0;
    std::map<std::string, unsigned> param_lines; // only params written (line 0: set by -C)
    std::map<std::string, unsigned> key_lines;   // line of each key written (base, cpus, ...)

    bool param_is_default(const std::string& name) const { return !param_lines.count(name); }
    bool key_written(const std::string& key) const { return key_lines.count(key) != 0; }
    // Line of the parameter if written, else of the `params:` key, else of the unit entry.
    unsigned param_line(const std::string& name) const;
    unsigned key_line(const std::string& key) const; // line of a unit key if written, else the entry's
    // Errors for the unit implementations to throw, e.g.
    //   throw u.param_error("counters", "a DSU-120 has at most 8 counters");
    // gives "file:line: units[0].params.counters: a DSU-120 has at most 8 counters".
    input_error param_error(const std::string& name, const std::string& message) const;
    input_error key_error(const std::string& key, const std::string& message) const;
    input_error error(const std::string& message) const; // "units[N] (NAME): message"
};

// A `units:` entry of the platform, validated, as its factory receives it.
struct unit_entry : unit_origin {
    std::string type;
    bool has_mmio = false; // base and size were given (both or neither)
    uint64_t base = 0;
    uint64_t size = 0;
    std::string clock;          // empty when not given; else a clock of the platform
    std::vector<unsigned> cpus; // CPU indices, in the order written
    std::string irq;            // empty when not given; else an interrupt line name
    param_values params;        // every declared parameter, written or defaulted
};

// What a factory may know of the platform around its unit.
struct platform_cpu {
    unsigned index = 0;
    std::string name;  // "cpuN"
    std::string clock; // its clock domain
    unsigned cluster = 0;                      // arch arm
    unsigned chip = 0, core = 0, thread = 0;   // arch power: the hardware thread's place
    unsigned line = 0;
    param_values features; // every registered feature key, written or defaulted
};

struct platform_memory_region {
    std::string name;
    uint64_t base = 0;
    uint64_t size = 0;
    bool big_endian = false;
    unsigned line = 0;
};

struct platform_view {
    std::string file; // the platform file, for errors
    bool power_arch = false;
    std::vector<platform_cpu> cpus;
    std::vector<std::string> clocks;
    std::vector<platform_memory_region> memory;
    // A path written inside the platform, resolved as tb/platform_config.h resolve_path says.
    std::function<std::string(const std::string&)> resolve_path;

    bool has_clock(const std::string& name) const;
    input_error error_at(unsigned line, const std::string& message) const { return input_error(file, line, message); }
};

// A unit for a `units:` entry of its type.
using unit_factory = std::function<std::unique_ptr<unit>(soc&, const unit_entry&, const platform_view&)>;
// A unit that comes with the CPUs' features alone (the AMU); called when the platform has no
// `units:` entry of the type. Returns null when no CPU has the feature.
using feature_unit_factory = std::function<std::unique_ptr<unit>(soc&, const platform_view&)>;

struct unit_descriptor {
    std::string type;
    std::string description;
    std::vector<param_spec> params; // in declaration order; defaults canonical once registered
    std::vector<cpu_feature_spec> cpu_features;
    std::vector<const register_table*> tables; // documented by `pmusim regs`, in this order
    unit_factory make;                    // empty: a type pmusim lists but does not model
    feature_unit_factory make_from_features; // empty: the type comes only from `units:` entries
    // Its verbs in the sequence language, `UNIT VERB ARGS` (models/unit_command.h); registered with
    // the type, so that a unit's parameters, tables, factories and commands are one declaration.
    std::vector<unit_command> commands;
    // Its pmusim subcommands (`pmusim imc-dt`, models/unit_tool.h): tb/main.cpp adds one per tool.
    std::vector<unit_tool> tools;

    // Written like an aggregate, in this order (the constructor only spares
    // -Wmissing-field-initializers warnings for the fields a type leaves out).
    unit_descriptor(std::string type_, std::string description_, std::vector<param_spec> params_ = {},
                    std::vector<cpu_feature_spec> cpu_features_ = {}, std::vector<const register_table*> tables_ = {},
                    unit_factory make_ = {}, feature_unit_factory make_from_features_ = {},
                    std::vector<unit_command> commands_ = {}, std::vector<unit_tool> tools_ = {})
        : type(std::move(type_)), description(std::move(description_)), params(std::move(params_)),
          cpu_features(std::move(cpu_features_)), tables(std::move(tables_)), make(std::move(make_)),
          make_from_features(std::move(make_from_features_)), commands(std::move(commands_)),
          tools(std::move(tools_)) {}

    const param_spec* find_param(const std::string& name) const { return find_param_spec(params, name); }
};

// Declares (or replaces) a unit type, and registers its tables for the docs. Throws model_error
// on a malformed descriptor (bad names, duplicate parameters or feature keys, a choice without
// choices, min > max, a default that does not parse or is out of range).
void register_unit(unit_descriptor descriptor);

// A copy of the registered descriptor; std::nullopt if `type` is not registered.
std::optional<unit_descriptor> find_unit_type(const std::string& type);
std::vector<std::string> registered_unit_types(); // sorted
// Every registered descriptor, in registration order.
std::vector<unit_descriptor> unit_descriptors();
// The `cpus[N].features` keys of every registered descriptor, in registration order.
std::vector<cpu_feature_spec> registered_cpu_features();

} // namespace pmusim
