// `perf stat -I MS -x,` output as measured intervals (tb/perf_stat.h).
#include "tb/perf_stat.h"

#include <fmt/format.h>

#include <sstream>

#include "models/input_error.h"

namespace pmusim {
namespace {

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

// Seconds with a decimal fraction ("12.000100000") to femtoseconds, exactly (at most 15 fraction digits).
bool seconds_to_fs(const std::string& t, fs_t& out) {
    const auto dot = t.find('.');
    const std::string whole = t.substr(0, dot), frac = dot == std::string::npos ? "" : t.substr(dot + 1);
    if (whole.empty() || whole.size() > 4 || frac.size() > 15) return false; // under 10^4 s: fits in 64-bit fs
    fs_t v = 0;
    for (char c : whole) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + fs_t(c - '0');
    }
    fs_t f = 0;
    for (char c : frac) {
        if (c < '0' || c > '9') return false;
        f = f * 10 + fs_t(c - '0');
    }
    for (size_t i = frac.size(); i < 15; ++i) f *= 10;
    out = v * 1'000'000'000'000'000ull + f;
    return true;
}

bool is_unsigned(const std::string& s) {
    if (s.empty() || s.size() > 19) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

} // namespace

std::vector<perf_interval> parse_perf_stat(const std::string& text, const std::string& file) {
    std::vector<perf_interval> out;
    std::istringstream in(text);
    std::string line;
    unsigned n = 0;
    fs_t previous = 0;
    while (std::getline(in, line)) {
        ++n;
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#') continue;
        std::vector<std::string> f;
        std::stringstream ss(t);
        for (std::string field; std::getline(ss, field, ',');) f.push_back(trim(field));
        if (f.size() < 4)
            throw input_error(file, n, fmt::format("expected `perf stat -I MS -x,` fields time,value,unit,event,... "
                                                   "(perf-stat.txt, CSV FORMAT), found {} field(s)", f.size()));
        fs_t at = 0;
        if (!seconds_to_fs(f[0], at))
            throw input_error(file, n, "time: expected the interval's time stamp in seconds like 1.000123456 "
                                       "(record with -I MS), found '" + f[0] + "'");
        const bool per_cpu = !f[1].empty() && (f[1].rfind("CPU", 0) == 0 || f[1][0] == 'S' || f[1][0] == 'N') &&
                             f.size() >= 5 && !is_unsigned(f[1]);
        if (per_cpu)
            throw input_error(file, n, "'" + f[1] + "': per-CPU, per-core or per-socket output (-A, --per-core, "
                                       "--per-socket) is not read; record aggregated counts of the CPU's task or core "
                                       "(e.g. perf stat -I 100 -x, -C 3 -e ...)");
        if (out.empty() || at != out.back().end) {
            if (at <= previous)
                throw input_error(file, n, fmt::format("time: {} does not follow the previous interval's {}", f[0],
                                                       format_time(previous)));
            perf_interval iv;
            iv.start = previous;
            iv.end = at;
            iv.line = n;
            out.push_back(iv);
            previous = at;
        }
        perf_interval& iv = out.back();
        const std::string& event = f[3];
        if (event.empty()) throw input_error(file, n, "event: expected the event's name in the fourth field");
        if (iv.values.count(event))
            throw input_error(file, n, fmt::format("event '{}' appears twice in the interval ending at {} s (also line {})",
                                                   event, f[0], iv.lines[event]));
        iv.values[event] = f[1];
        iv.lines[event] = n;
        if (f.size() >= 6 && !f[5].empty()) iv.running_pct[event] = f[5];
    }
    if (out.empty()) throw input_error(file, 0, "no intervals: expected the output of `perf stat -I MS -x, -e EVENTS`");
    return out;
}

uint64_t perf_count(const perf_interval& interval, const std::string& event, const std::string& file) {
    auto it = interval.values.find(event);
    if (it == interval.values.end())
        throw input_error(file, interval.line, fmt::format("event '{}' is missing from the interval ending at {}",
                                                           event, format_time(interval.end)));
    if (!is_unsigned(it->second))
        throw input_error(file, interval.lines.at(event),
                          fmt::format("event '{}': expected a count, found '{}' (an event perf could not count in an "
                                      "interval cannot be replayed)", event, it->second));
    return std::stoull(it->second);
}

bool perf_count_is_estimate(const perf_interval& interval, const std::string& event) {
    auto it = interval.running_pct.find(event);
    if (it == interval.running_pct.end()) return false;
    try {
        size_t used = 0;
        const double pct = std::stod(it->second, &used);
        return used == it->second.size() && pct < 100.0;
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace pmusim
