// pmusim::model (include/pmusim/model.h): the public layer over a platform (vp/platform). It adds
// nothing to the models: it builds the platform, puts the default initiator on plain payloads,
// refuses what a register frame cannot serve, and turns interrupt lines into sc_out<bool> ports and
// frequency signals into clock changes.
#include "pmusim/model.h"

#include <cstring>
#include <fmt/format.h>
#include <optional>

#include "models/input_error.h"
#include "models/sim_time.h"
#include "models/unit_command.h"
#include "vp/firmware_code_runner.h"
#include "vp/platform.h"
#include "vp/platform_config.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {
const char* const api_msg = "/pmusim/api";
const char* const binding_msg = "/pmusim/binding";
const char* const platform_msg = "/pmusim/platform";
} // namespace

struct model::impl : tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<> {
    model& self;
    std::string description;
    access_context default_ctx;
    std::unique_ptr<platform> plat;
    tlm::tlm_initiator_socket<> to_gate;
    struct irq_output {
        interrupt_line* line;
        std::unique_ptr<sc_core::sc_out<bool>> port;
        bool required;
        std::unique_ptr<sc_core::sc_signal<bool>> unbound_sink; // for a port nobody bound
    };
    std::map<std::string, irq_output> irqs;
    struct irq_input {
        interrupt_line* line;
        std::unique_ptr<interrupt_in_port> port;
    };
    std::map<std::string, irq_input> irq_inputs;
    std::map<std::string, std::unique_ptr<frequency_port>> frequency_ports;

    impl(model& m, const model_spec& spec) : self(m), description(spec.description), default_ctx(spec.default_initiator),
                                             to_gate("to_gate") {
        register_all_units();
        platform_config cfg = spec.platform ? spec.platform() : load_platform(spec.platform_name);
        plat = std::make_unique<platform>(std::move(cfg));
        to_gate.bind(*this); // the backward path first: the gate's socket binds to it
        to_gate.bind(plat->gate().from_initiators);
        for (auto& [name, line] : plat->system().irq_lines) {
            if (auto in = spec.irq_input_port_names.find(name); in != spec.irq_input_port_names.end()) {
                irq_inputs[name] = {line.get(), std::make_unique<interrupt_in_port>(in->second.c_str())};
                continue;
            }
            auto port_name = spec.irq_port_names.count(name) ? spec.irq_port_names.at(name) : "irq_" + name;
            bool required = std::find(spec.required_irqs.begin(), spec.required_irqs.end(), name) != spec.required_irqs.end();
            irqs[name] = {line.get(), std::make_unique<sc_core::sc_out<bool>>(port_name.c_str()), required, nullptr};
        }
        for (auto& [name, clock] : plat->system().clocks) {
            auto port_name =
                spec.frequency_port_names.count(name) ? spec.frequency_port_names.at(name) : "frequency_" + name;
            frequency_ports[name] = std::make_unique<frequency_port>(port_name.c_str());
        }
    }

    // A payload the register path serves, or the TLM-2.0 status the standard names for it.
    static bool acceptable(tlm::tlm_generic_payload& trans) {
        if (trans.get_byte_enable_ptr()) {
            trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
            return false;
        }
        if (trans.get_streaming_width() < trans.get_data_length()) {
            trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
            return false;
        }
        return true;
    }

    // Runs `f` with the default initiator on the payload when it carries no access context.
    template <class F> auto with_context(tlm::tlm_generic_payload& trans, F f) {
        if (trans.get_extension<access_context>()) return f();
        access_context ctx = default_ctx;
        ctx.outcome = access_outcome::ok;
        trans.set_extension(&ctx);
        struct clear_on_exit {
            tlm::tlm_generic_payload& t;
            access_context* c;
            ~clear_on_exit() { t.clear_extension(c); }
        } clear{trans, &ctx};
        return f();
    }

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override {
        if (!acceptable(trans)) return;
        with_context(trans, [&] { to_gate->b_transport(trans, delay); });
    }
    // Loosely timed, as the models: a request completes at once (models/loosely_timed_target.h).
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override {
        if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
        b_transport(trans, delay);
        phase = tlm::BEGIN_RESP;
        return tlm::TLM_COMPLETED;
    }
    unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override {
        if (!acceptable(trans)) return 0;
        return with_context(trans, [&] { return to_gate->transport_dbg(trans); });
    }
    // Register frames refuse DMI (the units answer false); a platform's memories grant it.
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override {
        return with_context(trans, [&] { return to_gate->get_direct_mem_ptr(trans, dmi); });
    }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
        return tlm::TLM_COMPLETED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override {
        for (int i = 0; i < self.target.size(); ++i) self.target[i]->invalidate_direct_mem_ptr(start, end);
    }

