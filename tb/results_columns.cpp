// Typed results columns (tb/results_columns.h).
#include "tb/results_columns.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "models/values.h"
#include "pmusim/version.h"

namespace pmusim {

std::vector<std::string> typed_column_names(const std::vector<std::string>& params) {
    std::vector<std::string> names{"platform", "pmusim_version", "duration_s"};
    for (const auto& p : params) names.push_back(p + "_value");
    return names;
}

std::string fs_as_seconds(uint64_t fs) {
    constexpr uint64_t per_second = 1'000'000'000'000'000ull;
    std::string frac = fmt::format("{:015}", fs % per_second);
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    return fmt::format("{}", fs / per_second) + (frac.empty() ? "" : "." + frac);
}

std::string numeric_value(const std::string& text) {
    if (const auto i = values::scan_integer(text)) return fmt::format("{}", *i);
    if (const auto d = values::scan_duration(text)) return fs_as_seconds(*d);
    if (const auto f = values::scan_frequency(text)) return fmt::format("{}", *f);
    if (const auto scanned_rational = values::scan_rational(text)) {
        const rational* r = &*scanned_rational;
        // Exact when the denominator is 2^a 5^b (a terminating decimal); else the shortest double.
        uint64_t q = r->den;
        uint64_t twos = 0, fives = 0;
        while (q % 2 == 0) q /= 2, ++twos;
        while (q % 5 == 0) q /= 5, ++fives;
        if (q == 1 && std::max(twos, fives) <= 19) {
            const uint64_t digits = std::max(twos, fives);
            unsigned __int128 scaled = static_cast<unsigned __int128>(r->num);
            for (uint64_t k = 0; k < digits; ++k) scaled *= 10;
            scaled /= r->den;
            unsigned __int128 pow10 = 1;
            for (uint64_t k = 0; k < digits; ++k) pow10 *= 10;
            const uint64_t whole = uint64_t(scaled / pow10);
            std::string frac = digits ? fmt::format("{:0{}}", uint64_t(scaled % pow10), digits) : "";
            while (!frac.empty() && frac.back() == '0') frac.pop_back();
            return fmt::format("{}", whole) + (frac.empty() ? "" : "." + frac);
        }
        return fmt::format("{}", double(r->num) / double(r->den));
    }
    return "";
}

std::map<std::string, std::string> typed_column_values(const std::vector<std::string>& params,
                                                       const std::vector<std::string>& values,
                                                       const std::filesystem::path& point_dir) {
    std::map<std::string, std::string> out;
    for (const auto& name : typed_column_names(params)) out[name] = ""; // a failed point keeps empty cells
    out["pmusim_version"] = PMUSIM_VERSION_STRING;
    try {
        std::ifstream f(point_dir / "config.json");
        if (f) {
            const nlohmann::json c = nlohmann::json::parse(f);
            if (c.contains("platform") && c["platform"].is_string()) out["platform"] = c["platform"].get<std::string>();
            if (c.contains("duration_fs") && c["duration_fs"].is_number_unsigned())
                out["duration_s"] = fs_as_seconds(c["duration_fs"].get<uint64_t>());
        }
    } catch (const std::exception&) {
        // A point that failed before writing config.json keeps these cells empty.
    }
    for (size_t i = 0; i < params.size() && i < values.size(); ++i) out[params[i] + "_value"] = numeric_value(values[i]);
    return out;
}

} // namespace pmusim
