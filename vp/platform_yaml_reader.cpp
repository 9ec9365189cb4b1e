// The YAML document reader under the platform loader (vp/platform_yaml_reader.h).
#include "vp/platform_yaml_reader.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/input_error.h"
#include "models/limits.h"
#include "models/values.h"
#include "vp/yaml_nodes.h"

namespace pmusim {

std::string join_names(const std::vector<std::string>& v, const char* sep) {
    std::string s;
    for (const auto& x : v) {
        if (!s.empty()) s += sep;
        s += x;
    }
    return s;
}

std::string key_path(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
}

std::string index_path(const std::string& parent, size_t i) { return parent + "[" + std::to_string(i) + "]"; }

std::string format_hex(uint64_t v) { return fmt::format("{:#x}", v); }

const map_entry* map_view::find(const std::string& key) const {
    for (const auto& e : entries)
        if (e.key == key) return &e;
    return nullptr;
}

unsigned map_view::line_for(const map_entry& e) const {
    unsigned l = e.value.IsNull() ? 0 : yaml_line(e.value);
    return l ? l : (e.key_line ? e.key_line : line);
}

void yaml_reader::fail(unsigned line, const std::string& msg) const { throw input_error(file_, line, msg); }

void yaml_reader::expected(const YAML::Node& n, unsigned fallback_line, const std::string& path,
                           const std::string& what) const {
    // A null value's mark points past it (often the next line): blame the key.
    unsigned l = (n.IsDefined() && !n.IsNull()) ? yaml_line(n) : 0;
    fail(l ? l : fallback_line, path + ": " + values::expected_found(what, {}, yaml_found(n)));
}

map_view yaml_reader::open_map(const YAML::Node& n, unsigned fallback_line, const std::string& path,
                               const std::string& what, const std::vector<std::string>& allowed,
                               const std::map<std::string, std::string>& hints, const std::string& unknown_noun,
                               const std::string& allowed_label) const {
    if (!n.IsMap()) expected(n, fallback_line, path.empty() ? "top level" : path, what);
    map_view v;
    v.path = path;
    v.line = yaml_line(n) ? yaml_line(n) : fallback_line;
    for (auto it = n.begin(); it != n.end(); ++it) {
        // A copy: yaml-cpp's iterator hands out a temporary pair, so a reference to its
        // `first` dangles at the end of this statement (found by ASan via fuzz_platform_yaml).
        const YAML::Node k = it->first;
        unsigned kl = yaml_line(k) ? yaml_line(k) : v.line;
        if (!k.IsScalar())
            fail(kl, (path.empty() ? "top level" : path) + ": expected a key name, found " + yaml_found(k));
        std::string key = k.Scalar();
        if (const map_entry* prev = v.find(key))
            fail(kl, key_path(path, key) + ": duplicate key (first at line " + std::to_string(prev->key_line) + ")");
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            std::string where =
                path.empty() ? "unknown top-level " + unknown_noun : path + ": unknown " + unknown_noun;
            std::string msg = where + " '" + key + "'; ";
            msg += allowed.empty() ? "there are none" : allowed_label + ": " + join_names(allowed);
            auto h = hints.find(key);
            if (h != hints.end()) msg += " (" + h->second + ")";
            fail(kl, msg);
        }
        v.entries.push_back({key, kl, it->second});
    }
    return v;
}

std::vector<YAML::Node> yaml_reader::open_list(const map_entry* e, const map_view& parent,
                                               const std::string& what) const {
    std::vector<YAML::Node> items;
    if (!e || e->value.IsNull()) return items;
    const std::string path = key_path(parent.path, e->key);
    if (!e->value.IsSequence()) expected(e->value, e->key_line, path, what);
    for (auto it = e->value.begin(); it != e->value.end(); ++it) items.push_back(*it);
    return items;
}

const map_entry& yaml_reader::required(const map_view& m, const std::string& key, const std::string& what) const {
    const map_entry* e = m.find(key);
    if (!e)
        fail(m.line, (m.path.empty() ? "top level" : m.path) + ": missing required key '" + key + "' (" + what + ")");
    return *e;
}

std::string yaml_reader::scalar(const map_view& m, const map_entry& e, const std::string& what) const {
    if (!e.value.IsScalar()) expected(e.value, e.key_line, key_path(m.path, e.key), what);
    return e.value.Scalar();
}

std::string yaml_reader::identifier(const map_view& m, const map_entry& e, const std::string& what) const {
    std::string s = scalar(m, e, what);
    if (!is_identifier(s)) expected(e.value, e.key_line, key_path(m.path, e.key), what);
    return s;
}

uint64_t yaml_reader::integer(const map_view& m, const map_entry& e, uint64_t min, uint64_t max) const {
    const std::string what = expected_integer(min, max);
    std::string s = scalar(m, e, what);
    auto v = values::scan_integer(s);
    if (!v || *v < min || *v > max) expected(e.value, e.key_line, key_path(m.path, e.key), what);
    return *v;
}

uint64_t yaml_reader::size(const map_view& m, const map_entry& e) const {
    const std::string what = "a size above 0 like 0x10000 or 16MiB";
    std::string s = scalar(m, e, what);
    auto v = values::scan_size(s);
    if (!v || *v == 0) expected(e.value, e.key_line, key_path(m.path, e.key), what);
    return *v;
}

uint64_t yaml_reader::frequency(const map_view& m, const map_entry& e) const {
    std::string s = scalar(m, e, "a frequency like 2GHz");
    auto v = values::scan_frequency(s);
    if (!v) expected(e.value, e.key_line, key_path(m.path, e.key), "a frequency like 2GHz");
    if (*v == 0) expected(e.value, e.key_line, key_path(m.path, e.key), "a frequency above 0Hz like 2GHz");
    if (*v > limits::max_clock_hz)
        expected(e.value, e.key_line, key_path(m.path, e.key), "a frequency of at most 1000GHz (docs/reliability.md)");
    return *v;
}

uint64_t yaml_reader::duration(const map_view& m, const map_entry& e) const {
    std::string s = scalar(m, e, "a duration like 10ns");
    auto v = values::scan_duration(s);
    if (!v) expected(e.value, e.key_line, key_path(m.path, e.key), "a duration like 10ns");
    return *v;
}

bool yaml_reader::boolean(const map_view& m, const map_entry& e) const {
    std::string s = scalar(m, e, "true or false");
    auto v = values::scan_bool(s);
    if (!v) expected(e.value, e.key_line, key_path(m.path, e.key), "true or false");
    return *v;
}

size_t yaml_reader::choice(const map_view& m, const map_entry& e, const std::vector<std::string>& choices) const {
    std::string s = scalar(m, e, expected_choice(choices));
    auto it = std::find(choices.begin(), choices.end(), s);
    if (it == choices.end()) expected(e.value, e.key_line, key_path(m.path, e.key), expected_choice(choices));
    return size_t(it - choices.begin());
}

std::string yaml_reader::param(const map_view& m, const map_entry& e, const param_spec& spec) const {
    const std::string path = key_path(m.path, e.key);
    std::string expected_what;
    if (!e.value.IsScalar()) {
        canonical_param_value(spec, "", expected_what); // sets the phrase for every non-string type
        expected(e.value, e.key_line, path, spec.type == param_type::string ? "a text" : expected_what);
    }
    auto canon = canonical_param_value(spec, e.value.Scalar(), expected_what);
    if (!canon) expected(e.value, e.key_line, path, expected_what);
    return *canon;
}

} // namespace pmusim
