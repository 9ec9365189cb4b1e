// A whole platform in a user's sc_main (include/pmusim/platform.h).
#include "pmusim/platform.h"

#include "pmusim/units.h"
#include "vp/platform_config.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {
model_spec platform_spec(const std::string& name, const platform_options& o) {
    model_spec s;
    s.platform_name = name;
    s.description = "platform " + name;
    if (o.default_initiator_given) {
        s.default_initiator = o.default_initiator;
    } else {
        s.default_initiator = ns_el1_cpu0();
        try {
            register_all_units(); // the schemas, before a platform is validated
            if (load_platform(name).arch == arch_kind::power) s.default_initiator.is_power = true;
        } catch (const input_error&) {
            // The model's constructor reports it, naming the instance.
        }
    }
    return s;
}
} // namespace

platform_model::platform_model(const sc_core::sc_module_name& name, const std::string& platform,
                               const platform_options& options)
    : model(name, platform_spec(platform, options)), gate(target) {}

} // namespace pmusim
