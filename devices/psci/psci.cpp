// PSCI's function logic (psci.h), DEN 0022 chapter 5.
#include "devices/psci/psci.h"

#include <fmt/format.h>

namespace pmusim {

psci_service::psci_service(cpu_power_control* power, uint32_t version) : power_(power), version_(version) {}

void psci_service::initialise() {
    if (!power_ || !states_.empty()) return;
    for (unsigned i = 0; i < power_->cpu_count(); ++i)
        states_.push_back(power_->powered(i) ? psci::affinity_on : psci::affinity_off);
}

int64_t psci_service::state(unsigned cpu) {
    initialise();
    return cpu < states_.size() ? states_[cpu] : psci::affinity_off;
}

void psci_service::cpu_running(unsigned cpu) {
    initialise();
    if (cpu < states_.size()) states_[cpu] = psci::affinity_on;
}

void psci_service::cpu_stopped(unsigned cpu) {
    initialise();
    if (cpu < states_.size()) states_[cpu] = psci::affinity_off;
}

int psci_service::target_of(uint64_t mpidr) const {
    for (unsigned i = 0; i < power_->cpu_count(); ++i)
        if ((power_->mpidr(i) & psci::mpidr_affinity_mask) == (mpidr & psci::mpidr_affinity_mask)) return int(i);
    return -1;
}

bool psci_service::implemented(uint32_t fn) const {
    switch (fn) {
    case psci::version:
    case psci::cpu_off:
    case psci::cpu_on:
    case psci::cpu_on64:
    case psci::affinity_info:
    case psci::affinity_info64:
    case psci::migrate_info_type:
    case psci::system_off:
    case psci::system_reset: return true;
    case psci::features: return version_ >= psci::version_of(1, 0); // a PSCI 1.0 function (DEN 0022 5.15)
    default: return false;
    }
}

psci_result psci_service::call(unsigned caller, uint64_t x0, uint64_t x1, uint64_t x2, uint64_t x3) {
    ++calls_;
    initialise();
    const uint32_t fn = uint32_t(x0); // the function ID is W0 (SMCCC): x0's upper half is ignored
    // SMC32 functions take 32-bit arguments (SMCCC: the upper halves are ignored).
    const bool smc32 = (fn & 0x40000000) == 0;
    const uint64_t mask = smc32 ? 0xFFFFFFFFULL : ~0ULL;
    const int64_t r = dispatch(caller, fn, x1 & mask, x2 & mask, x3 & mask);
    return {uint64_t(r), x1, x2, x3};
}

int64_t psci_service::dispatch(unsigned caller, uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3) {
    if (!implemented(fn)) return psci::not_supported; // unknown function IDs too (SMCCC: -1)
    switch (fn) {
    case psci::version: return version_;
    case psci::features: {
        // 0 for an implemented function (CPU_SUSPEND would return its feature flags), else
        // NOT_SUPPORTED, also for SMCCC_VERSION (so Linux keeps SMCCC 1.0).
        return implemented(uint32_t(a1)) ? psci::success : psci::not_supported;
    }
    case psci::migrate_info_type: return psci::tos_not_present_mp;
    case psci::system_off:
        if (power_) power_->system_off();
        else sc_core::sc_stop();
        return psci::success; // not reached on a platform: the system is off
    case psci::system_reset:
        if (!power_) return psci::not_supported;
        power_->system_reset();
        return psci::success;
    default: break;
    }
    if (!power_) return psci::denied;
    switch (fn) {
    case psci::cpu_off:
        if (caller < states_.size()) states_[caller] = psci::affinity_off;
        power_->cpu_off(caller);
        return psci::success; // the caller is off: the platform does not resume it (DEN 0022 5.5: no return)
    case psci::cpu_on:
    case psci::cpu_on64: {
        const int target = target_of(a1);
        if (target < 0) return psci::invalid_parameters;
        if (states_[unsigned(target)] == psci::affinity_on) return psci::already_on;
        if (states_[unsigned(target)] == psci::affinity_on_pending) return psci::on_pending;
        states_[unsigned(target)] = psci::affinity_on_pending;
        if (!power_->cpu_on(unsigned(target), a2, a3)) {
            states_[unsigned(target)] = psci::affinity_off;
            return psci::internal_failure;
        }
        return psci::success;
    }
    case psci::affinity_info:
    case psci::affinity_info64: {
        // Lowest affinity level 0 only (DEN 0022 5.7: levels above 0 are optional from PSCI 1.0).
        if (a2 != 0) return psci::invalid_parameters;
        const int target = target_of(a1);
        if (target < 0) return psci::invalid_parameters;
        return states_[unsigned(target)];
    }
    default: return psci::not_supported;
    }
}

namespace {
const register_table& no_registers() {
    static const register_table t = [] {
        register_table r;
        r.unit = "psci";
        r.title = "PSCI (firmware calls; no registers)";
        return r;
    }();
    return t;
}
} // namespace

psci_unit::psci_unit(const sc_core::sc_module_name& name, soc& system, std::string conduit, uint32_t version)
    : unit(name, system), conduit_(std::move(conduit)), service_(nullptr, version) {}

const register_table& psci_unit::table() const { return no_registers(); }

void psci_unit::access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    ctx.outcome = access_outcome::error;
    ctx.detail = "PSCI has no registers: it is reached by SMC or HVC";
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

void psci_unit::report(std::ostream& out) {
    out << fmt::format("{}: {} PSCI calls ({})\n", basename(), service_.calls(), conduit_);
}

} // namespace pmusim
