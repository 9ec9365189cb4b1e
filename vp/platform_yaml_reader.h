#pragma once
// The YAML document reader under the platform loader: maps with checked keys, lists, scalars and
// the values of models/values.h, each refusal worded "FILE:LINE: PATH: expected WHAT, found ..."
// (docs/platform-config.md). It knows YAML and the value grammar, not what a platform contains;
// the sections are read by vp/platform_loader.h.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "models/param_schema.h"

namespace pmusim {

std::string join_names(const std::vector<std::string>& v, const char* sep = ", ");
std::string key_path(const std::string& parent, const std::string& key);  // "cpus[0]" + "clock"
std::string index_path(const std::string& parent, size_t i);              // "cpus" + 0 -> "cpus[0]"
std::string format_hex(uint64_t v);

struct map_entry {
    std::string key;
    unsigned key_line = 0;
    YAML::Node value;
};

struct map_view {
    std::string path; // "" for the top level
    unsigned line = 0;
    std::vector<map_entry> entries;

    const map_entry* find(const std::string& key) const;
    // Line of the value if present (else of the key, else of the map).
    unsigned line_for(const map_entry& e) const;
};

class yaml_reader {
public:
    explicit yaml_reader(std::string file) : file_(std::move(file)) {}
    const std::string& file() const { return file_; }

    [[noreturn]] void fail(unsigned line, const std::string& msg) const;
    // "PATH: expected WHAT, found ..." at the node's line (a null node: at `fallback_line`).
    [[noreturn]] void expected(const YAML::Node& n, unsigned fallback_line, const std::string& path,
                               const std::string& what) const;

    // Opens a map, rejecting non-map values, non-scalar and duplicate keys, and
    // keys not in `allowed`. `hints` adds a phrase to the message about an unknown key.
    map_view open_map(const YAML::Node& n, unsigned fallback_line, const std::string& path,
                      const std::string& what, const std::vector<std::string>& allowed,
                      const std::map<std::string, std::string>& hints = {},
                      const std::string& unknown_noun = "key",
                      const std::string& allowed_label = "allowed keys") const;
    // The items of a list value; none when `e` is absent or null.
    std::vector<YAML::Node> open_list(const map_entry* e, const map_view& parent, const std::string& what) const;
    const map_entry& required(const map_view& m, const std::string& key, const std::string& what) const;

    std::string scalar(const map_view& m, const map_entry& e, const std::string& what) const;
    std::string identifier(const map_view& m, const map_entry& e, const std::string& what) const;
    uint64_t integer(const map_view& m, const map_entry& e, uint64_t min, uint64_t max) const;
    uint64_t size(const map_view& m, const map_entry& e) const;
    uint64_t frequency(const map_view& m, const map_entry& e) const; // a clock's: above 0, at most the limit
    uint64_t duration(const map_view& m, const map_entry& e) const;
    bool boolean(const map_view& m, const map_entry& e) const;
    size_t choice(const map_view& m, const map_entry& e, const std::vector<std::string>& choices) const;
    // A parameter of a schema (a unit's params, a CPU feature): its canonical text.
    std::string param(const map_view& m, const map_entry& e, const param_spec& spec) const;

private:
    std::string file_;
};

} // namespace pmusim
