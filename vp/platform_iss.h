#pragma once
// A platform's CPU as an ISS (iss/aarch64_iss.h): the adapter that gives the ISS what it needs of
// its host (iss/cpu_host.h) from a platform and a run's recorder. Every place that builds an ISS
// on a platform (the sequence runner's `exec`, `pmusim firmware`, `pmusim linux`, tests) builds a
// platform_iss; the ISS itself knows neither the platform nor the recorder.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "iss/aarch64_iss.h"
#include "iss/cpu_host.h"
#include "vp/platform_config.h"

namespace pmusim {

class platform;
class run_recorder;

// MPIDR_EL1 of CPU `cpu` in pmusim's DynamIQ layout (iss/cpu_identity.h): its cluster, and its
// place among the platform's CPUs of that cluster.
uint64_t cpu_mpidr(const platform_config& cfg, unsigned cpu);

// platform + run_recorder -> cpu_host.
class platform_iss_host final : public cpu_host, private cpu_log {
public:
    platform_iss_host(platform& p, run_recorder& recorder) : platform_(p), rec_(recorder) {}

    const std::vector<std::pair<uint64_t, memory*>>& memories() const override;
    firmware_gate& gate() override;
    cpu_controls& controls() override;
    cpu_wiring wiring(unsigned cpu) override;
    cpu_log& log() override { return *this; }
    void firmware_exited(unsigned cpu, fs_t t) override;

private:
    void line(const std::string& text) override;
    void program_output(const std::string& text) override;
    std::ostream* const* access_log() const override;
    void access(const access_record& record) override;
    platform& platform_;
    run_recorder& rec_;
};

namespace detail {
// Constructed before the ISS base (bases are constructed in declaration order).
struct platform_iss_host_holder {
    platform_iss_host host;
};
} // namespace detail

// An ISS for CPU `cpu` of `p`, recording into `recorder`; both outlive it.
class platform_iss : private detail::platform_iss_host_holder, public aarch64_iss {
public:
    platform_iss(const sc_core::sc_module_name& name, platform& p, run_recorder& recorder, unsigned cpu);
};

// The same, the adapter owned by the ISS (the ISS object alone on the heap, as before the host
// interface: its hot fields keep their alignment).
inline std::unique_ptr<aarch64_iss> make_platform_iss(const std::string& name, platform& p, run_recorder& recorder,
                                                     unsigned cpu) {
    return std::make_unique<aarch64_iss>(name.c_str(), std::make_unique<platform_iss_host>(p, recorder), cpu);
}

// Every ISS on `p` (cpu order): those sharing its gate (aarch64_iss::on_gate).
std::vector<aarch64_iss*> isses_on(platform& p);

} // namespace pmusim
