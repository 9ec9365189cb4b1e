// A platform written in code (vp/platform_builder.h).
#include "vp/platform_builder.h"

#include <algorithm>
#include <fmt/format.h>

#include "models/unit_descriptor.h"
#include "vp/did_you_mean.h"
#include "vp/unit_list.h"

namespace pmusim {

platform_builder::platform_builder(std::string name, std::string source, arch_kind arch) {
    p_.name = std::move(name);
    p_.file = std::move(source);
    p_.arch = arch;
    p_.firmware.profile = arch == arch_kind::arm ? firmware_profile::tf_a : firmware_profile::opal;
}

platform_builder& platform_builder::clock(const std::string& name, uint64_t hz) {
    p_.clocks.push_back({name, hz, 0});
    return *this;
}

platform_builder& platform_builder::arm_cpu(const std::string& clock, unsigned cluster,
                                            const std::map<std::string, std::string>& features) {
    cpu_config c;
    c.index = unsigned(p_.cpus.size());
    c.name = "cpu" + std::to_string(c.index);
    c.clock = clock;
    c.cluster = cluster;
    p_.cpus.push_back(c);
    features_.push_back(features);
    return *this;
}

platform_builder& platform_builder::power_thread(const std::string& clock, unsigned chip, unsigned core,
                                                 unsigned threads) {
    cpu_config c;
    c.index = unsigned(p_.cpus.size());
    c.name = "cpu" + std::to_string(c.index);
    c.clock = clock;
    c.chip = chip;
    c.core = core;
    c.threads = threads;
    for (const auto& other : p_.cpus) // its position among the threads of its core, as the loader derives it
        if (other.chip == chip && other.core == core) ++c.thread;
    p_.cpus.push_back(c);
    features_.push_back({});
    return *this;
}

platform_builder& platform_builder::firmware(firmware_profile profile) {
    p_.firmware.profile = profile;
    return *this;
}

platform_builder& platform_builder::memory(const std::string& name, uint64_t base, uint64_t size, endianness order) {
    p_.memory.push_back({name, base, size, order, 0});
    return *this;
}

platform_builder& platform_builder::add_unit(const unit_spec& u) {
    units_.push_back(u);
    return *this;
}

platform_builder& platform_builder::irq_line(const std::string& name) {
    p_.irq_lines.push_back({name, "", 0});
    return *this;
}

namespace {

std::string names(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& n : v) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// The canonical text of `written` for `spec`, or an input_error at `key`.
std::string canonical(const param_spec& spec, const std::string& written, const std::string& source,
                      const std::string& key) {
    std::string expected;
    if (auto v = canonical_param_value(spec, written, expected)) return *v;
    throw input_error(source, 0, fmt::format("{}: expected {}, found '{}'", key, expected, written));
}

} // namespace

platform_config platform_builder::build() const {
    register_all_units(); // the schemas the values are checked against
    platform_config p = p_;
    const std::string& src = p.file;
    auto fail = [&](const std::string& message) { return input_error(src, 0, message); };
    std::vector<std::string> clock_names;
    for (const auto& c : p.clocks) clock_names.push_back(c.name);
    auto check_clock = [&](const std::string& key, const std::string& name) {
        if (!p.find_clock(name))
            throw fail(fmt::format("{}: no clock named '{}'{}; clocks: {}", key, name, did_you_mean(name, clock_names),
                                   names(clock_names)));
    };

    const std::vector<cpu_feature_spec> features = registered_cpu_features();
    for (size_t i = 0; i < p.cpus.size(); ++i) {
        cpu_config& c = p.cpus[i];
        const std::string path = fmt::format("cpus[{}]", i);
        check_clock(path + ".clock", c.clock);
        for (const auto& f : features) c.features[f.spec.name] = f.spec.default_value;
        std::vector<std::string> keys;
        for (const auto& f : features) keys.push_back(f.spec.name);
        for (const auto& written_feature : features_[i]) {
            // Named copies, not a structured binding: clang before 16 cannot capture a binding.
            const std::string& key = written_feature.first;
            const auto& written = written_feature.second;
            auto f = std::find_if(features.begin(), features.end(), [&](const cpu_feature_spec& s) { return s.spec.name == key; });
            if (f == features.end())
                throw fail(fmt::format("{}.features.{}: unknown feature{}; features: {}", path, key, did_you_mean(key, keys),
                                       names(keys)));
            c.features[key] = canonical(f->spec, written, src, path + ".features." + key);
        }
        for (const auto& f : features) { // a feature that needs another, as the loader checks it
            if (c.features[f.spec.name] == f.spec.default_value) continue;
            if (!f.power_expected.empty() && p.arch == arch_kind::power)
                throw fail(fmt::format("{}.features.{}: expected {}", path, f.spec.name, f.power_expected));
            for (const auto& needed : features)
                if (needed.spec.name == f.needs && c.features[f.needs] == needed.spec.default_value)
                    throw fail(fmt::format("{}.features.{}: {}", path, f.spec.name, f.needs_message));
        }
    }

    unsigned index = 0;
    for (const unit_spec& s : units_) {
        const std::string path = fmt::format("units[{}]", index);
        std::optional<unit_descriptor> type = find_unit_type(s.type);
        if (!type)
            throw fail(fmt::format("{}.type: unknown unit type '{}'; registered types: {}", path, s.type,
                                   names(registered_unit_types())));
        unit_config u;
        u.file = src;
        u.index = index++;
        u.name = s.name;
        u.type = s.type;
        u.has_mmio = s.base.has_value();
        u.base = s.base.value_or(0);
        u.size = s.size;
        if (!s.clock.empty()) check_clock(path + ".clock", s.clock);
        u.clock = s.clock;
        for (const auto& cpu : s.cpus)
            if (!p.find_cpu(cpu)) throw fail(fmt::format("{}.cpus: no CPU named '{}'", path, cpu));
        u.cpus = s.cpus;
        u.irq = s.irq;
        std::vector<std::string> declared;
        for (const auto& spec : type->params) declared.push_back(spec.name);
        for (const auto& [key, written] : s.params) {
            const param_spec* spec = type->find_param(key);
            if (!spec)
                throw fail(fmt::format("{}.params.{}: unknown parameter of unit type {}{}; parameters: {}", path, key,
                                       s.type, did_you_mean(key, declared), names(declared)));
            u.params[key] = canonical(*spec, written, src, path + ".params." + key);
        }
        for (const auto& spec : type->params)
            if (!u.params.count(spec.name)) u.params[spec.name] = spec.default_value;
        if (!u.irq.empty()) p.irq_lines.push_back({u.irq, u.name, 0});
        p.units.push_back(std::move(u));
    }
    return p;
}

} // namespace pmusim
