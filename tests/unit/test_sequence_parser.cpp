// Unit tests for the sequence-language parser (tb/sequence_parser.h).
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>

#include "tb/sequence_parser.h"

using namespace pmusim;
using namespace pmusim::seq;

namespace {

const std::string kFile = "tests/x.seq";
constexpr unsigned kLine = 12;

statement one(const std::string& text) {
    auto s = parse_line(text, kFile, kLine);
    REQUIRE(s.has_value());
    CHECK(s->file == kFile);
    CHECK(s->line == kLine);
    return *s;
}

template <typename T> T as(const std::string& text) {
    statement s = one(text);
    REQUIRE(std::holds_alternative<T>(s.body));
    return std::get<T>(s.body);
}

// Runs `f`, requires an input_error at `line` of kFile whose message contains
// every fragment; returns the full what() text.
template <typename F>
std::string error_of(F&& f, std::initializer_list<const char*> fragments, unsigned line = kLine,
                     const std::string& file = kFile) {
    try {
        f();
    } catch (const input_error& e) {
        INFO("message: " << e.what());
        CHECK(e.file() == file);
        CHECK(e.line() == line);
        CHECK(std::string(e.what()).rfind(file + ":" + std::to_string(line) + ": ", 0) == 0);
        for (const char* frag : fragments) CHECK(e.message().find(frag) != std::string::npos);
        return e.what();
    }
    FAIL("no input_error thrown");
    return {};
}

std::string line_error(const std::string& text, std::initializer_list<const char*> fragments) {
    INFO("line: " << text);
    return error_of([&] { parse_line(text, kFile, kLine); }, fragments);
}

} // namespace

// ---------------------------------------------------------------------------
// Values as the sequence parser reads them (the grammar itself: test_values.cpp)
// ---------------------------------------------------------------------------

TEST_CASE("parser: numbers are decimal or hex with _ separators", "[parser]") {
    CHECK(values::parse_integer("0", kFile, 1) == 0);
    CHECK(values::parse_integer("42", kFile, 1) == 42);
    CHECK(values::parse_integer("1_000_000", kFile, 1) == 1000000);
    CHECK(values::parse_integer("0xFFFF_FFFF", kFile, 1) == 0xFFFFFFFFu);
    CHECK(values::parse_integer("0xdeadBEEF", kFile, 1) == 0xDEADBEEFu);
    CHECK(values::parse_integer("0X10", kFile, 1) == 16);
    CHECK(values::parse_integer("0xFFFF_FFFF_FFFF_FFFF", kFile, 1) == ~uint64_t{0});
    CHECK(values::parse_integer("18446744073709551615", kFile, 1) == ~uint64_t{0});
}

TEST_CASE("parser: bad numbers are errors naming the token", "[parser]") {
    for (const char* bad : {"foo", "", "-1", "+1", "0x", "0xG", "1_", "_1", "1__0", "0x_1", "1.5", "12ab", "0b101"}) {
        INFO("token: '" << bad << "'");
        error_of([&] { values::parse_integer(bad, kFile, 3, "after 'write X'"); },
                 {"expected a number after 'write X', found '"}, 3);
    }
    error_of([&] { values::parse_integer("18446744073709551616", kFile, 3); }, {"fits in 64 bits", "overflow"}, 3);
}

TEST_CASE("parser: hex overflow is an error", "[parser]") {
    error_of([&] { values::parse_integer("0x1_0000_0000_0000_0000", kFile, 4, "after 'write X'"); },
             {"expected a number that fits in 64 bits after 'write X'", "found '0x1_0000_0000_0000_0000'"}, 4);
    line_error("write PMCR_EL0 0x1_0000_0000_0000_0000", {"fits in 64 bits", "after 'write PMCR_EL0'"});
}

