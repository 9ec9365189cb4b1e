#pragma once
// The one grammar of values a user writes: integers, frequencies, durations, sizes, rationals and
// booleans, in platform YAML, sequences, scenarios, sweeps, `-C KEY=VALUE` overrides and serve
// requests. The grammar is documented once, in docs/values.md; every reader links there.
//
// Two layers:
//  - scan_*: spelling only, never throw (safe inside SystemC processes); they say why a spelling
//    was refused so that a caller can word its own message;
//  - parse_*: scan_* plus the one error wording, thrown as input_error naming file:line:
//      FILE:LINE: expected WHAT[ CONTEXT], found 'TOKEN'[ (DETAIL)]
//    `context` is a phrase such as "after 'write AMCR_EL0'" or "for 'clocks.cpu0'"; empty: none.
//
// And one formatter for durations and frequencies (format_duration, format_frequency), in three
// styles: compact (platform listings: 2.5GHz, 1.5us), exact (sequence text: 1500ns) and spaced
// (logs and reports: 1500 ns).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/rational.h"

namespace pmusim::values {

// Why a spelling was refused.
enum class fault {
    none,
    malformed,    // not the grammar's spelling at all
    no_unit,      // a number that needs a unit and has none ("10" as a duration)
    unknown_unit, // a number followed by a word that is not a unit of its kind
    not_whole,    // a whole number of the base unit (Hz, fs) it is not: "1.5fs"
    overflow,     // does not fit in 64 bits (of the base unit)
    too_precise,  // a rational with more than 19 decimal places
    zero_denominator, // a rational "p/0"
};

// A scanned value: `value` when `why` is none. `part` names the piece at fault: the unit word
// for unknown_unit, the refused integer of a rational's p/q.
template <class T> struct scanned {
    T value{};
    fault why = fault::none;
    std::string_view part;
    explicit operator bool() const { return why == fault::none; }
    const T& operator*() const { return value; }
};

// Integer: decimal or 0x/0X hex, '_' only between two digits ("0x8000_0000", "1_000"), no sign.
// Leading zeros are decimal: "010" is ten, never octal. Spaces and tabs around it are ignored.
scanned<uint64_t> scan_integer(std::string_view text);

// Frequency in Hz: a decimal number ("2", "2.5", "1_000") then Hz kHz MHz GHz in any letter case,
// a space before the unit allowed ("2GHz", "32.768kHz", "1_000 MHz"); or a bare decimal integer
// meaning Hz ("25000000"). A whole number of Hz; 0 is returned (callers decide whether it is allowed).
scanned<uint64_t> scan_frequency(std::string_view text);

// Duration in femtoseconds: a decimal number then fs ps ns us ms s (exact case), a space before the
// unit allowed ("10ns", "1.5us"); a bare 0 needs no unit. A whole number of fs.
scanned<uint64_t> scan_duration(std::string_view text);

// Size in bytes: an integer (scan_integer), or a decimal integer then KiB MiB GiB TiB ("16MiB").
scanned<uint64_t> scan_size(std::string_view text);

// Rational: "p/q" (two integers, each starting with a digit, q != 0), an integer, or a decimal
// fraction ("0.25" is 1/4; at most 19 decimal places).
scanned<rational> scan_rational(std::string_view text);

// Boolean: true, True, TRUE, false, False, FALSE (not yes/no).
std::optional<bool> scan_bool(std::string_view text);

// "expected WHAT[ CONTEXT], found FOUND[ (DETAIL)]": the one wording of a refused value. `found`
// is written as given (callers quote a token with quoted()).
std::string expected_found(std::string_view what, std::string_view context, std::string_view found,
                           std::string_view detail = {});
std::string quoted(std::string_view token); // 'token'
// Throws input_error(file, line, expected_found(...)).
[[noreturn]] void fail_expected(const std::string& file, unsigned line, std::string_view what,
                                std::string_view context, std::string_view found, std::string_view detail = {});

// Throwing readers with the wording above. Each takes the token, the file and line to name, and
// the context phrase.
uint64_t parse_integer(std::string_view token, const std::string& file, unsigned line, std::string_view context = {});
// Also refuses 0 Hz and more than limits::max_clock_hz.
uint64_t parse_frequency_hz(std::string_view token, const std::string& file, unsigned line,
                            std::string_view context = {});
uint64_t parse_duration_fs(std::string_view token, const std::string& file, unsigned line,
                           std::string_view context = {});
rational parse_rational(std::string_view token, const std::string& file, unsigned line, std::string_view context = {});

// How a duration or frequency is written.
struct unit_style {
    const char* separator;        // between the number and the unit
    unsigned fraction_digits;     // at most this many decimal places; the largest unit that needs no more
    const char* zero_duration;    // how 0 fs is written
    const char* zero_frequency;   // how 0 Hz is written
};
// Platform listings and messages: "2.5GHz", "32.768kHz", "1.5us", "0ns".
inline constexpr unit_style compact{"", 3, "0ns", "0Hz"};
// Sequence text (reads back to the same value): "1500ns", "2GHz", "0fs".
inline constexpr unit_style exact{"", 0, "0fs", "0GHz"};
// Logs and reports: "1500 ns", "7 fs", "0 s".
inline constexpr unit_style spaced{" ", 0, "0 s", "0 Hz"};

std::string format_duration(uint64_t fs, const unit_style& style = compact);
std::string format_frequency(uint64_t hz, const unit_style& style = compact);

} // namespace pmusim::values
