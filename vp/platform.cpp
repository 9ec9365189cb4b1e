#include "vp/platform.h"
#include "vp/platform_listing.h"

#include <fmt/format.h>
#include <optional>
#include <regex>

#include "vp/platform_view.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {
// The ID_AA64PFR0_EL1 fields the CPU's feature values fill (cpu_feature_spec::id_aa64pfr0_field),
// placed by the field's position in cpu_controls_table(): their values, and the mask of those
// hidden from guests.
void fill_id_aa64pfr0_fields(const cpu_config& c, cpu_description& d) {
    const register_def* pfr0 = cpu_controls_table().find("ID_AA64PFR0_EL1");
    std::vector<param_spec> schema;
    for (const auto& f : registered_cpu_features()) schema.push_back(f.spec);
    const param_values values(schema, c.features);
    for (const auto& f : registered_cpu_features()) {
        if (f.id_aa64pfr0_field.empty()) continue;
        const field_def* field = nullptr;
        for (const auto& x : pfr0->fields)
            if (x.name == f.id_aa64pfr0_field) field = &x;
        if (!field) throw model_error("ID_AA64PFR0_EL1 has no field " + f.id_aa64pfr0_field);
        const uint64_t v = f.spec.type == param_type::choice ? values.choice_index(f.spec.name)
                                                             : values.integer(f.spec.name);
        const uint64_t mask = ((1ULL << field->width) - 1) << field->lsb;
        d.id_aa64pfr0_feature_fields |= (v << field->lsb) & mask;
        if (f.hidden_from_guests) d.id_aa64pfr0_guest_hidden |= mask;
    }
}
} // namespace

platform::platform(platform_config config) : config_(std::move(config)) {
    init_time_resolution();
    register_all_units();
    system_.firmware_profile = to_string(config_.firmware.profile);
    for (const auto& c : config_.clocks)
        system_.clocks[c.name] = std::make_unique<clock_domain>(c.name, c.frequency_hz);
    // `const` is the constant clock the AMU's constant counter follows; a platform
    // without one (POWER) gets the timebase or the first clock in that role.
    const clock_domain* const_clock = nullptr;
    for (const char* n : {"const", "tb"})
        if (!const_clock && system_.clocks.count(n)) const_clock = system_.clocks[n].get();
    if (!const_clock && !system_.clocks.empty()) const_clock = system_.clocks.begin()->second.get();
    for (const auto& c : config_.cpus) {
        cpu_description d;
        d.index = c.index;
        d.cluster = c.cluster;
        d.clock = c.clock;
        d.power_arch = config_.arch == arch_kind::power;
        fill_id_aa64pfr0_fields(c, d);
        system_.cpus.push_back(d);
        system_.cores.push_back(std::make_unique<core_model>(c.index, system_.clock(c.clock), *const_clock));
    }
    for (const auto& l : config_.irq_lines) system_.irq(l.name);

    gate_ = std::make_unique<firmware_gate>("gate");
    bus_ = std::make_unique<system_bus>("bus");
    gate_->to_bus.bind(bus_->from_gate);

    for (const auto& m : config_.memory) {
        std::unique_ptr<memory> mem;
        try {
            mem = std::make_unique<memory>(m.name.c_str(), m.size, m.endianness == endianness::big);
        } catch (const memory_reservation_error& e) {
            throw input_error(config_.file, m.line, std::string(e.what()) + ": expected a smaller size");
        }
        unsigned port = bus_->attach(mem->in);
        bus_->map(m.name, m.base, m.size, port);
        memory_bases_.emplace_back(m.base, mem.get());
        memories_.push_back(std::move(mem));
    }

    controls_ = std::make_unique<cpu_controls>("cpu_controls", system_);
    system_.controls = controls_.get();
    attach_unit(*controls_);

    // Units that come with the CPUs' features (a type without a `units:` entry of its own), then
    // one unit per `units:` entry; each factory gets typed values and the platform's narrow view.
    const platform_view view = platform_view_of(config_);
    for (const auto& type : unit_descriptors())
        if (type.make_from_features && config_.units_of_type(type.type).empty())
            if (auto u = type.make_from_features(system_, view)) units_.push_back(std::move(u));
    for (const auto& uc : config_.units) {
        std::optional<unit_descriptor> type = find_unit_type(uc.type);
        if (!type || !type->make) {
            unmodelled_.push_back(uc.name + " (" + uc.type + ")");
            continue;
        }
        units_.push_back(type->make(system_, unit_entry_of(config_, uc), view));
    }
    for (auto& u : units_) attach_unit(*u);
}

