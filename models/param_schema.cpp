// Parameter schemas and typed values (models/param_schema.h).
#include "models/param_schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "models/input_error.h"
#include "models/values.h"

namespace pmusim {

namespace {

using values::format_duration;
using values::format_frequency;

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
    std::string s;
    for (const auto& x : v) {
        if (!s.empty()) s += sep;
        s += x;
    }
    return s;
}

// Display form of an integer: decimal below 0x10000, hex from there (addresses).
std::string format_int(uint64_t v) { return v < 0x10000 ? std::to_string(v) : fmt::format("{:#x}", v); }

std::string expected_frequency(uint64_t min, uint64_t max) {
    if (min <= 1 && max == UINT64_MAX) return "a frequency like 2GHz";
    if (max == UINT64_MAX) return "a frequency of at least " + format_frequency(min) + " like 2GHz";
    return "a frequency in " + format_frequency(min) + ".." + format_frequency(max) + " like 2GHz";
}

std::string expected_duration(uint64_t min, uint64_t max) {
    if (min == 0 && max == UINT64_MAX) return "a duration like 10ns";
    if (max == UINT64_MAX) return "a duration of at least " + format_duration(min) + " like 10ns";
    return "a duration in " + format_duration(min) + ".." + format_duration(max) + " like 10ns";
}

} // namespace

// "an integer in 1..31", "an integer >= 1", "an integer (decimal or 0x hex)"
std::string expected_integer(uint64_t min, uint64_t max) {
    if (min == 0 && max == UINT64_MAX) return "an integer (decimal or 0x hex)";
    if (max == UINT64_MAX) return "an integer >= " + std::to_string(min);
    return "an integer in " + std::to_string(min) + ".." + std::to_string(max);
}

std::string expected_choice(const std::vector<std::string>& choices) { return "one of " + join(choices); }