TEST_CASE("parser: durations convert exactly to femtoseconds", "[parser]") {
    CHECK(values::parse_duration_fs("7fs", kFile, 1) == 7);
    CHECK(values::parse_duration_fs("3ps", kFile, 1) == 3000);
    CHECK(values::parse_duration_fs("1.5ns", kFile, 1) == 1500000);
    CHECK(values::parse_duration_fs("10us", kFile, 1) == 10'000'000'000ull);
    CHECK(values::parse_duration_fs("250ms", kFile, 1) == 250'000'000'000'000ull);
    CHECK(values::parse_duration_fs("2s", kFile, 1) == 2'000'000'000'000'000ull);
    CHECK(values::parse_duration_fs("0.000000000000001s", kFile, 1) == 1);
    CHECK(values::parse_duration_fs("1.000fs", kFile, 1) == 1);
    CHECK(values::parse_duration_fs("1_000ns", kFile, 1) == 1'000'000'000ull);
    CHECK(values::parse_duration_fs("0ns", kFile, 1) == 0);
    CHECK(values::parse_duration_fs("18446744073709551615fs", kFile, 1) == ~uint64_t{0});
}

TEST_CASE("parser: duration not a whole number of fs is an error", "[parser]") {
    error_of([&] { values::parse_duration_fs("1.5fs", kFile, 5, "after 'run'"); },
             {"expected a duration that is a whole number of femtoseconds after 'run'", "found '1.5fs'"}, 5);
    error_of([&] { values::parse_duration_fs("0.0000000000000001s", kFile, 5); }, {"whole number of femtoseconds"}, 5);
    line_error("run 1.0001ps", {"whole number of femtoseconds", "after 'run'", "'1.0001ps'"});
}

TEST_CASE("parser: duration with a bad or missing unit is an error", "[parser]") {
    error_of([&] { values::parse_duration_fs("10xs", kFile, 6, "after 'run'"); },
             {"expected a duration (a number followed by fs, ps, ns, us, ms or s) after 'run'", "found '10xs'",
              "unknown time unit 'xs'"},
             6);
    error_of([&] { values::parse_duration_fs("10US", kFile, 6); }, {"unknown time unit 'US'"}, 6);
    error_of([&] { values::parse_duration_fs("10", kFile, 6); }, {"expected a duration", "no time unit"}, 6);
    error_of([&] { values::parse_duration_fs("us", kFile, 6); }, {"expected a duration", "found 'us'"}, 6);
    error_of([&] { values::parse_duration_fs("1.ns", kFile, 6); }, {"expected a duration"}, 6);
    error_of([&] { values::parse_duration_fs("0x10ns", kFile, 6); }, {"expected a duration"}, 6);
    line_error("run 10 us", {"expected 'cycles' after 'run 10'", "found 'us'", "unit right after the number"});
    line_error("inject cmn0 5 10 over 3hours", {"expected a duration", "after 'inject cmn0 5 10 over'", "'3hours'"});
}

TEST_CASE("parser: duration overflow is an error", "[parser]") {
    error_of([&] { values::parse_duration_fs("18446744073709551616fs", kFile, 2); }, {"overflow", "expected a duration"}, 2);
    error_of([&] { values::parse_duration_fs("18447s", kFile, 2); }, {"overflow"}, 2);
    CHECK(values::parse_duration_fs("18446s", kFile, 2) == 18'446'000'000'000'000'000ull);
}

TEST_CASE("parser: frequencies convert exactly to Hz", "[parser]") {
    CHECK(values::parse_frequency_hz("1.5GHz", kFile, 1) == 1'500'000'000ull);
    CHECK(values::parse_frequency_hz("100MHz", kFile, 1) == 100'000'000ull);
    CHECK(values::parse_frequency_hz("32.768kHz", kFile, 1) == 32768);
    CHECK(values::parse_frequency_hz("50Hz", kFile, 1) == 50);
    CHECK(values::parse_frequency_hz("2ghz", kFile, 1) == 2'000'000'000ull);
    CHECK(values::parse_frequency_hz("25KHZ", kFile, 1) == 25000);
    CHECK(values::parse_frequency_hz("1_000Hz", kFile, 1) == 1000);
}

TEST_CASE("parser: frequency not a whole number of Hz is an error", "[parser]") {
    error_of([&] { values::parse_frequency_hz("0.3Hz", kFile, 8, "after 'freq cpu0'"); },
             {"expected a frequency that is a whole number of Hz after 'freq cpu0'", "found '0.3Hz'"}, 8);
    error_of([&] { values::parse_frequency_hz("1.0000000001GHz", kFile, 8); }, {"whole number of Hz"}, 8);
    line_error("freq cpu0 0.5Hz", {"whole number of Hz", "after 'freq cpu0'"});
}

TEST_CASE("parser: frequency bad unit / zero or overflow is an error", "[parser]") {
    error_of([&] { values::parse_frequency_hz("3THz", kFile, 8); }, {"expected a frequency", "unknown frequency unit 'THz'"}, 8);
    error_of([&] { values::parse_frequency_hz("1.5", kFile, 8); }, {"expected a frequency", "no frequency unit"}, 8);
    error_of([&] { values::parse_frequency_hz("fast", kFile, 8); }, {"expected a frequency", "found 'fast'"}, 8);
    error_of([&] { values::parse_frequency_hz("0GHz", kFile, 8); }, {"greater than zero"}, 8);
    error_of([&] { values::parse_frequency_hz("18446744074GHz", kFile, 8); }, {"overflow"}, 8);
    line_error("freq cpu0", {"expected a frequency", "after 'freq cpu0'", "found end of line"});
}

TEST_CASE("parser: rates are exact rationals", "[parser]") {
    CHECK(values::parse_rational("3/2", kFile, 1) == rational(3, 2));
    CHECK(values::parse_rational("6/4", kFile, 1) == rational(3, 2));
    CHECK(values::parse_rational("1", kFile, 1) == rational(1));
    CHECK(values::parse_rational("0", kFile, 1) == rational(0));
    CHECK(values::parse_rational("0.25", kFile, 1) == rational(1, 4));
    CHECK(values::parse_rational("2.50", kFile, 1) == rational(5, 2));
    CHECK(values::parse_rational("0/7", kFile, 1) == rational(0));
    CHECK(values::parse_rational("0x10", kFile, 1) == rational(16));
    CHECK(values::parse_rational("1_000/3", kFile, 1) == rational(1000, 3));
    CHECK(values::parse_rational("0.0000000000000000001", kFile, 1) == rational(1, 10'000'000'000'000'000'000ull));
}

TEST_CASE("parser: rate with zero denominator is an error", "[parser]") {
    error_of([&] { values::parse_rational("3/0", kFile, 9, "for 'inst'"); },
             {"expected a rate with a non-zero denominator for 'inst'", "found '3/0'"}, 9);
    line_error("workload cpu0 inst=1/0", {"non-zero denominator", "for 'inst' after 'workload cpu0'", "'1/0'"});
}

TEST_CASE("parser: malformed rates are errors", "[parser]") {
    for (const char* bad : {"", "-1", "1/", "/2", "a/b", "1/2/3", "1e3", ".5", "x", "0.00000000000000000001"}) {
        INFO("token: '" << bad << "'");
        error_of([&] { values::parse_rational(bad, kFile, 9); }, {"expected a rate", "found '"}, 9);
    }
    error_of([&] { values::parse_rational("99999999999999999999", kFile, 9); }, {"overflow"}, 9);
    error_of([&] { values::parse_rational("1/0x1_0000_0000_0000_0000", kFile, 9); }, {"expected a rate", "fits in 64 bits"}, 9);
}

// ---------------------------------------------------------------------------
// Lexical structure
// ---------------------------------------------------------------------------

TEST_CASE("parser: blank and comment-only lines give nothing", "[parser]") {
    CHECK_FALSE(parse_line("", kFile, 1));
    CHECK_FALSE(parse_line("   \t  ", kFile, 1));
    CHECK_FALSE(parse_line("# just a comment", kFile, 1));
    CHECK_FALSE(parse_line("   # indented comment", kFile, 1));
    CHECK_FALSE(parse_line("\r", kFile, 1));
}

TEST_CASE("parser: comments end a line and whitespace separates tokens", "[parser]") {
    auto r = as<reg_read>("\tread   PMCR_EL0\t==  0x41 # comment == 5 -> error");
    CHECK(r.reg == "PMCR_EL0");
    REQUIRE(r.check);
    CHECK(r.check->value == 0x41);
    CHECK_FALSE(r.outcome);
    auto w = as<reg_write>("write X 1#no space needed");
    CHECK(w.value == 1);
    auto crlf = as<do_reset>("reset warm\r");
    CHECK(crlf.kind == reset_kind::warm);
}

TEST_CASE("parser: unknown keyword lists the valid keywords", "[parser]") {
    std::string m = line_error("frobnicate X", {"expected a statement keyword", "at the start of the line",
                                                "found 'frobnicate'"});
    for (const char* kw : {"platform", "as", "read", "write", "read32", "read64", "write32", "write64", "run", "power",
                           "freq", "workload", "inject", "expect", "wait", "reset", "print", "param", "echo", "traffic"})
        CHECK(m.find(kw) != std::string::npos);
    line_error("READ X", {"found 'READ'"});
    line_error("== 5", {"expected a statement keyword", "found '=='"});
}

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

TEST_CASE("parser: platform", "[parser]") {
    CHECK(as<platform_decl>("platform neoverse_n2").name == "neoverse_n2");
    CHECK(as<platform_decl>("platform platforms/n2-2x2.yaml").name == "platforms/n2-2x2.yaml");
    line_error("platform", {"expected a platform name or path after 'platform'", "found end of line"});
    line_error("platform a b", {"expected end of line after 'platform a'", "found 'b'"});
}

TEST_CASE("parser: platform not first is an error", "[parser]") {
    auto ok = parse_sequence("# header\n\nplatform n2\nread X\n", kFile);
    REQUIRE(ok.size() == 2);
    CHECK(std::holds_alternative<platform_decl>(ok[0].body));
    CHECK(ok[0].line == 3);

    error_of([&] { parse_sequence("# header\nread X\nplatform n2\n", kFile); },
             {"expected 'platform' only as the first statement", "line 2"}, 3);
    error_of([&] { parse_sequence("platform a\nplatform b\n", kFile); }, {"first statement"}, 2);
    // parse_line alone accepts it anywhere (the position rule belongs to a file).
    CHECK(parse_line("platform n2", kFile, 99));
}

TEST_CASE("parser: as cpuN with Arm words in any order", "[parser]") {
    auto a = as<as_cpu>("as cpu3");
    CHECK(a.cpu == 3);
    CHECK_FALSE(a.el);
    CHECK_FALSE(a.security);
    CHECK_FALSE(a.guest);
    CHECK_FALSE(a.privilege);

    auto b = as<as_cpu>("as cpu0 guest nonsecure el0");
    CHECK(b.cpu == 0);
    CHECK(b.el == 0u);
    CHECK(b.security == security_state::nonsecure);
    CHECK(b.guest);

    auto c = as<as_cpu>("as cpu12 secure el3");
    CHECK(c.cpu == 12);
    CHECK(c.el == 3u);
    CHECK(c.security == security_state::secure);
    CHECK(as<as_cpu>("as cpu1 el3").el == 3u);
    CHECK(as<as_cpu>("as cpu1 el2 guest").guest);
    CHECK(as<as_cpu>("as cpu1 el1").el == 1u);
}

TEST_CASE("parser: as cpuN with a POWER privilege", "[parser]") {
    CHECK(as<as_cpu>("as cpu2 user").privilege == power_privilege::user);
    CHECK(as<as_cpu>("as cpu2 os").privilege == power_privilege::os);
    auto h = as<as_cpu>("as cpu2 hv");
    CHECK(h.privilege == power_privilege::hv);
    CHECK_FALSE(h.el);
}

TEST_CASE("parser: as combining POWER privilege with EL is an error", "[parser]") {
    line_error("as cpu0 el1 user", {"cannot be combined", "POWER privilege", "after 'as cpu0 el1'", "found 'user'"});
    line_error("as cpu0 hv el2", {"cannot be combined", "POWER privilege", "after 'as cpu0 hv'", "found 'el2'"});
    line_error("as cpu0 os secure", {"cannot be combined", "found 'secure'"});
    line_error("as cpu0 guest user", {"cannot be combined", "found 'user'"});
    line_error("as cpu0 user hv", {"one privilege at most", "found 'hv'"});
}

TEST_CASE("parser: as words at most once and consistent", "[parser]") {
    line_error("as cpu0 el1 el2", {"at most one exception level", "after 'as cpu0 el1'", "found 'el2'"});
    line_error("as cpu0 secure nonsecure", {"at most one of secure, nonsecure", "found 'nonsecure'"});
    line_error("as cpu0 guest guest", {"guest at most once"});
    line_error("as cpu0 el3 nonsecure", {"EL3 is always Secure", "found 'nonsecure'"});
    line_error("as cpu0 nonsecure el3", {"EL3 is always Secure", "found 'el3'"});
    line_error("as cpu0 el3 guest", {"EL3 cannot be a guest"});
    line_error("as cpu0 guest el3", {"EL3 cannot be a guest"});
    line_error("as cpu0 el4", {"expected el0, el1, el2, el3, secure, nonsecure, guest, user, os, hv",
                               "found 'el4'"});
    line_error("as", {"expected cpuN or debug after 'as'", "found end of line"});
    line_error("as gpu0", {"expected cpuN or debug", "found 'gpu0'"});
    line_error("as cpu", {"expected cpuN", "found 'cpu'"});
    line_error("as cpux", {"expected cpuN", "found 'cpux'"});
    line_error("as cpu01", {"expected cpuN", "found 'cpu01'"});
    line_error("as cpu99999999999", {"expected cpuN"});
}

TEST_CASE("parser: as debug", "[parser]") {
    CHECK_FALSE(as<as_debug>("as debug").security);
    CHECK(as<as_debug>("as debug secure").security == security_state::secure);
    CHECK(as<as_debug>("as debug nonsecure").security == security_state::nonsecure);
    line_error("as debug el1", {"expected secure, nonsecure or end of line after 'as debug'", "found 'el1'"});
    line_error("as debug secure secure", {"expected end of line after 'as debug secure'"});
}

TEST_CASE("parser: read REG forms", "[parser]") {
    auto a = as<reg_read>("read AMCNTENSET0_EL0");
    CHECK(a.reg == "AMCNTENSET0_EL0");
    CHECK_FALSE(a.check);
    CHECK_FALSE(a.outcome);

    auto b = as<reg_read>("read S3_3_C13_C2_0 == 0xF");
    REQUIRE(b.check);
    CHECK(b.check->value == 0xF);
    CHECK_FALSE(b.check->has_mask);
    CHECK(b.check->mask == ~uint64_t{0});

    auto c = as<reg_read>("read dsu0.PMEVTYPER2 == 0x11 mask 0xFF -> ok");
    CHECK(c.reg == "dsu0.PMEVTYPER2");
    REQUIRE(c.check);
    CHECK(c.check->value == 0x11);
    CHECK(c.check->has_mask);
    CHECK(c.check->mask == 0xFF);
    CHECK(c.outcome == access_outcome::ok);

    CHECK(as<reg_read>("read PMEVCNTR<n>_EL0 -> undefined").outcome == access_outcome::undefined);
    CHECK(as<reg_read>("read X == 0 -> ok").outcome == access_outcome::ok);
}

TEST_CASE("parser: every OUTCOME word", "[parser]") {
    CHECK(as<reg_write>("write X 1 -> ok").outcome == access_outcome::ok);
    CHECK(as<reg_write>("write X 1 -> trap el1").outcome == access_outcome::trap_el1);
    CHECK(as<reg_write>("write X 1 -> trap el2").outcome == access_outcome::trap_el2);
    CHECK(as<reg_write>("write X 1 -> trap el3").outcome == access_outcome::trap_el3);
    CHECK(as<reg_write>("write X 1 -> undefined").outcome == access_outcome::undefined);
    CHECK(as<reg_write>("write X 1 -> error").outcome == access_outcome::error);
    CHECK(as<reg_write>("write X 1 -> ignored").outcome == access_outcome::ignored);
    CHECK(as<reg_read>("read X -> trap el2").outcome == access_outcome::trap_el2);
}

TEST_CASE("parser: bad OUTCOME is an error", "[parser]") {
    line_error("read X -> fine", {"expected an outcome (ok, trap el1, trap el2, trap el3, undefined, error, ignored)",
                                  "after 'read X ->'", "found 'fine'"});
    line_error("write X 1 ->", {"expected an outcome", "found end of line"});
    line_error("read X -> trap", {"expected el1, el2 or el3 after 'read X -> trap'", "found end of line"});
    line_error("read X -> trap el0", {"expected el1, el2 or el3", "found 'el0'"});
    line_error("read X -> OK", {"expected an outcome", "found 'OK'"});
    line_error("read X == 1 -> trap el1", {"a value check", "after 'read X == 1 ->'", "found 'trap el1'"});
}

TEST_CASE("parser: mask without == is an error", "[parser]") {
    line_error("read X mask 0xFF", {"expected '== VALUE', '-> OUTCOME' or end of line after 'read X'",
                                    "found 'mask'", "only allowed after '== VALUE'"});
    line_error("read32 0x1000 mask 1", {"only allowed after '== VALUE'", "after 'read32 0x1000'"});
    line_error("read X == 1 mask 1 mask 2", {"mask given twice"});
    line_error("read X -> ok mask 1", {"expected end of line after 'read X -> ok'", "found 'mask'"});
}

TEST_CASE("parser: read operand errors", "[parser]") {
    line_error("read", {"expected a register name", "after 'read'", "found end of line"});
    line_error("read X$", {"expected a register name", "found 'X$'"});
    line_error("read X ==", {"expected a value after 'read X =='", "found end of line"});
    line_error("read X == foo", {"expected a number after 'read X =='", "found 'foo'"});
    line_error("read X == 1 mask", {"expected a mask after 'read X == 1 mask'", "found end of line"});
    line_error("read X = 1", {"expected '== VALUE', '-> OUTCOME' or end of line", "found '='"});
    line_error("read X == 1 foo", {"expected 'mask M', '-> OUTCOME' or end of line after 'read X == 1'",
                                   "found 'foo'"});
}

TEST_CASE("parser: write REG forms and errors", "[parser]") {
    auto w = as<reg_write>("write AMCR_EL0 0x1_0000");
    CHECK(w.reg == "AMCR_EL0");
    CHECK(w.value == 0x10000);
    CHECK_FALSE(w.outcome);
    auto e = line_error("write AMCR_EL0 foo", {"expected a number after 'write AMCR_EL0', found 'foo'"});
    CHECK(e == "tests/x.seq:12: expected a number after 'write AMCR_EL0', found 'foo'");
    line_error("write AMCR_EL0", {"expected a number after 'write AMCR_EL0'", "found end of line"});
    line_error("write", {"expected a register name", "after 'write'", "found end of line"});
    line_error("write X 1 == 1", {"expected 'mask M', '-> OUTCOME' or end of line after 'write X 1'", "found '=='"});
}

TEST_CASE("parser: write REG VALUE mask M read-modify-write", "[parser]") {
    auto w = as<reg_write>("write ACTLR_EL3 0x1000 mask 0x1000 -> ok");
    CHECK(w.reg == "ACTLR_EL3");
    CHECK(w.value == 0x1000);
    REQUIRE(w.mask);
    CHECK(*w.mask == 0x1000);
    CHECK(w.outcome == access_outcome::ok);
    CHECK(to_string(statement_body{w}) == "write ACTLR_EL3 0x1000 mask 0x1000 -> ok");
    auto clear = as<reg_write>("write CPTR_EL3 0 mask 0x4000_0000");
    CHECK(clear.value == 0);
    CHECK(*clear.mask == 0x40000000);
    CHECK(to_string(statement_body{clear}) == "write CPTR_EL3 0x0 mask 0x40000000");
    CHECK_FALSE(as<reg_write>("write X 1").mask);
    line_error("write X 0x3 mask 0x1", {"expected a mask covering every bit VALUE sets after 'write X 0x3 mask'",
                                        "found '0x1'", "VALUE 0x3 sets bits outside the mask"});
    line_error("write X 1 mask", {"expected a mask after 'write X 1 mask'", "found end of line"});
    line_error("write X 1 mask 1 mask 1", {"expected '-> OUTCOME' or end of line", "found 'mask'", "mask given twice"});
    line_error("write X 1 mask 1 == 1", {"expected '-> OUTCOME' or end of line after 'write X 1 mask 1'", "found '=='"});
}

TEST_CASE("parser: read32/read64/write32/write64", "[parser]") {
    auto r = as<mem_read>("read32 0x2A00_0000 == 0xFFFF_FFFF mask 0x0000_FFFF -> ok");
    CHECK(r.width == 32);
    CHECK(r.address == 0x2A000000);
    REQUIRE(r.check);
    CHECK(r.check->value == 0xFFFFFFFF);
    CHECK(r.check->mask == 0xFFFF);
    CHECK(r.outcome == access_outcome::ok);

    auto r64 = as<mem_read>("read64 0x1_0000_0000 == 0x1_0000_0000 -> ok");
    CHECK(r64.width == 64);
    CHECK(r64.address == 0x100000000ull);
    CHECK(r64.check->value == 0x100000000ull);

    auto bare = as<mem_read>("read64 4096 -> error");
    CHECK(bare.address == 4096);
    CHECK_FALSE(bare.check);
    CHECK(bare.outcome == access_outcome::error);

    auto w = as<mem_write>("write32 0x1000 0xFFFF_FFFF -> ignored");
    CHECK(w.width == 32);
    CHECK(w.address == 0x1000);
    CHECK(w.value == 0xFFFFFFFF);
    CHECK(w.outcome == access_outcome::ignored);

    auto w64 = as<mem_write>("write64 0x1008 0xFFFF_FFFF_FFFF_FFFF");
    CHECK(w64.width == 64);
    CHECK(w64.value == ~uint64_t{0});
    CHECK_FALSE(w64.outcome);

    line_error("read32", {"expected an address after 'read32'", "found end of line"});
    line_error("write64 0x10", {"expected a value after 'write64 0x10'", "found end of line"});
    line_error("write32 zz 1", {"expected a number after 'write32'", "found 'zz'"});
}

TEST_CASE("parser: read32 value too wide is an error", "[parser]") {
    line_error("read32 0x1000 == 0x1_0000_0000", {"expected a 32-bit value after 'read32 0x1000 =='", "found '0x1_0000_0000'",
                                                  "fit in 32 bits"});
    line_error("read32 0x1000 == 1 mask 0x1_FFFF_FFFF", {"expected a 32-bit mask after 'read32 0x1000 == 1 mask'"});
    line_error("write32 0x1000 0x1_0000_0000", {"expected a 32-bit value after 'write32 0x1000'", "found '0x1_0000_0000'"});
    // 64-bit addresses are fine for 32-bit accesses; only the data is 32-bit.
    CHECK(as<mem_read>("read32 0xFFFF_0000_0000 == 0xFFFF_FFFF").address == 0xFFFF00000000ull);
}

TEST_CASE("parser: run cycles and run duration", "[parser]") {
    auto a = as<run_cycles>("run 1000 cycles");
    CHECK(a.cycles == 1000);
    CHECK_FALSE(a.clock);
    auto b = as<run_cycles>("run 0x10 cycles of const");
    CHECK(b.cycles == 16);
    CHECK(b.clock == std::string("const"));
    CHECK(as<run_cycles>("run 0 cycles of cpu1").cycles == 0);
    CHECK(as<run_cycles>("run 1_000 cycles of cmn0").clock == std::string("cmn0"));
    CHECK(as<run_time>("run 10us").duration_fs == 10'000'000'000ull);
    CHECK(as<run_time>("run 1.5ns").duration_fs == 1'500'000ull);
    CHECK(as<run_time>("run 0s").duration_fs == 0);

    line_error("run", {"expected a cycle count (N cycles) or a duration", "after 'run'", "found end of line"});
    line_error("run forever", {"expected a cycle count", "found 'forever'"});
    line_error("run 10", {"expected 'cycles'", "after 'run 10'", "found end of line"});
    line_error("run 10 cycle", {"expected 'cycles'", "found 'cycle'"});
    line_error("run 10 cycles of", {"expected a clock name", "after 'run 10 cycles of'", "found end of line"});
    line_error("run 10 cycles on cpu0", {"expected 'of CLOCK' or end of line after 'run 10 cycles'", "found 'on'"});
    line_error("run 10us 5", {"expected end of line after 'run 10us'", "found '5'"});
}

TEST_CASE("parser: power", "[parser]") {
    auto p = as<set_power>("power cpu1 wfi");
    CHECK(p.cpu == 1);
    CHECK(p.state == cpu_power_state::wfi);
    CHECK(as<set_power>("power cpu0 run").state == cpu_power_state::run);
    CHECK(as<set_power>("power cpu0 wfe").state == cpu_power_state::wfe);
    CHECK(as<set_power>("power cpu7 off").state == cpu_power_state::off);
    line_error("power cpu0", {"expected run, wfi, wfe or off after 'power cpu0'", "found end of line"});
    line_error("power cpu0 sleep", {"expected run, wfi, wfe or off", "found 'sleep'"});
    line_error("power dsu0 off", {"expected cpuN", "after 'power'", "found 'dsu0'"});
}

TEST_CASE("parser: security", "[parser]") {
    auto x = as<set_security>("security cpu2 secure");
    CHECK(x.cpu == 2);
    CHECK(x.state == security_state::secure);
    CHECK(as<set_security>("security cpu0 nonsecure").state == security_state::nonsecure);
    CHECK(to_string(statement_body{x}) == "security cpu2 secure");
    line_error("security cpu0", {"expected secure or nonsecure after 'security cpu0'", "found end of line"});
    line_error("security cpu0 realm", {"expected secure or nonsecure", "found 'realm'"});
}

TEST_CASE("parser: freq", "[parser]") {
    auto f = as<set_freq>("freq cpu0 1.5GHz");
    CHECK(f.clock == "cpu0");
    CHECK(f.hz == 1'500'000'000ull);
    CHECK(as<set_freq>("freq const 100MHz").hz == 100'000'000ull);
    CHECK(as<set_freq>("freq tb 512mhz").clock == "tb");
    line_error("freq", {"expected a clock name", "found end of line"});
    line_error("freq cpu0 2GHz fast", {"expected end of line after 'freq cpu0 2GHz'", "found 'fast'"});
}

TEST_CASE("parser: workload", "[parser]") {
    auto w = as<set_workload>("workload cpu2 inst=1 l1d_refill=3/200 br_mis=0.25 stall=0");
    CHECK(w.cpu == 2);
    REQUIRE(w.rates.size() == 4);
    CHECK(w.rates[0].first == "inst");
    CHECK(w.rates[0].second == rational(1));
    CHECK(w.rates[1].first == "l1d_refill");
    CHECK(w.rates[1].second == rational(3, 200));
    CHECK(w.rates[2].first == "br_mis");
    CHECK(w.rates[2].second == rational(1, 4));
    CHECK(w.rates[3].first == "stall");
    CHECK(w.rates[3].second.is_zero());

    line_error("workload cpu0", {"expected KEY=RATE", "after 'workload cpu0'", "found end of line"});
    line_error("workload cpu0 inst", {"expected KEY=RATE", "found 'inst'"});
    line_error("workload cpu0 Inst=1", {"KEY made of a-z, 0-9 and _", "found 'Inst=1'"});
    line_error("workload cpu0 =1", {"KEY made of a-z", "found '=1'"});
    line_error("workload cpu0 inst=fast", {"expected a rate", "for 'inst' after 'workload cpu0'", "found 'fast'"});
    line_error("workload cpu0 inst=-1", {"expected a rate", "found '-1'"});
    line_error("workload inst=1", {"expected cpuN", "found 'inst=1'"});
}

TEST_CASE("parser: duplicate workload key is an error", "[parser]") {
    line_error("workload cpu0 inst=1 cyc=2 inst=2",
               {"expected each workload key at most once after 'workload cpu0 inst=1 cyc=2'", "found 'inst=2'",
                "duplicate key 'inst'"});
}

TEST_CASE("parser: traffic", "[parser]") {
    auto t = as<command_call>("traffic cmn0 1,0 p1.2 rate=1/20 range=0x80000000-0x8fffffff mix=ReadShared:3 count=5");
    CHECK(t.unit == "cmn0");
    CHECK(t.verb == "traffic");
    CHECK(t.verb_first);
    CHECK(t.args == std::vector<std::string>{"1,0", "p1.2", "rate=1/20", "range=0x80000000-0x8fffffff",
                                             "mix=ReadShared:3", "count=5"});
    CHECK(as<command_call>("traffic cmn1 0,0 p0 off").args == std::vector<std::string>{"0,0", "p0", "off"});

    line_error("traffic cmn0 1;0 p0 off", {"expected a requester crosspoint X,Y", "after 'traffic cmn0'", "'1;0'"});
    line_error("traffic cmn0 1,0 q0 off", {"expected a requester port p0 or p1", "found 'q0'"});
    line_error("traffic cmn0 1,0 p0.4 off", {"expected a requester port", "found 'p0.4'"});
    line_error("traffic cmn0 1,0 p0", {"expected 'off' or KEY=VALUE settings", "found end of line"});
    line_error("traffic cmn0 1,0 p0 off rate=1", {"expected end of line", "after 'traffic cmn0 1,0 p0 off'"});
    line_error("traffic cmn0 1,0 p0 speed=3", {"expected 'off' or KEY=VALUE", "found 'speed=3'"});
    line_error("traffic cmn0 1,0 p0 rate=", {"expected 'off' or KEY=VALUE", "found 'rate='"});
    line_error("traffic cmn0 1,0 p0 rate=fast", {"expected a rate", "for 'rate' after 'traffic cmn0 1,0 p0'"});
    line_error("traffic cmn0 1,0 p0 count=1 count=2",
               {"expected each setting at most once", "found 'count=2'", "duplicate key 'count'"});
}

// Unit commands (models/unit_command.h): `UNIT VERB ARGS`, the verb's arguments read by the
// command's own grammar; the old verb-first spellings give the same statement.
TEST_CASE("parser: unit commands in the generic form", "[parser]") {
    auto t = as<command_call>("cmn0 traffic 1,0 p0 rate=1/20 range=0x80000000-0x8000003f mix=ReadShared");
    CHECK(t.unit == "cmn0");
    CHECK(t.verb == "traffic");
    CHECK_FALSE(t.verb_first);
    CHECK(t.args == as<command_call>("traffic cmn0 1,0 p0 rate=1/20 range=0x80000000-0x8000003f mix=ReadShared").args);
    CHECK(to_string(one("cmn0 traffic 1,0 p0 off").body) == "cmn0 traffic 1,0 p0 off");
    CHECK(to_string(one("traffic cmn0 1,0 p0 off").body) == "traffic cmn0 1,0 p0 off");
    CHECK(keyword(one("cmn0 traffic 1,0 p0 off").body) == "traffic");
    auto o = as<command_call>("imc0 opal imc_counters_init core 0x1040_2000 cpu4");
    CHECK(o.unit == "imc0");
    CHECK(o.args == std::vector<std::string>{"imc_counters_init", "core", "0x10402000", "cpu4"});
    CHECK(to_string(one("opal imc_counters_stop nest cpu0").body) == "opal imc_counters_stop nest cpu0");
    CHECK(as<command_call>("opal imc_counters_stop nest cpu0").unit.empty());

    // Bad arguments: the command's grammar, with the words read so far.
    line_error("cmn0 traffic 1;0 p0 off", {"expected a requester crosspoint X,Y", "after 'cmn0 traffic'", "'1;0'"});
    line_error("cmn0 traffic 1,0 p0 speed=3", {"expected 'off' or KEY=VALUE", "after 'cmn0 traffic 1,0 p0'",
                                               "found 'speed=3'"});
    line_error("imc0 opal imc_counters_start core 0x100 cpu0",
               {"expected cpuN", "after 'imc0 opal imc_counters_start core'", "found '0x100'"});
    // An unknown verb: neither a keyword nor a unit command.
    std::string m = line_error("cmn0 trafic 1,0 p0 off", {"expected a statement keyword (", "or a unit command UNIT VERB",
                                                           "at the start of the line", "found 'cmn0'",
                                                           "'trafic' is not a unit command either"});
    CHECK(m.find("opal, traffic") != std::string::npos);
}

TEST_CASE("parser: inject", "[parser]") {
    auto a = as<inject_events>("inject cmn0.xp3 hnf_cache_miss 100");
    CHECK(a.unit == "cmn0");
    CHECK(a.node == std::string("xp3"));
    CHECK(a.event == "hnf_cache_miss");
    CHECK(a.count == 100);
    CHECK_FALSE(a.over_fs);

    auto b = as<inject_events>("inject dsu0 0x11 1_000 over 10us");
    CHECK(b.unit == "dsu0");
    CHECK_FALSE(b.node);
    CHECK(b.event == "0x11");
    CHECK(b.count == 1000);
    CHECK(b.over_fs == 10'000'000'000ull);

    auto c = as<inject_events>("inject cmn0.xp3.port1 5 0");
    CHECK(c.node == std::string("xp3.port1"));
    CHECK(c.count == 0);

    line_error("inject", {"expected UNIT or UNIT.NODE", "found end of line"});
    line_error("inject cmn0. 5 1", {"expected UNIT or UNIT.NODE", "found 'cmn0.'"});
    line_error("inject cmn0", {"expected an event", "after 'inject cmn0'"});
    line_error("inject cmn0 5", {"expected a count after 'inject cmn0 5'", "found end of line"});
    line_error("inject cmn0 5 many", {"expected a number after 'inject cmn0 5'", "found 'many'"});
    line_error("inject cmn0 5 1 over", {"expected a duration", "after 'inject cmn0 5 1 over'"});
    line_error("inject cmn0 5 1 during 1us", {"expected 'over DURATION' or end of line", "found 'during'"});
}

TEST_CASE("parser: expect irq and wait irq", "[parser]") {
    auto e = as<expect_irq>("expect irq cpu0.pmuirq high");
    CHECK(e.line == "cpu0.pmuirq");
    CHECK(e.level == irq_level::high);
    CHECK(as<expect_irq>("expect irq cmn0 low").level == irq_level::low);

    auto w = as<wait_irq>("wait irq dsu0.irq high timeout 5ms");
    CHECK(w.line == "dsu0.irq");
    CHECK(w.level == irq_level::high);
    CHECK(w.timeout_fs == 5'000'000'000'000ull);
    auto w2 = as<wait_irq>("wait irq cpu1.pmuirq low");
    CHECK(w2.level == irq_level::low);
    CHECK_FALSE(w2.timeout_fs);
    CHECK(default_wait_timeout_fs == 1'000'000'000'000'000ull);

    line_error("expect", {"expected 'irq' after 'expect'", "found end of line"});
    line_error("expect fiq x high", {"expected 'irq'", "found 'fiq'"});
    line_error("expect irq", {"expected an interrupt line name after 'expect irq'"});
    line_error("expect irq x", {"expected high or low after 'expect irq x'", "found end of line"});
    line_error("expect irq x 1", {"expected high or low", "found '1'"});
    line_error("wait irq x high timeout", {"expected a duration", "after 'wait irq x high timeout'"});
    line_error("wait irq x high 5ms", {"expected 'timeout DURATION' or end of line", "found '5ms'"});
    line_error("wait 5ms", {"expected 'irq' after 'wait'", "found '5ms'"});
}

TEST_CASE("parser: reset / print / param / echo", "[parser]") {
    CHECK(as<do_reset>("reset cold").kind == reset_kind::cold);
    CHECK(as<do_reset>("reset warm").kind == reset_kind::warm);
    line_error("reset", {"expected cold or warm after 'reset'", "found end of line"});
    line_error("reset hot", {"expected cold or warm", "found 'hot'"});

    CHECK(as<print_reg>("print PMCCNTR_EL0").reg == "PMCCNTR_EL0");
    line_error("print", {"expected a register name", "after 'print'"});
    line_error("print A B", {"expected end of line after 'print A'", "found 'B'"});

    CHECK(as<print_param>("param cmn0.periphbase").name == "cmn0.periphbase");
    line_error("param", {"expected a parameter name", "found end of line"});
    line_error("param cmn0..x", {"expected a parameter name", "found 'cmn0..x'"});

    CHECK(as<echo_text>("echo   hello,   world!  # not printed").text == "hello,   world!");
    CHECK(as<echo_text>("echo").text.empty());
    CHECK(as<echo_text>("echo == -> mask 0x5").text == "== -> mask 0x5");
}

TEST_CASE("parser: trailing tokens are errors", "[parser]") {
    line_error("reset cold now", {"expected end of line after 'reset cold'", "found 'now'"});
    line_error("power cpu0 off now", {"expected end of line after 'power cpu0 off'", "found 'now'"});
    line_error("read X == 1 mask 2 -> ok extra", {"expected end of line after 'read X == 1 mask 2 -> ok'",
                                                  "found 'extra'"});
    line_error("write64 0 0 -> trap el2 x", {"expected end of line", "found 'x'"});
    line_error("expect irq x high y", {"expected end of line after 'expect irq x high'", "found 'y'"});
    line_error("param a b", {"expected end of line after 'param a'"});
    line_error("as cpu0 el1 secure guest extra", {"found 'extra'"});
}

TEST_CASE("parser: missing operands", "[parser]") {
    line_error("write X", {"expected a number", "found end of line"});
    line_error("power", {"expected cpuN", "after 'power'", "found end of line"});
    line_error("workload", {"expected cpuN", "after 'workload'", "found end of line"});
    line_error("freq cpu0", {"expected a frequency", "found end of line"});
    line_error("inject cmn0 ev", {"expected a count", "found end of line"});
}

// ---------------------------------------------------------------------------
// Whole files
// ---------------------------------------------------------------------------

TEST_CASE("parser: parse_sequence numbers lines and records the file", "[parser]") {
    const char* text =
        "platform n2.yaml\r\n"
        "# comment\r\n"
        "as cpu0 el0\r\n"
        "\r\n"
        "write AMCNTENSET0_EL0 0xF   # enable\r\n"
        "run 100 cycles\r\n"
        "read AMEVCNTR00_EL0 == 100 -> ok";
    auto seq = parse_sequence(text, "a/b.seq");
    REQUIRE(seq.size() == 5);
    CHECK(seq[0].line == 1);
    CHECK(seq[1].line == 3);
    CHECK(seq[2].line == 5);
    CHECK(seq[3].line == 6);
    CHECK(seq[4].line == 7);
    for (auto& s : seq) CHECK(s.file == "a/b.seq");
    CHECK(std::get<reg_read>(seq[4].body).check->value == 100);
    CHECK(parse_sequence("", "e.seq").empty());
    CHECK(parse_sequence("\n\n# x\n", "e.seq").empty());
}

TEST_CASE("parser: parse_sequence stops at the first error with its line", "[parser]") {
    error_of([] { parse_sequence("read X\nwrite X 1\nwrite X foo\nbogus\n", "f.seq"); },
             {"expected a number after 'write X', found 'foo'"}, 3, "f.seq");
}

TEST_CASE("parser: to_string gives canonical text that parses back", "[parser]") {
    for (const char* text :
         {"platform n2.yaml", "as cpu0", "as cpu1 el2 nonsecure guest", "as cpu3 el3 secure", "as cpu0 hv",
          "as debug", "as debug secure", "read X", "read X == 0x5 mask 0xf -> ok", "read X -> trap el3",
          "write X 0x1 -> ignored", "read32 0x1000 == 0xffffffff", "read64 0x0 -> error", "write32 0x10 0x0",
          "write64 0x10 0xffffffffffffffff -> undefined", "run 10 cycles", "run 0 cycles of const", "run 1500ps",
          "run 1s", "run 0fs", "power cpu0 wfe", "freq cpu0 1500MHz", "freq tb 32768Hz",
          "workload cpu0 inst=1 refill=3/2", "inject cmn0.xp1 ev 5 over 1us", "inject dsu0 0x11 3",
          "expect irq cpu0.pmuirq low", "wait irq x high timeout 2ms", "wait irq x low", "reset warm",
          "print PMCR_EL0", "param cmn0.periphbase", "echo hello  world", "traffic cmn0 1,0 p0 off",
          "traffic cmn0 0,1 p1.1 rate=1/10 mix=ReadNoSnp:1,WriteBackFull:2 seed=0x5"}) {
        INFO(text);
        auto s = one(text);
        std::string canon = to_string(s.body);
        CHECK(canon == text);
        auto again = parse_line(canon, kFile, 1);
        REQUIRE(again);
        CHECK(to_string(again->body) == canon);
    }
    CHECK(to_string(one("read X == 5").body) == "read X == 0x5");
    CHECK(to_string(one("run 1.5ns").body) == "run 1500ps");
    CHECK(to_string(one("workload cpu0 a=0.25").body) == "workload cpu0 a=1/4");
    CHECK(keyword(one("read32 0 -> ok").body) == "read32");
    CHECK(keyword(one("as debug").body) == "as");
    CHECK(keyword(one("wait irq x high").body) == "wait");
}
