#pragma once
// The activity source of one CPU: power state, security state, clock domain and
// workload phases giving exact per-cycle rates of architectural events.
//
// Event keys (workload KEY=RATE): every key is a rate per edge of the CPU's
// clock while the CPU runs (0 in WFI, WFE and off). Built in:
//   cycles        1 per CPU clock edge (fixed; not settable)
//   const_cycles  1 per edge of the constant clock `const` (fixed; not settable)
//   inst          instructions retired (default 1)
//   mem_stall     memory stall cycles
// Units declare more keys (l3_access, l3_refill, bus_access, ...) with declare_event.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/clock_domain.h"
#include "models/event_source.h"

namespace pmusim {

enum class power_state { run, wfi, wfe, off };
const char* to_string(power_state s);

class core_model {
public:
    core_model(unsigned index, const clock_domain& cpu_clock, const clock_domain& const_clock);

    unsigned index() const { return index_; }
    std::string name() const { return "cpu" + std::to_string(index_); }
    const clock_domain& clock() const { return cpu_clock_; }

    power_state power() const { return power_; }
    bool secure() const { return secure_; }
    void set_power(power_state state, fs_t now);
    void set_secure(bool secure, fs_t now);
    // Sets the named keys' rates from now on; other keys keep theirs.
    void set_workload(const std::map<std::string, rational>& rates, fs_t now);
    // Back to reset: running, Non-secure, inst=1, everything else 0.
    void reset(fs_t now);

    // Adds an event key (idempotent). Returns its stream.
    const rate_stream& declare_event(const std::string& key);
    const rate_stream& events(const std::string& key) const; // throws model_error for unknown keys
    bool has_event(const std::string& key) const { return streams_.count(key) != 0; }
    std::vector<std::string> event_keys() const;
    static bool is_fixed_key(const std::string& key) { return key == "cycles" || key == "const_cycles"; }

    // Power-state observers (e.g. the AMU losing state at power-off, firmware save/restore).
    void on_power_change(std::function<void(power_state from, power_state to)> f) { power_listeners_.push_back(std::move(f)); }

private:
    void apply(fs_t now);
    unsigned index_;
    const clock_domain& cpu_clock_;
    const clock_domain& const_clock_;
    power_state power_ = power_state::run;
    bool secure_ = false;
    std::map<std::string, rational> workload_;
    std::map<std::string, std::unique_ptr<rate_stream>> streams_;
    std::vector<std::function<void(power_state, power_state)>> power_listeners_;
};

} // namespace pmusim