    clock_domain& clock(const std::string& name) const {
        clock_domain* c = plat->find_clock(name);
        if (!c) SC_REPORT_ERROR(api_msg, fmt::format("{}: no clock '{}' (clocks: {})", self.name(), name, clock_names()).c_str());
        return *c;
    }
    std::string clock_names() const {
        std::string out;
        for (auto& [n, c] : plat->system().clocks) out += (out.empty() ? "" : ", ") + n;
        return out;
    }
    unit& find_unit(const std::string& name) const {
        unit* u = plat->find_unit(name);
        if (!u) SC_REPORT_ERROR(api_msg, fmt::format("{}: no unit '{}'", self.name(), name).c_str());
        return *u;
    }

    uint64_t sysreg_access(bool is_write, unsigned cpu, sysreg_encoding enc, uint64_t value, access_context& ctx) {
        uint8_t data[8];
        std::memcpy(data, &value, 8);
        tlm::tlm_generic_payload trans;
        trans.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        trans.set_address(enc.key());
        trans.set_data_ptr(data);
        trans.set_data_length(8);
        trans.set_streaming_width(8);
        trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        ctx.initiator = initiator_kind::cpu;
        ctx.cpu = cpu;
        ctx.path = access_path::system_register;
        ctx.outcome = access_outcome::ok;
        ctx.syndrome = 0;
        ctx.detail.clear();
        trans.set_extension(&ctx);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        to_gate->b_transport(trans, delay);
        trans.clear_extension(&ctx);
        if (trans.get_response_status() != tlm::TLM_OK_RESPONSE) {
            if (ctx.outcome == access_outcome::ok) ctx.outcome = access_outcome::error;
            return 0;
        }
        std::memcpy(&value, data, 8);
        return is_write ? 0 : value;
    }
};

model::model(const sc_core::sc_module_name& name, const model_spec& spec) : sc_module(name), target("target") {
    try {
        impl_ = std::make_unique<impl>(*this, spec);
    } catch (const input_error& e) {
        SC_REPORT_ERROR(platform_msg, fmt::format("{} ({}): {}", this->name(), spec.description, e.what()).c_str());
    } catch (const std::exception& e) {
        SC_REPORT_ERROR(platform_msg, fmt::format("{} ({}): {}", this->name(), spec.description, e.what()).c_str());
    }
    target.bind(*impl_);
}

model::~model() = default;

void model::before_end_of_elaboration() {
    for (auto& [line_name, out] : impl_->irqs) {
        if (out.port->bind_count() > 0) continue;
        if (out.required)
            SC_REPORT_ERROR(binding_msg,
                            fmt::format("{}: port '{}' (sc_out<bool>, interrupt line {}) is not bound: expected an "
                                        "sc_signal<bool> bound to it, or the option irq_must_be_bound = false",
                                        name(), out.port->name(), line_name)
                                .c_str());
        out.unbound_sink = std::make_unique<sc_core::sc_signal<bool>>(
            sc_core::sc_gen_unique_name((std::string(out.port->basename()) + "_unbound").c_str()));
        out.port->bind(*out.unbound_sink);
    }
}

