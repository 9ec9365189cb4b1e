#pragma once
// Parameter schemas and typed parameter values: what a unit type declares for its `units:` entry
// (and for the keys it adds under `cpus[N].features`), and what its factory receives once the
// platform loader has validated the input against them. Values are read with the one grammar of
// models/values.h (docs/values.md); this header adds the schema (type, default, bounds) and the
// phrases of "expected ..." messages about a parameter.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pmusim {

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

const char* param_type_name(param_type t); // "integer", "boolean", ...
// "integer 1..31", "choice original|dsu-110|dsu-120", "frequency", ...
std::string describe_param_type(const param_spec& p);
// Display form of a canonical value of `p` ("6", "0x50000000", "2GHz"), as --list-params shows it.
std::string display_param_value(const param_spec& p, const std::string& canonical);

// Validates `text` against `spec`; returns the canonical text (integers in decimal, frequencies in
// Hz, durations in fs, booleans true/false, strings and choices as written), or nullopt and sets
// `expected` to the phrase of an "expected ..." message.
std::optional<std::string> canonical_param_value(const param_spec& spec, const std::string& text,
                                                 std::string& expected);
// Checks a schema (identifier names, no duplicates, choices only for choice parameters, min <= max,
// defaults that are valid) and canonicalises its defaults. `owner` names it in the model_error
// thrown otherwise ("register_unit(dsu_clusterpmu)").
void check_param_schema(std::vector<param_spec>& params, const std::string& owner);
const param_spec* find_param_spec(const std::vector<param_spec>& params, const std::string& name);

// Phrases after "expected": "an integer in 1..31", "one of a, b", ...
std::string expected_integer(uint64_t min, uint64_t max);
std::string expected_choice(const std::vector<std::string>& choices);
bool is_identifier(const std::string& s); // letters, digits, '_', not starting with a digit

// The typed values of a schema's parameters, every declared one present (written or defaulted).
// Reading a parameter the schema does not declare, or as another type than declared, is the
// unit's bug: model_error.
class param_values {
public:
    param_values() = default;
    // From canonical text (canonical_param_value); a parameter missing from `canonical` takes the
    // schema's default.
    param_values(const std::vector<param_spec>& schema, const std::map<std::string, std::string>& canonical);

    uint64_t integer(const std::string& name) const;
    bool boolean(const std::string& name) const;
    const std::string& text(const std::string& name) const; // a string parameter
    const std::string& choice(const std::string& name) const;
    size_t choice_index(const std::string& name) const; // position in the declared choices
    uint64_t frequency_hz(const std::string& name) const;
    uint64_t duration_fs(const std::string& name) const;

private:
    struct value {
        param_type type = param_type::integer;
        uint64_t number = 0; // integer, frequency (Hz), duration (fs), boolean (0/1), choice index
        std::string text;    // string and choice
    };
    std::map<std::string, value> values_;
    const value& get(const std::string& name, param_type type) const;
};

} // namespace pmusim
