// Sweep sampling (tb/sweep_sampling.h).
#include "tb/sweep_sampling.h"

#include <utility>

namespace pmusim {
namespace {

// splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
struct splitmix64 {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n), n > 0: rejection of the top partial range keeps it unbiased.
    uint64_t below(uint64_t n) {
        const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        for (;;) {
            const uint64_t x = next();
            if (x < limit) return x % n;
        }
    }
};

} // namespace

std::vector<std::vector<size_t>> sample_grid(const std::vector<size_t>& sizes, sweep_sampling method, uint64_t points,
                                             uint64_t seed) {
    splitmix64 rng{seed};
    std::vector<std::vector<size_t>> rows(points, std::vector<size_t>(sizes.size(), 0));
    for (size_t p = 0; p < sizes.size(); ++p) {
        if (method == sweep_sampling::random) {
            for (uint64_t i = 0; i < points; ++i) rows[i][p] = size_t(rng.below(sizes[p]));
            continue;
        }
        // A random permutation of the strata (Fisher-Yates), then a position inside each:
        // x = (stratum + u) / N with u = r / 2^32, index = floor(x * length), in integers.
        std::vector<uint64_t> strata(points);
        for (uint64_t i = 0; i < points; ++i) strata[i] = i;
        for (uint64_t i = points; i > 1; --i) std::swap(strata[i - 1], strata[rng.below(i)]);
        for (uint64_t i = 0; i < points; ++i) {
            const unsigned __int128 u = rng.next() >> 32;
            const unsigned __int128 x = (static_cast<unsigned __int128>(strata[i]) << 32) + u; // (stratum + u) * 2^32
            rows[i][p] = size_t(x * sizes[p] / (static_cast<unsigned __int128>(points) << 32));
        }
    }
    return rows;
}

} // namespace pmusim
