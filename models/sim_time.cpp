#include "models/sim_time.h"

#include <fmt/format.h>

namespace pmusim {

void init_time_resolution() {
    static bool done = false;
    if (done) return;
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
    done = true;
}

std::string format_time(fs_t fs) {
    static const struct { fs_t scale; const char* unit; } units[] = {
        {1'000'000'000'000'000ULL, "s"}, {1'000'000'000'000ULL, "ms"}, {1'000'000'000ULL, "us"},
        {1'000'000ULL, "ns"}, {1'000ULL, "ps"}};
    if (fs == 0) return "0 s";
    for (const auto& u : units)
        if (fs % u.scale == 0) return fmt::format("{} {}", fs / u.scale, u.unit);
    return fmt::format("{} fs", fs);
}

} // namespace pmusim
