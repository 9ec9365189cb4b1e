// The one value grammar and the one duration/frequency formatter; see models/values.h and
// docs/values.md.
#include "models/values.h"

#include "models/input_error.h"
#include "models/limits.h"

#include <array>

namespace pmusim::values {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_digit_in(char c, unsigned base) {
    if (is_digit(c)) return true;
    return base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
}

unsigned digit_value(char c) {
    if (is_digit(c)) return unsigned(c - '0');
    if (c >= 'a' && c <= 'f') return unsigned(c - 'a' + 10);
    return unsigned(c - 'A' + 10);
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

// The digits of `s` in `base` without separators: not empty, '_' only between two digits.
std::optional<std::string> digit_run(std::string_view s, unsigned base) {
    if (s.empty()) return std::nullopt;
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '_') {
            if (i == 0 || i + 1 == s.size() || !is_digit_in(s[i - 1], base) || !is_digit_in(s[i + 1], base))
                return std::nullopt;
            continue;
        }
        if (!is_digit_in(c, base)) return std::nullopt;
        out += c;
    }
    return out;
}

// Accumulates digits in `base`; false on 64-bit overflow.
bool accumulate(std::string_view digits, unsigned base, uint64_t& out) {
    uint64_t v = 0;
    for (char c : digits) {
        if (__builtin_mul_overflow(v, uint64_t{base}, &v)) return false;
        if (__builtin_add_overflow(v, uint64_t{digit_value(c)}, &v)) return false;
    }
    out = v;
    return true;
}

// A decimal "I" or "I.F", separators removed.
struct decimal {
    std::string int_digits;
    std::string frac_digits; // trailing zeros removed
    bool has_point = false;
};

std::optional<decimal> scan_decimal(std::string_view s) {
    const size_t dot = s.find('.');
    decimal d;
    auto i = digit_run(s.substr(0, dot), 10);
    if (!i) return std::nullopt;
    d.int_digits = *i;
    if (dot != std::string_view::npos) {
        auto f = digit_run(s.substr(dot + 1), 10);
        if (!f) return std::nullopt;
        d.has_point = true;
        d.frac_digits = *f;
        while (!d.frac_digits.empty() && d.frac_digits.back() == '0') d.frac_digits.pop_back();
    }
    return d;
}

// d * 10^exp10 as an exact integer.
fault scale(const decimal& d, unsigned exp10, uint64_t& out) {
    if (d.frac_digits.size() > exp10) return fault::not_whole;
    const std::string all = d.int_digits + d.frac_digits + std::string(exp10 - d.frac_digits.size(), '0');
    return accumulate(all, 10, out) ? fault::none : fault::overflow;
}

// Splits "2.5 GHz" into the number "2.5" and the unit "GHz".
std::pair<std::string_view, std::string_view> split_unit(std::string_view s) {
    s = trim(s);
    size_t n = 0;
    while (n < s.size() && (is_digit(s[n]) || s[n] == '.' || s[n] == '_')) ++n;
    return {s.substr(0, n), trim(s.substr(n))};
}

struct unit_def {
    std::string_view name;
    unsigned exp10; // the unit is 10^exp10 base units
};
// Largest first: the formatter picks the largest unit that fits.
constexpr std::array<unit_def, 6> time_units{{{"s", 15}, {"ms", 12}, {"us", 9}, {"ns", 6}, {"ps", 3}, {"fs", 0}}};
constexpr std::array<unit_def, 4> frequency_units{{{"GHz", 9}, {"MHz", 6}, {"kHz", 3}, {"Hz", 0}}};

// A decimal number followed by a unit of `units` (names compared exactly or ignoring case). A bare
// number with no unit: `bare` says whether it is taken (as base units) and returns the value.
template <size_t N, class Bare>
scanned<uint64_t> scan_with_unit(std::string_view text, const std::array<unit_def, N>& units, bool any_case,
                                 Bare bare) {
    scanned<uint64_t> r;
    auto [num, unit] = split_unit(text);
    auto d = scan_decimal(num);
    if (!d) {
        r.why = fault::malformed;
        return r;
    }
    if (unit.empty()) {
        r.why = fault::no_unit;
        if (!d->has_point && accumulate(d->int_digits, 10, r.value) && bare(r.value)) r.why = fault::none;
        return r;
    }
    for (const auto& u : units)
        if (any_case ? equal_ignoring_case(unit, u.name) : unit == u.name) {
            r.why = scale(*d, u.exp10, r.value);
            return r;
        }
    r.why = fault::unknown_unit;
    r.part = unit;
    return r;
}

