#pragma once
// A platform written in code rather than in YAML: the library's units alone
// (include/pmusim/units.h) describe their one-unit platforms with it. It gives the platform_config
// a platform file gives (vp/platform_config.h), with the checks code can fail: parameter and
// feature values against the registered descriptors' schemas (models/param_schema.h), unknown
// parameter names, references to clocks, CPUs and units. The unit's own factory checks the rest,
// as it does for a file. Errors are input_errors naming `source` (line 0) and the key.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vp/platform_config.h"

namespace pmusim {

// A `units:` entry in code: values as a platform file writes them ("dsu-110", "1ms", "0x43B").
struct unit_spec {
    std::string name;
    std::string type;
    std::optional<uint64_t> base; // with size: the MMIO window
    uint64_t size = 0;
    std::string clock;
    std::vector<std::string> cpus; // CPU names
    std::string irq;               // the interrupt line it drives
    std::map<std::string, std::string> params;
};

class platform_builder {
public:
    // `source` stands for the file in messages ("pmusim::dsu_pmu").
    platform_builder(std::string name, std::string source, arch_kind arch);

    platform_builder& clock(const std::string& name, uint64_t hz);
    // The next Arm CPU, cpuN: its clock, cluster and the `features:` it writes (the others default).
    platform_builder& arm_cpu(const std::string& clock, unsigned cluster,
                              const std::map<std::string, std::string>& features = {});
    // The next POWER hardware thread, cpuN, of `core` on `chip` (an SMT `threads` core).
    platform_builder& power_thread(const std::string& clock, unsigned chip, unsigned core, unsigned threads);
    platform_builder& firmware(firmware_profile profile);
    platform_builder& memory(const std::string& name, uint64_t base, uint64_t size, endianness order);
    platform_builder& add_unit(const unit_spec& u);
    // An interrupt line no unit drives (an `irq_lines:` entry): e.g. a device's input.
    platform_builder& irq_line(const std::string& name);

    // The platform, checked; throws input_error.
    platform_config build() const;

private:
    platform_config p_;
    std::vector<unit_spec> units_;
    std::vector<std::map<std::string, std::string>> features_; // per CPU, as written
};

} // namespace pmusim
