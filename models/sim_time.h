#pragma once
// Simulated time as an integer number of femtoseconds.
//
// pmusim runs SystemC at a 1 fs resolution so that any real clock period is
// representable to within 1 fs; sc_time::value() is then femtoseconds. 2^64 fs
// is about 5.1 hours of simulated time, far beyond any scenario we run.
#include <cstdint>
#include <systemc>

namespace pmusim {

using fs_t = uint64_t;
constexpr fs_t fs_per_second = 1'000'000'000'000'000ULL;
constexpr fs_t fs_never = UINT64_MAX;

// Sets the SystemC time resolution to 1 fs. Must run before any non-zero
// sc_time exists; safe to call more than once.
void init_time_resolution();

// The kernel's current time, read inline: sc_time_stamp() is an out-of-line library call, and
// every register access and lazy counter read asks for the time.
inline fs_t now_fs() {
    const sc_core::sc_simcontext* context = sc_core::sc_curr_simcontext;
    return context ? context->time_stamp().value() : 0; // no kernel yet: time 0, as sc_time_stamp() says
}
inline sc_core::sc_time to_sc_time(fs_t fs) { return sc_core::sc_time::from_value(fs); }

// "1500 ns", "2 ms", ... for logs and reports: the largest unit that writes it as an integer
// (values::format_duration in the spaced style, models/values.h).
std::string format_time(fs_t fs);

} // namespace pmusim