uint64_t power_of_ten(unsigned exp10) {
    uint64_t v = 1;
    while (exp10--) v *= 10;
    return v;
}

// v in `unit` base units with its exact fraction, trailing zeros dropped: 2500 in 1000s is "2.5".
std::string scaled_text(uint64_t v, unsigned exp10) {
    const uint64_t unit = power_of_ten(exp10);
    std::string s = std::to_string(v / unit);
    const uint64_t rem = v % unit;
    if (rem == 0) return s;
    std::string frac = std::to_string(rem);
    frac.insert(0, exp10 - frac.size(), '0');
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    return s + "." + frac;
}

// The largest unit with v >= unit that writes v with at most style.fraction_digits decimals.
template <size_t N>
std::string format_with_units(uint64_t v, const std::array<unit_def, N>& units, const unit_style& style,
                              const char* zero) {
    if (v == 0) return zero;
    for (const auto& u : units) {
        const uint64_t step = power_of_ten(u.exp10 > style.fraction_digits ? u.exp10 - style.fraction_digits : 0);
        if (v >= power_of_ten(u.exp10) && v % step == 0)
            return scaled_text(v, u.exp10) + style.separator + std::string(u.name);
    }
    return std::to_string(v) + style.separator + std::string(units.back().name); // not reached: base unit
}

// What a refused integer was expected to be, and the detail (overflow).
std::pair<const char*, const char*> integer_refusal(fault why) {
    if (why == fault::overflow) return {"a number that fits in 64 bits", "overflow"};
    return {"a number", ""};
}

} // namespace

scanned<uint64_t> scan_integer(std::string_view text) {
    scanned<uint64_t> r;
    std::string_view s = trim(text);
    unsigned base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s.remove_prefix(2);
    }
    auto digits = digit_run(s, base);
    if (!digits) r.why = fault::malformed;
    else if (!accumulate(*digits, base, r.value)) r.why = fault::overflow;
    return r;
}

scanned<uint64_t> scan_frequency(std::string_view text) {
    return scan_with_unit(text, frequency_units, true, [](uint64_t) { return true; }); // bare: Hz
}

scanned<uint64_t> scan_duration(std::string_view text) {
    return scan_with_unit(text, time_units, false, [](uint64_t v) { return v == 0; }); // bare: only 0
}

scanned<uint64_t> scan_size(std::string_view text) {
    scanned<uint64_t> r = scan_integer(text);
    if (r) return r;
    auto [num, unit] = split_unit(text);
    if (unit.empty()) return r; // the integer's own fault
    static constexpr std::array<std::pair<std::string_view, unsigned>, 4> size_units{
        {{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}}};
    r = {};
    auto digits = digit_run(num, 10);
    if (!digits) {
        r.why = fault::malformed;
        return r;
    }
    for (const auto& [name, shift] : size_units)
        if (unit == name) {
            uint64_t n = 0;
            if (!accumulate(*digits, 10, n) || n > (UINT64_MAX >> shift)) r.why = fault::overflow;
            else r.value = n << shift;
            return r;
        }
    r.why = fault::unknown_unit;
    r.part = unit;
    return r;
}

scanned<rational> scan_rational(std::string_view text) {
    scanned<rational> r;
    const std::string_view s = trim(text);
    auto refuse = [&](fault why, std::string_view part = {}) {
        r.why = why;
        r.part = part;
        return r;
    };
    const size_t slash = s.find('/');
    if (slash != std::string_view::npos) {
        const std::string_view p = s.substr(0, slash), q = s.substr(slash + 1);
        if (p.empty() || !is_digit(p[0]) || q.empty() || !is_digit(q[0])) return refuse(fault::malformed);
        const auto n = scan_integer(p);
        if (!n) return refuse(n.why, p);
        const auto d = scan_integer(q);
        if (!d) return refuse(d.why, q);
        if (d.value == 0) return refuse(fault::zero_denominator);
        r.value = rational(n.value, d.value);
        return r;
    }
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        const auto n = scan_integer(s);
        if (!n) return refuse(n.why, s);
        r.value = rational(n.value);
        return r;
    }
    auto dec = scan_decimal(s);
    if (!dec) return refuse(fault::malformed);
    if (dec->frac_digits.size() > 19) return refuse(fault::too_precise);
    uint64_t n = 0;
    if (!accumulate(dec->int_digits + dec->frac_digits, 10, n)) return refuse(fault::overflow);
    r.value = rational(n, power_of_ten(unsigned(dec->frac_digits.size())));
    return r;
}