platform::~platform() = default;

void platform::attach_unit(unit& u) {
    // Memory-mapped windows on the bus; system registers through the gate (firmware_gate.h).
    unsigned bus_port = bus_->attach(u.registers_in);
    if (auto* master = capability<bus_master>(u)) master->bus_master_socket().bind(gate_->from_initiators);
    for (const auto& w : u.mmio_windows()) {
        // A window is the platform file's choice (a base, a size, a parameter that places it): one
        // that wraps past 2^64 or overlaps another is bad input at the unit's line.
        const unit_config* uc = config_.find_unit(u.basename());
        auto bad = [&](const std::string& what) {
            return input_error(config_.file, uc ? uc->line : 0, fmt::format("unit {}: {}", u.basename(), what));
        };
        if (w.size && w.base + (w.size - 1) < w.base)
            throw bad(fmt::format("window {} at {:#x} of {:#x} bytes would end past 2^64: expected a lower base",
                                  w.name, w.base, w.size));
        if (const system_bus::window* other = bus_->overlapping(w.base, w.size))
            throw bad(fmt::format("window {} [{:#x}, {:#x}) overlaps {} [{:#x}, {:#x}): expected windows apart",
                                  w.name, w.base, w.base + w.size, other->name, other->base, other->base + other->size));
        bus_->map(w.name, w.base, w.size, bus_port, true);
    }
    if (sysreg_names_.size() < system_.cpus.size()) sysreg_names_.resize(system_.cpus.size());
    for (unsigned cpu = 0; cpu < system_.cpus.size(); ++cpu)
        for (const register_def* r : u.sysregs(cpu)) {
            gate_->own_sysreg(cpu, *r, u);
            sysreg_names_[cpu][r->name] = {&u, r};
        }
    unit_ptrs_.push_back(&u);
}

unit* platform::find_unit(const std::string& name) const {
    for (unit* u : unit_ptrs_)
        if (u->basename() == name) return u;
    return nullptr;
}

std::optional<resolved_register> platform::resolve_register(const std::string& name, unsigned cpu) const {
    resolved_register r;
    auto dot = name.find('.');
    if (dot != std::string::npos) {
        unit* u = find_unit(name.substr(0, dot));
        if (!u) return std::nullopt;
        auto m = u->find_mmio_register(name.substr(dot + 1));
        if (!m) return std::nullopt;
        r.def = m->def;
        r.owner = u;
        r.address = m->address;
        r.width = m->def->width;
        r.display = name;
        return r;
    }
    if (cpu >= sysreg_names_.size()) return std::nullopt;
    r.system_register = true;
    r.width = 64;
    static const std::regex generic(R"(S([0-3])_([0-7])_C([0-9]|1[0-5])_C([0-9]|1[0-5])_([0-7]))");
    std::smatch m;
    if (std::regex_match(name, m, generic)) {
        sysreg_encoding e{uint8_t(std::stoi(m[1])), uint8_t(std::stoi(m[2])), uint8_t(std::stoi(m[3])),
                          uint8_t(std::stoi(m[4])), uint8_t(std::stoi(m[5]))};
        r.key = e.key();
        r.display = name;
        if (const auto* o = gate_->sysreg_owner(cpu, r.key)) {
            r.def = o->reg;
            r.owner = o->owner_unit;
            r.display = o->reg->name;
        }
        return r;
    }
    auto it = sysreg_names_[cpu].find(name);
    if (it == sysreg_names_[cpu].end()) return std::nullopt;
    r.owner = it->second.first;
    r.def = it->second.second;
    r.key = r.def->sysreg->key();
    r.display = name;
    return r;
}