void model::start_of_simulation() {
    // The firmware boot runs before any process of the user's sc_main (vp/firmware_code_runner.h).
    if (impl_->plat->config().latency.register_access_fs != 0)
        SC_REPORT_ERROR(platform_msg, fmt::format("{}: an embedded platform needs `latency: register_access: 0ns` "
                                                  "(its initiators time their own accesses)", name()).c_str());
    platform& p = *impl_->plat;
    perform_firmware_code(p, *impl_->to_gate.operator->(), p.firmware_boot(), "firmware:" + p.system().firmware_profile);
    // Interrupt outputs follow their lines: a method per line, woken at the edge's instant.
    for (auto& [line_name, out] : impl_->irqs) {
        interrupt_line* line = out.line;
        sc_core::sc_out<bool>* port = out.port.get();
        port->write(line->level());
        sc_core::sc_spawn_options o;
        o.spawn_method();
        o.dont_initialize();
        o.set_sensitivity(&line->changed_event());
        sc_core::sc_spawn([line, port] { port->write(line->level()); },
                          sc_core::sc_gen_unique_name(("follow_" + line_name).c_str()), &o);
    }
    // Bound interrupt inputs drive their lines from time 0 (the line follows the signal at once).
    for (auto& [line_name, in] : impl_->irq_inputs) {
        if (in.port->bind_count() == 0) continue;
        interrupt_line* line = in.line;
        interrupt_in_port* port = in.port.get();
        line->set((*port)->read());
        sc_core::sc_spawn_options o;
        o.spawn_method();
        o.dont_initialize();
        o.set_sensitivity(&(*port)->value_changed_event());
        sc_core::sc_spawn([line, port] { line->set((*port)->read()); },
                          sc_core::sc_gen_unique_name(("input_" + line_name).c_str()), &o);
    }
    // Bound frequency inputs drive their clock from time 0.
    for (auto& [clock_name, port] : impl_->frequency_ports) {
        if (port->bind_count() == 0) continue;
        clock_domain* c = &impl_->clock(clock_name);
        frequency_port* p = port.get();
        c->set_frequency((*p)->read(), now_fs());
        sc_core::sc_spawn_options o;
        o.spawn_method();
        o.dont_initialize();
        o.set_sensitivity(&(*p)->value_changed_event());
        sc_core::sc_spawn([c, p] { c->set_frequency((*p)->read(), now_fs()); },
                          sc_core::sc_gen_unique_name(("frequency_" + clock_name).c_str()), &o);
    }
}

void model::set_default_initiator(const access_context& context) { impl_->default_ctx = context; }
const access_context& model::default_initiator() const { return impl_->default_ctx; }

sc_core::sc_out<bool>& model::irq_port(const std::string& line) {
    auto it = impl_->irqs.find(line);
    if (it == impl_->irqs.end()) {
        std::string lines;
        for (auto& [n, o] : impl_->irqs) lines += (lines.empty() ? "" : ", ") + n;
        SC_REPORT_ERROR(api_msg, fmt::format("{}: no interrupt line '{}' (lines: {})", name(), line, lines).c_str());
    }
    return *it->second.port;
}

std::vector<std::string> model::irq_lines() const {
    std::vector<std::string> out;
    for (auto& [n, o] : impl_->irqs) out.push_back(n);
    return out;
}

bool model::irq_level(const std::string& line) const {
    auto it = impl_->irqs.find(line);
    return it != impl_->irqs.end() && it->second.line->level();
}

interrupt_in_port& model::irq_input(const std::string& line) {
    auto it = impl_->irq_inputs.find(line);
    if (it == impl_->irq_inputs.end()) {
        std::string lines;
        for (auto& [n, o] : impl_->irq_inputs) lines += (lines.empty() ? "" : ", ") + n;
        SC_REPORT_ERROR(api_msg, fmt::format("{}: no interrupt input '{}' (inputs: {})", name(), line,
                                             lines.empty() ? "none" : lines).c_str());
    }
    return *it->second.port;
}

std::vector<std::string> model::irq_input_lines() const {
    std::vector<std::string> out;
    for (auto& [n, o] : impl_->irq_inputs) out.push_back(n);
    return out;
}

void model::set_frequency(const std::string& clock, uint64_t hz) { impl_->clock(clock).set_frequency(hz, now_fs()); }
uint64_t model::frequency(const std::string& clock) const { return impl_->clock(clock).frequency_hz(); }
uint64_t model::clock_edges(const std::string& clock) const { return impl_->clock(clock).edges_at(now_fs()); }

