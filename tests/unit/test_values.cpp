// Unit tests of the one value grammar and formatter (models/values.h, docs/values.md).
#include <catch2/catch.hpp>

#include <string>

#include "models/input_error.h"
#include "models/values.h"
#include "tb/sequence_parser.h"

using namespace pmusim;
using namespace pmusim::values;

namespace {

// The whole what() text of the input_error `f` throws.
template <typename F> std::string message_of(F&& f) {
    try {
        f();
    } catch (const input_error& e) {
        return e.what();
    }
    FAIL("no input_error thrown");
    return {};
}

} // namespace

TEST_CASE("values: integers are decimal or 0x hex with _ between digits and never octal", "[values]") {
    CHECK(*scan_integer("0") == 0);
    CHECK(*scan_integer("42") == 42);
    CHECK(*scan_integer("010") == 10); // leading zeros are decimal
    CHECK(*scan_integer("0x010") == 16);
    CHECK(*scan_integer("1_000_000") == 1000000);
    CHECK(*scan_integer("0x8000_0000") == 0x80000000u);
    CHECK(*scan_integer("0XdeadBEEF") == 0xDEADBEEFu);
    CHECK(*scan_integer(" 7\t") == 7); // spaces and tabs around a value are not part of it
    CHECK(*scan_integer("18446744073709551615") == UINT64_MAX);
    CHECK(*scan_integer("0xFFFF_FFFF_FFFF_FFFF") == UINT64_MAX);
    for (const char* bad : {"", " ", "-1", "+1", "0x", "0xG", "1_", "_1", "1__0", "0x_1", "0b101", "0o7", "1.5",
                            "1e3", "12ab", "1 000"}) {
        INFO("'" << bad << "'");
        CHECK(scan_integer(bad).why == fault::malformed);
    }
    CHECK(scan_integer("18446744073709551616").why == fault::overflow); // 2^64
    CHECK(scan_integer("0x1_0000_0000_0000_0000").why == fault::overflow);
}

