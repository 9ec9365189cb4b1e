#pragma once
// Exact non-negative rational numbers for event rates (events per clock edge).
// Rates stay exact so that every derived count is an exact integer.
#include <cstdint>
#include <numeric>
#include <string>

namespace pmusim {

struct rational {
    uint64_t num = 0;
    uint64_t den = 1;

    constexpr rational() = default;
    rational(uint64_t n, uint64_t d = 1) : num(n), den(d) {
        if (den == 0) den = 1, num = 0; // callers validate; a zero denominator never survives
        uint64_t g = std::gcd(num, den);
        if (g > 1) num /= g, den /= g;
        if (num == 0) den = 1;
    }
    bool is_zero() const { return num == 0; }
    friend bool operator==(const rational& a, const rational& b) { return a.num == b.num && a.den == b.den; }
    friend bool operator!=(const rational& a, const rational& b) { return !(a == b); }
    std::string str() const {
        return den == 1 ? std::to_string(num) : std::to_string(num) + "/" + std::to_string(den);
    }
};

} // namespace pmusim