frequency_port& model::frequency_in(const std::string& clock) {
    auto it = impl_->frequency_ports.find(clock);
    if (it == impl_->frequency_ports.end())
        SC_REPORT_ERROR(api_msg, fmt::format("{}: no clock '{}' (clocks: {})", name(), clock, impl_->clock_names()).c_str());
    return *it->second;
}

std::vector<std::string> model::clocks() const {
    std::vector<std::string> out;
    for (auto& [n, c] : impl_->plat->system().clocks) out.push_back(n);
    return out;
}

void model::set_workload(unsigned cpu, const std::string& key, uint64_t num, uint64_t den) {
    soc& s = impl_->plat->system();
    if (cpu >= s.cores.size())
        SC_REPORT_ERROR(api_msg, fmt::format("{}: no cpu{} (it has {} CPUs)", name(), cpu, s.cores.size()).c_str());
    core_model& core = s.core(cpu);
    if (!core.has_event(key) || core_model::is_fixed_key(key) || den == 0) {
        std::string keys;
        for (const auto& k : core.event_keys())
            if (!core_model::is_fixed_key(k)) keys += (keys.empty() ? "" : ", ") + k;
        SC_REPORT_ERROR(api_msg, fmt::format("{}: workload {}={}/{} on cpu{}: expected a key of {} and a non-zero "
                                             "denominator", name(), key, num, den, cpu, keys).c_str());
    }
    core.set_workload({{key, rational(num, den)}}, now_fs());
}

void model::inject(const std::string& unit_name, const std::string& event, uint64_t count, const sc_core::sc_time& over) {
    const auto dot = unit_name.find('.');
    unit& u = impl_->find_unit(unit_name.substr(0, dot));
    std::string error;
    const fs_t over_fs = fs_t(over.value()) * fs_t(sc_core::sc_get_time_resolution().to_seconds() * 1e15 + 0.5);
    if (!u.inject(dot == std::string::npos ? "" : unit_name.substr(dot + 1), event, count, over_fs, error))
        SC_REPORT_ERROR(api_msg, fmt::format("{}: inject {} {} {}: {}", name(), unit_name, event, count, error).c_str());
}

void model::set_traffic(const std::string& unit_name, const std::vector<std::string>& requester,
                        const std::vector<std::string>& settings) {
    // The unit's `traffic` command (models/unit_command.h), as a sequence's `traffic` statement runs it.
    unit& u = impl_->find_unit(unit_name);
    std::string error = fmt::format("{} ({}) has no traffic generators", u.name(), u.type());
    if (const unit_command* traffic = find_unit_command(u.type(), "traffic")) {
        std::vector<std::string> args = requester;
        args.insert(args.end(), settings.begin(), settings.end());
        const access_context testbench;
        error = traffic->run(u, command_call{args, testbench}).error;
    }
    if (!error.empty())
        SC_REPORT_ERROR(api_msg, fmt::format("{}: traffic {}: {}", name(), unit_name, error).c_str());
}

uint64_t model::read_sysreg(unsigned cpu, sysreg_encoding encoding, access_context& context) {
    return impl_->sysreg_access(false, cpu, encoding, 0, context);
}

void model::write_sysreg(unsigned cpu, sysreg_encoding encoding, uint64_t value, access_context& context) {
    impl_->sysreg_access(true, cpu, encoding, value, context);
}

sysreg_encoding model::sysreg(const std::string& reg, unsigned cpu) const {
    auto r = impl_->plat->resolve_register(reg, cpu);
    if (!r || !r->system_register)
        SC_REPORT_ERROR(api_msg, fmt::format("{}: no system register '{}' on cpu{}", name(), reg, cpu).c_str());
    return sysreg_encoding::from_key(r->key);
}

uint64_t model::address_of(const std::string& reg) const {
    auto r = impl_->plat->resolve_register(reg, 0);
    if (!r || r->system_register)
        SC_REPORT_ERROR(api_msg, fmt::format("{}: no memory-mapped register '{}' (expected UNIT.REG)", name(), reg).c_str());
    return r->address;
}

} // namespace pmusim
