#include "tb/name_check.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <variant>

#include "models/input_error.h"
#include "models/register_bank.h"
#include "vp/platform.h"

namespace pmusim {

namespace {

template <class... Ts> struct overloaded : Ts... { using Ts::operator()...; };
template <class... Ts> overloaded(Ts...) -> overloaded<Ts...>;

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::vector<std::string> unit_names(const platform& p) {
    std::vector<std::string> out;
    for (const unit* u : p.units()) out.push_back(u->basename());
    return out;
}

std::vector<std::string> clock_names(const platform& p) {
    std::vector<std::string> out;
    for (const auto& [name, _] : const_cast<platform&>(p).system().clocks) out.push_back(name);
    for (size_t i = 0; i < const_cast<platform&>(p).system().cores.size(); ++i)
        if (std::find(out.begin(), out.end(), fmt::format("cpu{}", i)) == out.end()) out.push_back(fmt::format("cpu{}", i));
    return out;
}

std::vector<std::string> irq_names(const platform& p) {
    std::vector<std::string> out;
    for (const auto& [name, _] : const_cast<platform&>(p).system().irq_lines) out.push_back(name);
    for (const auto& u : p.config().units)
        if (!u.irq.empty()) out.push_back(u.name);
    return out;
}

// INSTANCE.REG names of every unit with memory-mapped registers, and the system registers of `cpu`.
std::vector<std::string> register_candidates(const platform& p, unsigned cpu, const std::string& name) {
    std::vector<std::string> out = p.register_names(cpu);
    const auto dot = name.find('.');
    for (const unit* u : p.units()) {
        if (dot != std::string::npos && u->basename() != name.substr(0, dot)) continue;
        for (const auto& r : u->table().registers)
            if (u->find_mmio_register(r.name)) out.push_back(std::string(u->basename()) + "." + r.name);
    }
    return out;
}

// How --platform names it: a built-in by its name, a user's file by its path.
std::string platform_hint(const platform& p) {
    const std::string& file = p.config().file;
    return file.empty() || file.rfind("platforms/", 0) == 0 ? p.config().name : file;
}

} // namespace

std::optional<std::string> unknown_name(const seq::statement& s, const platform& p, unsigned cpu, bool debugger) {
    const std::string plat = platform_hint(p);
    auto reg = [&](const std::string& name) -> std::optional<std::string> {
        if (p.resolve_register(name, cpu)) return std::nullopt;
        const std::string who = debugger ? "the debugger" : fmt::format("cpu{}", cpu);
        return fmt::format("unknown register '{}' for {}{}; the valid names: system registers of the CPU, "
                           "S<op0>_<op1>_C<n>_C<m>_<op2>, or INSTANCE.REG (list them: pmusim regs --platform {} "
                           "--format c-header; each unit's: pmusim regs --unit TYPE)",
                           name, who, did_you_mean(name, register_candidates(p, cpu, name)), plat);
    };
    auto unit = [&](const std::string& name) -> std::optional<std::string> {
        if (p.find_unit(name)) return std::nullopt;
        return fmt::format("unknown unit '{}' on platform {}{}; its units: {} (pmusim --list-params --platform {})",
                           name, p.config().name, did_you_mean(name, unit_names(p)), joined(unit_names(p)), plat);
    };
    auto clock = [&](const std::string& name) -> std::optional<std::string> {
        if (p.find_clock(name)) return std::nullopt;
        return fmt::format("unknown clock '{}' on platform {}{}; its clocks: {} (pmusim --list-params --platform {})",
                           name, p.config().name, did_you_mean(name, clock_names(p)), joined(clock_names(p)), plat);
    };
    auto line = [&](const std::string& name) -> std::optional<std::string> {
        if (p.find_irq(name)) return std::nullopt;
        return fmt::format("unknown interrupt line '{}' on platform {}{}; its lines (or a unit's name for its "
                           "line): {} (pmusim --list-params --platform {})",
                           name, p.config().name, did_you_mean(name, irq_names(p)), joined(irq_names(p)), plat);
    };
    return std::visit(
        overloaded{
            [&](const seq::reg_read& r) { return reg(r.reg); },
            [&](const seq::reg_write& r) -> std::optional<std::string> {
                if (auto problem = reg(r.reg); problem || r.event.empty()) return problem;
                // An event name: in the event list of the unit that owns the register.
                const auto resolved = p.resolve_register(r.reg, cpu);
                const pmusim::unit* owner = resolved->owner;
                if (owner && owner->table().find_event(r.event)) return std::nullopt;
                std::vector<std::string> names;
                if (owner)
                    for (const auto& e : owner->table().events) names.push_back(e.name);
                if (names.empty())
                    return fmt::format("'{}' is no number, and {} has no event names: expected an event number", r.event,
                                       resolved->display);
                return fmt::format("unknown event '{}' for {}{}; its events: {} (their numbers: pmusim regs --unit {})",
                                   r.event, resolved->display, did_you_mean(r.event, names), joined(names),
                                   owner->table().unit);
            },
            [&](const seq::print_reg& r) { return reg(r.reg); },
            [&](const seq::run_cycles& r) -> std::optional<std::string> {
                return r.clock ? clock(*r.clock) : std::nullopt;
            },
            [&](const seq::set_freq& f) { return clock(f.clock); },
            [&](const seq::inject_events& i) { return unit(i.unit); },
            [&](const seq::command_call& c) -> std::optional<std::string> {
                return c.unit.empty() ? std::nullopt : unit(c.unit);
            },
            [&](const seq::expect_irq& e) { return line(e.line); },
            [&](const seq::wait_irq& w) { return line(w.line); },
            [&](const seq::print_param& x) -> std::optional<std::string> {
                if (p.param(x.name)) return std::nullopt;
                return fmt::format("unknown parameter '{}' (list them: pmusim --list-params --platform {})", x.name, plat);
            },
            [&](const auto&) -> std::optional<std::string> { return std::nullopt; },
        },
        s.body);
}

void check_names(const std::vector<seq::statement>& statements, const platform& p) {
    unsigned cpu = 0;
    bool debugger = false;
    const size_t cpus = const_cast<platform&>(p).system().cores.size();
    for (const auto& s : statements) {
        if (auto* a = std::get_if<seq::as_cpu>(&s.body)) {
            if (a->cpu >= cpus) return; // refused when it runs, with the platform's CPUs; names after it depend on it
            cpu = a->cpu;
            debugger = false;
            continue;
        }
        if (std::holds_alternative<seq::as_debug>(s.body)) {
            cpu = 0; // the runner's debugger context names registers as cpu0 would
            debugger = true;
            continue;
        }
        if (auto problem = unknown_name(s, p, cpu, debugger))
            throw input_error(s.file, s.line, *problem, s.origin ? *s.origin : std::string());
    }
}

} // namespace pmusim