std::optional<bool> scan_bool(std::string_view text) {
    const std::string_view s = trim(text);
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
    return std::nullopt;
}

std::string quoted(std::string_view token) { return "'" + std::string(token) + "'"; }

std::string expected_found(std::string_view what, std::string_view context, std::string_view found,
                           std::string_view detail) {
    std::string msg = "expected " + std::string(what);
    if (!context.empty()) msg += " " + std::string(context);
    msg += ", found " + std::string(found);
    if (!detail.empty()) msg += " (" + std::string(detail) + ")";
    return msg;
}

void fail_expected(const std::string& file, unsigned line, std::string_view what, std::string_view context,
                   std::string_view found, std::string_view detail) {
    throw input_error(file, line, expected_found(what, context, found, detail));
}

uint64_t parse_integer(std::string_view token, const std::string& file, unsigned line, std::string_view context) {
    const auto v = scan_integer(token);
    if (!v) {
        const auto [what, detail] = integer_refusal(v.why);
        fail_expected(file, line, what, context, quoted(token), detail);
    }
    return v.value;
}

uint64_t parse_duration_fs(std::string_view token, const std::string& file, unsigned line, std::string_view context) {
    const char* what = "a duration (a number followed by fs, ps, ns, us, ms or s)";
    const auto v = scan_duration(token);
    switch (v.why) {
    case fault::none: return v.value;
    case fault::no_unit: fail_expected(file, line, what, context, quoted(token), "no time unit");
    case fault::unknown_unit:
        fail_expected(file, line, what, context, quoted(token), "unknown time unit " + quoted(v.part));
    case fault::not_whole:
        fail_expected(file, line, "a duration that is a whole number of femtoseconds", context, quoted(token));
    case fault::overflow:
        fail_expected(file, line, "a duration of at most 2^64-1 fs (about 5.1 hours)", context, quoted(token),
                      "overflow");
    default: fail_expected(file, line, what, context, quoted(token));
    }
}

uint64_t parse_frequency_hz(std::string_view token, const std::string& file, unsigned line,
                            std::string_view context) {
    const char* what = "a frequency (a number followed by Hz, kHz, MHz or GHz)";
    const auto v = scan_frequency(token);
    switch (v.why) {
    case fault::none: break;
    case fault::no_unit: fail_expected(file, line, what, context, quoted(token), "no frequency unit");
    case fault::unknown_unit:
        fail_expected(file, line, what, context, quoted(token), "unknown frequency unit " + quoted(v.part));
    case fault::not_whole: fail_expected(file, line, "a frequency that is a whole number of Hz", context, quoted(token));
    case fault::overflow:
        fail_expected(file, line, "a frequency that fits in 64 bits of Hz", context, quoted(token), "overflow");
    default: fail_expected(file, line, what, context, quoted(token));
    }
    if (v.value == 0) fail_expected(file, line, "a frequency greater than zero", context, quoted(token));
    if (v.value > limits::max_clock_hz) fail_expected(file, line, "a frequency of at most 1000GHz", context, quoted(token));
    return v.value;
}

rational parse_rational(std::string_view token, const std::string& file, unsigned line, std::string_view context) {
    const char* what = "a rate (p/q, an integer or a decimal such as 0.25)";
    const auto v = scan_rational(token);
    switch (v.why) {
    case fault::none: return v.value;
    case fault::zero_denominator:
        fail_expected(file, line, "a rate with a non-zero denominator", context, quoted(token));
    case fault::too_precise: fail_expected(file, line, what, context, quoted(token), "more than 19 decimal places");
    case fault::overflow:
        if (v.part.empty()) fail_expected(file, line, "a rate that fits in 64 bits", context, quoted(token), "overflow");
        [[fallthrough]];
    default:
        if (v.part.empty()) fail_expected(file, line, what, context, quoted(token));
        // The refused integer of p/q (or a hex rate), in the integer's own words.
        const auto [part_what, part_detail] = integer_refusal(v.why);
        fail_expected(file, line, what, context, quoted(token),
                      expected_found(part_what, {}, quoted(v.part), part_detail));
    }
}

std::string format_duration(uint64_t fs, const unit_style& style) {
    return format_with_units(fs, time_units, style, style.zero_duration);
}

std::string format_frequency(uint64_t hz, const unit_style& style) {
    return format_with_units(hz, frequency_units, style, style.zero_frequency);
}

} // namespace pmusim::values