TEST_CASE("values: frequencies are exact Hz and a bare integer is Hz", "[values]") {
    CHECK(*scan_frequency("2GHz") == 2'000'000'000u);
    CHECK(*scan_frequency("2.5GHz") == 2'500'000'000u);
    CHECK(*scan_frequency("32.768kHz") == 32768u);
    CHECK(*scan_frequency("1_000 MHz") == 1'000'000'000u);
    CHECK(*scan_frequency("100mhz") == 100'000'000u);
    CHECK(*scan_frequency("25KHZ") == 25000u);
    CHECK(*scan_frequency("010MHz") == 10'000'000u);
    CHECK(*scan_frequency("25000000") == 25'000'000u);
    CHECK(*scan_frequency("0Hz") == 0u); // spelled right; whether 0 is allowed is the reader's rule
    CHECK(scan_frequency("1.5").why == fault::no_unit);
    CHECK(scan_frequency("0.3Hz").why == fault::not_whole);
    CHECK(scan_frequency("18446744074GHz").why == fault::overflow);
    CHECK(scan_frequency("fast").why == fault::malformed);
    CHECK(scan_frequency("0x10").why == fault::unknown_unit);
    const auto t = scan_frequency("3THz");
    CHECK(t.why == fault::unknown_unit);
    CHECK(t.part == "THz");
    CHECK(scan_frequency("2 GHz/s").why == fault::unknown_unit);
}

TEST_CASE("values: durations are exact femtoseconds and only 0 needs no unit", "[values]") {
    CHECK(*scan_duration("10ns") == 10'000'000u);
    CHECK(*scan_duration("1.5us") == 1'500'000'000u);
    CHECK(*scan_duration("7fs") == 7u);
    CHECK(*scan_duration("2 s") == 2'000'000'000'000'000u);
    CHECK(*scan_duration("0") == 0u);
    CHECK(*scan_duration("1.0000000000000000000s") == 1'000'000'000'000'000u); // trailing zeros are exact
    CHECK(scan_duration("10").why == fault::no_unit);
    CHECK(scan_duration("0.0").why == fault::no_unit);
    CHECK(scan_duration("10US").why == fault::unknown_unit); // units are exact case
    CHECK(scan_duration("1.5fs").why == fault::not_whole);
    CHECK(scan_duration("18447s").why == fault::overflow);
    CHECK(scan_duration("-1ns").why == fault::malformed);
    CHECK(scan_duration("1.ns").why == fault::malformed);
}

TEST_CASE("values: sizes are integers or KiB/MiB/GiB/TiB", "[values]") {
    CHECK(*scan_size("0x1000") == 0x1000u);
    CHECK(*scan_size("16MiB") == 16u << 20);
    CHECK(*scan_size("64 KiB") == 64u << 10);
    CHECK(*scan_size("1_024") == 1024u);
    CHECK(scan_size("1.5MiB").why == fault::malformed);
    CHECK(scan_size("16MB").why == fault::unknown_unit);
    CHECK(scan_size("16777216TiB").why == fault::overflow);
    CHECK(scan_size("18446744073709551616").why == fault::overflow);
}

TEST_CASE("values: rationals are p/q or integers or decimal fractions", "[values]") {
    CHECK(*scan_rational("3/2") == rational(3, 2));
    CHECK(*scan_rational("0.25") == rational(1, 4));
    CHECK(*scan_rational("0x10") == rational(16));
    CHECK(*scan_rational("010") == rational(10));
    CHECK(scan_rational("3/0").why == fault::zero_denominator);
    CHECK(scan_rational("0.00000000000000000001").why == fault::too_precise);
    CHECK(scan_rational("99999999999999999999").why == fault::overflow);
    const auto r = scan_rational("1/2/3");
    CHECK(r.why == fault::malformed);
    CHECK(r.part == "2/3");
    CHECK(scan_rational("-1/2").why == fault::malformed);
}

TEST_CASE("values: booleans are true or false in three spellings", "[values]") {
    for (const char* t : {"true", "True", "TRUE", " true "}) CHECK(scan_bool(t) == std::optional<bool>(true));
    for (const char* f : {"false", "False", "FALSE"}) CHECK(scan_bool(f) == std::optional<bool>(false));
    for (const char* bad : {"yes", "no", "1", "0", "tRuE", ""}) CHECK_FALSE(scan_bool(bad).has_value());
}

TEST_CASE("values: one error wording names file:line and what was expected and found", "[values]") {
    CHECK(message_of([] { parse_integer("12ab", "a.seq", 3, "after 'write X'"); }) ==
          "a.seq:3: expected a number after 'write X', found '12ab'");
    CHECK(message_of([] { parse_integer("18446744073709551616", "a.seq", 3); }) ==
          "a.seq:3: expected a number that fits in 64 bits, found '18446744073709551616' (overflow)");
    CHECK(message_of([] { parse_duration_fs("10", "b.yaml", 4, "for 'at'"); }) ==
          "b.yaml:4: expected a duration (a number followed by fs, ps, ns, us, ms or s) for 'at', found '10' "
          "(no time unit)");
    CHECK(message_of([] { parse_frequency_hz("3THz", "c.seq", 5); }) ==
          "c.seq:5: expected a frequency (a number followed by Hz, kHz, MHz or GHz), found '3THz' "
          "(unknown frequency unit 'THz')");
    CHECK(message_of([] { parse_frequency_hz("0", "c.seq", 5); }) ==
          "c.seq:5: expected a frequency greater than zero, found '0'");
    CHECK(message_of([] { parse_rational("1/2/3", "d.seq", 6); }) ==
          "d.seq:6: expected a rate (p/q, an integer or a decimal such as 0.25), found '1/2/3' "
          "(expected a number, found '2/3')");
}

TEST_CASE("values: one formatter for durations and frequencies in three styles", "[values]") {
    CHECK(format_duration(1'500'000) == "1.5ns");
    CHECK(format_duration(1'500'000, exact) == "1500ps");
    CHECK(format_duration(1'500'000, spaced) == "1500 ps");
    CHECK(format_duration(1'234) == "1.234ps");
    CHECK(format_duration(1'234, spaced) == "1234 fs");
    CHECK(format_duration(7, spaced) == "7 fs");
    CHECK(format_duration(0) == "0ns");
    CHECK(format_duration(0, exact) == "0fs");
    CHECK(format_duration(0, spaced) == "0 s");
    CHECK(format_frequency(2'500'000'000) == "2.5GHz");
    CHECK(format_frequency(2'500'000'000, exact) == "2500MHz");
    CHECK(format_frequency(32768) == "32.768kHz");
    CHECK(format_frequency(32769) == "32.769kHz");
    CHECK(format_frequency(999) == "999Hz");
    CHECK(format_frequency(0) == "0Hz");
    // What a formatter writes reads back to the same value.
    for (uint64_t v : {1ull, 999ull, 1'000ull, 1'500'000ull, 32'768ull, 2'500'000'000ull, 123'456'789'012'345ull,
                       18'446'000'000'000'000'000ull}) {
        INFO(v);
        for (const unit_style* s : {&compact, &exact, &spaced}) {
            CHECK(*scan_duration(format_duration(v, *s)) == v);
            CHECK(*scan_frequency(format_frequency(v, *s)) == v);
        }
    }
}

TEST_CASE("values: sequences read a bare frequency as Hz like platform YAML", "[values]") {
    const auto s = seq::parse_line("freq cpu0 25000000", "a.seq", 1);
    REQUIRE(s.has_value());
    REQUIRE(std::holds_alternative<seq::set_freq>(s->body));
    CHECK(std::get<seq::set_freq>(s->body).hz == 25'000'000u);
    CHECK(message_of([] { seq::parse_line("freq cpu0 0", "a.seq", 2); }) ==
          "a.seq:2: expected a frequency greater than zero after 'freq cpu0', found '0'");
}