bool is_identifier(const std::string& s) {
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

std::optional<std::string> canonical_param_value(const param_spec& spec, const std::string& text,
                                                 std::string& expected) {
    switch (spec.type) {
    case param_type::integer: {
        auto v = values::scan_integer(text);
        expected = expected_integer(spec.min, spec.max);
        if (!v || *v < spec.min || *v > spec.max) return std::nullopt;
        return std::to_string(*v);
    }
    case param_type::boolean: {
        auto v = values::scan_bool(text);
        expected = "true or false";
        if (!v) return std::nullopt;
        return std::string(*v ? "true" : "false");
    }
    case param_type::string:
        return text;
    case param_type::frequency: {
        auto v = values::scan_frequency(text);
        expected = expected_frequency(std::max<uint64_t>(spec.min, 1), spec.max);
        if (!v || *v == 0 || *v < spec.min || *v > spec.max) return std::nullopt;
        return std::to_string(*v);
    }
    case param_type::duration: {
        auto v = values::scan_duration(text);
        expected = expected_duration(spec.min, spec.max);
        if (!v || *v < spec.min || *v > spec.max) return std::nullopt;
        return std::to_string(*v);
    }
    case param_type::choice:
        expected = expected_choice(spec.choices);
        if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
            return std::nullopt;
        return text;
    }
    return std::nullopt;
}

std::string display_param_value(const param_spec& spec, const std::string& canonical) {
    switch (spec.type) {
    case param_type::integer: return format_int(*values::scan_integer(canonical));
    case param_type::frequency: return format_frequency(*values::scan_integer(canonical));
    case param_type::duration: return format_duration(*values::scan_integer(canonical));
    case param_type::string: return canonical.empty() ? "\"\"" : canonical;
    default: return canonical;
    }
}

const char* param_type_name(param_type t) {
    switch (t) {
    case param_type::integer: return "integer";
    case param_type::boolean: return "boolean";
    case param_type::string: return "string";
    case param_type::frequency: return "frequency";
    case param_type::duration: return "duration";
    case param_type::choice: return "choice";
    }
    return "?";
}

std::string describe_param_type(const param_spec& p) {
    switch (p.type) {
    case param_type::integer:
        if (p.min == 0 && p.max == UINT64_MAX) return "integer";
        if (p.max == UINT64_MAX) return "integer >= " + std::to_string(p.min);
        return "integer " + std::to_string(p.min) + ".." + std::to_string(p.max);
    case param_type::frequency:
        if (p.min <= 1 && p.max == UINT64_MAX) return "frequency";
        if (p.max == UINT64_MAX) return "frequency >= " + format_frequency(p.min);
        return "frequency " + format_frequency(std::max<uint64_t>(p.min, 1)) + ".." + format_frequency(p.max);
    case param_type::duration:
        if (p.min == 0 && p.max == UINT64_MAX) return "duration";
        if (p.max == UINT64_MAX) return "duration >= " + format_duration(p.min);
        return "duration " + format_duration(p.min) + ".." + format_duration(p.max);
    case param_type::choice: return "choice " + join(p.choices, "|");
    default: return param_type_name(p.type);
    }
}

void check_param_schema(std::vector<param_spec>& params, const std::string& owner) {
    auto bad = [&](const std::string& what) { return model_error(owner + ": " + what); };
    std::set<std::string> seen;
    for (auto& p : params) {
        if (!is_identifier(p.name)) throw bad("parameter name '" + p.name + "' is not an identifier");
        if (!seen.insert(p.name).second) throw bad("parameter '" + p.name + "' is declared twice");
        if (p.min > p.max) throw bad("parameter '" + p.name + "' has min > max");
        if (p.type == param_type::choice) {
            if (p.choices.empty()) throw bad("choice parameter '" + p.name + "' has no choices");
            std::set<std::string> cs(p.choices.begin(), p.choices.end());
            if (cs.size() != p.choices.size()) throw bad("parameter '" + p.name + "' repeats a choice");
        } else if (!p.choices.empty()) {
            throw bad("parameter '" + p.name + "' has choices but is not of type choice");
        }
        std::string expected;
        auto canon = canonical_param_value(p, p.default_value, expected);
        if (!canon)
            throw bad("default '" + p.default_value + "' of parameter '" + p.name + "' is not " + expected);
        p.default_value = *canon;
    }
}

const param_spec* find_param_spec(const std::vector<param_spec>& params, const std::string& name) {
    for (const auto& p : params)
        if (p.name == name) return &p;
    return nullptr;
}

// ---------------------------------------------------------------------------
// Typed values
// ---------------------------------------------------------------------------

param_values::param_values(const std::vector<param_spec>& schema, const std::map<std::string, std::string>& canonical) {
    for (const auto& spec : schema) {
        auto it = canonical.find(spec.name);
        const std::string& text = it == canonical.end() ? spec.default_value : it->second;
        value v;
        v.type = spec.type;
        switch (spec.type) {
        case param_type::integer:
        case param_type::frequency:
        case param_type::duration: {
            auto n = values::scan_integer(text);
            if (!n) throw model_error("parameter '" + spec.name + "' is not canonical: " + text);
            v.number = *n;
            break;
        }
        case param_type::boolean: v.number = text == "true"; break;
        case param_type::choice:
            v.number = uint64_t(std::find(spec.choices.begin(), spec.choices.end(), text) - spec.choices.begin());
            v.text = text;
            break;
        case param_type::string: v.text = text; break;
        }
        values_[spec.name] = std::move(v);
    }
}

const param_values::value& param_values::get(const std::string& name, param_type type) const {
    auto it = values_.find(name);
    if (it == values_.end()) throw model_error("no parameter '" + name + "' is declared");
    if (it->second.type != type)
        throw model_error(fmt::format("parameter '{}' is a {}, read as a {}", name, param_type_name(it->second.type),
                                      param_type_name(type)));
    return it->second;
}

uint64_t param_values::integer(const std::string& name) const { return get(name, param_type::integer).number; }
bool param_values::boolean(const std::string& name) const { return get(name, param_type::boolean).number != 0; }
const std::string& param_values::text(const std::string& name) const { return get(name, param_type::string).text; }
const std::string& param_values::choice(const std::string& name) const { return get(name, param_type::choice).text; }
size_t param_values::choice_index(const std::string& name) const {
    return size_t(get(name, param_type::choice).number);
}
uint64_t param_values::frequency_hz(const std::string& name) const { return get(name, param_type::frequency).number; }
uint64_t param_values::duration_fs(const std::string& name) const { return get(name, param_type::duration).number; }

} // namespace pmusim
