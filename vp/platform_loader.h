#pragma once
// The platform loader: reads the sections of a platform YAML document into a platform_config
// (vp/platform_config.h). Internal to vp/platform_*.cpp:
//   platform_loader.cpp        top level, clocks, CPUs (with the `features:` keys the registered
//                              unit descriptors declare), firmware, latency, irq lines, memory,
//                              overlapping windows
//   platform_units_section.cpp `units:` entries, validated against the registered descriptors
// It knows no unit: every unit-specific key comes from models/unit_descriptor.h.
#include <map>
#include <string>
#include <string_view>

#include "vp/platform_config.h"
#include "vp/platform_yaml_reader.h"

namespace pmusim {

class platform_loader : yaml_reader {
public:
    using yaml_reader::yaml_reader;
    platform_config load(std::string_view text);

private:
    platform_config p_;
    std::map<std::string, unsigned> unit_name_lines_;

    std::string names_of_clocks() const;
    std::string names_of_cpus() const;
    std::string clock_ref(const map_view& m, const map_entry& e) const;

    void parse_clocks(const map_view& top);
    void parse_cpus(const map_view& top);
    void parse_features(const map_view& cpu, const map_entry* e, cpu_config& c);
    void parse_firmware(const map_view& top);
    void parse_latency(const map_view& top);
    void parse_irq_lines(const map_view& top);
    void parse_units(const map_view& top);
    void parse_unit_cpus(const map_view& unit, const map_entry& e, const std::string& path, unit_config& u);
    void parse_unit_irq(const map_view& unit, const map_entry& e, const std::string& path, unit_config& u);
    void parse_params(const map_view& unit, const map_entry* e, const unit_descriptor& type, unit_config& u);
    void parse_memory(const map_view& top);
    void check_overlaps() const;
    // Records `name` (a clock, unit or memory region) as defined at m's line; a second definition is
    // refused at its `name` key, naming the first one's line.
    void claim_name(std::map<std::string, unsigned>& seen, const std::string& name, const map_view& m,
                    const map_entry& n, const std::string& path, const char* what) const;
    // A list longer than `limit` (models/limits.h) is refused at its key's line.
    void check_count(const map_entry* list, const std::string& path, size_t count, uint64_t limit,
                     const char* what) const;
};

} // namespace pmusim
