#pragma once
// A small device-tree source (DTS) reader and writer for the IMC event catalog
// and the `imc-counters` node pmusim emits (docs/imc.md "Catalog").
//
// The subset read is what the IMA catalog uses: `/dts-v1/;`, one root `/ { }`,
// nodes with optional `label:` and `@unit-address`, properties that are empty,
// strings (`"a", "b"`), or cell lists `<0x10 &label>` (also `/bits/ 64 <...>`),
// and C/C++ comments. Anything else is an input_error naming file:line and what
// was expected. Writing gives text that `dtc -I dts` accepts.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pmusim::imc {

struct dt_property {
    enum class kind { empty, strings, cells };
    std::string name;
    kind type = kind::empty;
    std::vector<std::string> strings;
    std::vector<uint64_t> cells;
    std::vector<std::string> refs; // per cell: the label of a `&label` reference, else empty
    unsigned cell_bits = 32;       // 32, or 64 for `/bits/ 64 <...>`
    unsigned line = 0;

    static dt_property string(std::string name, std::string value);
    static dt_property u32(std::string name, std::vector<uint64_t> values);
    static dt_property u64(std::string name, std::vector<uint64_t> values);
    static dt_property reference(std::string name, std::string label);
};

struct dt_node {
    std::string name;  // with the unit address: "mcs01@c8"; "/" for the root
    std::string label; // empty when none
    std::vector<dt_property> props;
    std::vector<dt_node> children;
    unsigned line = 0;

    std::string base_name() const { return name.substr(0, name.find('@')); }
    const dt_property* find(std::string_view prop) const;
    void set(dt_property p); // replaces a property of the same name or appends
    // First string of a string property, or nullopt.
    std::optional<std::string> string_of(std::string_view prop) const;
    // First cell of a cell property, or nullopt.
    std::optional<uint64_t> cell_of(std::string_view prop) const;
    // A node below this one (depth first) carrying `label`, or nullptr.
    const dt_node* find_label(const std::string& wanted) const;
};

// Parses a whole DTS file; returns its root node "/".
dt_node parse_dts(std::string_view text, const std::string& file);
// The tree as DTS text (with the /dts-v1/ header when `header`), tabs for indentation.
std::string format_dts(const dt_node& root, bool header = true);

} // namespace pmusim::imc
