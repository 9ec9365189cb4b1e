#pragma once
// Random and Latin-hypercube sampling of a sweep's grid (docs/whatif.md "Sampling instead of the
// whole grid"): `sample: { method: random|lhs, points: N, seed: S }` next to `grid:` picks N points
// whose values come from the grid's lists, deterministically from the seed (the same file gives
// the same points on every machine: splitmix64, integer arithmetic only).
//   random: each parameter's value uniformly from its list, independently.
//   lhs:    each parameter's range [0, 1) cut into N equal strata, one point per stratum in a
//           random order per parameter (McKay, Beckman, Conover 1979), a uniform position in the
//           stratum mapped onto the list (index floor(x * length)): every list value gets N/length
//           points (+-1), and no two points share a stratum of any parameter.
#include <cstdint>
#include <string>
#include <vector>

namespace pmusim {

enum class sweep_sampling { random, lhs };

// For lists of `sizes`, `points` rows of value indexes (row i = point i).
std::vector<std::vector<size_t>> sample_grid(const std::vector<size_t>& sizes, sweep_sampling method, uint64_t points,
                                             uint64_t seed);

} // namespace pmusim
