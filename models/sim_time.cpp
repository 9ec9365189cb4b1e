#include "models/sim_time.h"

#include "models/values.h"

namespace pmusim {

void init_time_resolution() {
    static bool done = false;
    if (done) return;
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
    done = true;
}

std::string format_time(fs_t fs) { return values::format_duration(fs, values::spaced); }

} // namespace pmusim