std::vector<std::string> platform::register_names(unsigned cpu) const {
    std::vector<std::string> out;
    if (cpu < sysreg_names_.size())
        for (const auto& [n, _] : sysreg_names_[cpu]) out.push_back(n);
    return out;
}

clock_domain* platform::find_clock(const std::string& name) const {
    auto it = system_.clocks.find(name);
    if (it != system_.clocks.end()) return it->second.get();
    if (name.rfind("cpu", 0) == 0 && name.size() > 3 && name.find_first_not_of("0123456789", 3) == std::string::npos) {
        unsigned i = unsigned(std::stoul(name.substr(3)));
        if (i < system_.cores.size()) return &system_.clock(system_.cpus[i].clock);
    }
    return nullptr;
}

interrupt_line* platform::find_irq(const std::string& name) const {
    auto it = system_.irq_lines.find(name);
    if (it != system_.irq_lines.end()) return it->second.get();
    // A unit's instance name stands for its interrupt output.
    if (const unit_config* u = config_.find_unit(name); u && !u->irq.empty()) {
        auto l = system_.irq_lines.find(u->irq);
        if (l != system_.irq_lines.end()) return l->second.get();
    }
    return nullptr;
}

memory* platform::memory_at(uint64_t address) const {
    for (const auto& [base, m] : memory_bases_)
        if (address >= base && address - base < m->size()) return m;
    return nullptr;
}

std::optional<std::string> platform::param(const std::string& name) const {
    // "cmn0.periphbase" is short for "units.cmn0.params.periphbase".
    std::string wanted = name;
    auto dot = name.find('.');
    if (dot != std::string::npos && config_.find_unit(name.substr(0, dot)))
        wanted = "units." + name.substr(0, dot) + ".params." + name.substr(dot + 1);
    for (const auto& p : collect_params(config_)) {
        if (p.path != wanted && p.path != name) continue;
        // A value the unit derived (the platform left the parameter out) wins over the default.
        const std::string prefix = "units.", middle = ".params.";
        const auto m = p.path.find(middle);
        if (p.path.rfind(prefix, 0) == 0 && m != std::string::npos) {
            const std::string unit_name = p.path.substr(prefix.size(), m - prefix.size());
            const std::string param_name = p.path.substr(m + middle.size());
            const unit_config* uc = config_.find_unit(unit_name);
            const unit* u = find_unit(unit_name);
            std::optional<unit_descriptor> info = uc ? find_unit_type(uc->type) : std::nullopt;
            const param_spec* spec = info ? info->find_param(param_name) : nullptr;
            const derived_params* derived = u ? capability<derived_params>(*u) : nullptr;
            if (derived && spec)
                if (auto v = derived->param_in_use(param_name)) return display_param_value(*spec, *v);
        }
        return p.value;
    }
    return std::nullopt;
}

firmware_code platform::firmware_boot() const {
    firmware_code out;
    for (unit* u : unit_ptrs_)
        if (auto* code = capability<firmware_profile_code>(*u))
            for (auto& step : code->firmware_boot(system_.firmware_profile)) out.push_back(std::move(step));
    return out;
}

firmware_code platform::firmware_power_down(unsigned cpu) const {
    firmware_code out;
    for (unit* u : unit_ptrs_)
        if (auto* code = capability<firmware_profile_code>(*u))
            for (auto& step : code->firmware_power_down(system_.firmware_profile, cpu)) out.push_back(std::move(step));
    return out;
}

firmware_code platform::firmware_power_up(unsigned cpu) const {
    firmware_code out;
    for (unit* u : unit_ptrs_)
        if (auto* code = capability<firmware_profile_code>(*u))
            for (auto& step : code->firmware_power_up(system_.firmware_profile, cpu)) out.push_back(std::move(step));
    return out;
}

void platform::reset(bool cold) {
    fs_t now = now_fs();
    if (cold)
        for (auto& [n, c] : system_.clocks) c->reset(now);
    for (auto& c : system_.cores) c->reset(now);
    // Memory first: units that own memory contents (IMC control blocks) rewrite them in their reset.
    if (cold)
        for (auto& m : memories_) m->clear();
    for (unit* u : unit_ptrs_) u->reset(cold);
}

} // namespace pmusim
