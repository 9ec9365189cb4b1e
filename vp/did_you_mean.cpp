// Nearest-name suggestions for messages about unknown names (vp/did_you_mean.h).
#include "vp/did_you_mean.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace pmusim {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower((unsigned char)c));
    return s;
}

} // namespace

unsigned edit_distance(const std::string& x, const std::string& y) {
    const std::string a = lower(x), b = lower(y);
    // Optimal string alignment distance: insertions, deletions, substitutions, adjacent transpositions.
    std::vector<std::vector<unsigned>> d(a.size() + 1, std::vector<unsigned>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = unsigned(i);
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = unsigned(j);
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
    if (name.size() > 256) return {}; // a name that long is no typo; and the table stays small
    const unsigned limit = std::max<unsigned>(2, unsigned(name.size() / 3));
    const std::string* best = nullptr;
    unsigned best_d = limit + 1;
    for (const auto& c : candidates) {
        // A name that holds a valid one whole ("cpu0_clk" for cpu0) is as near as one edit.
        const bool contains = c.size() >= 3 && lower(name).find(lower(c)) != std::string::npos;
        if (!contains && (c.size() > name.size() + limit || name.size() > c.size() + limit)) continue;
        const unsigned d = contains ? 1 : edit_distance(name, c);
        if (d < best_d) {
            best_d = d;
            best = &c;
        }
    }
    return best ? fmt::format(" (did you mean {}?)", *best) : std::string();
}

} // namespace pmusim
