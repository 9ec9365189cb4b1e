// Unit tests for the sequence language's files, names and loops: expressions
// (tb/sequence_expression.h) and the expansion of include/let/repeat (tb/sequence_expansion.cpp).
// Expected values are C's arithmetic on unsigned 64-bit integers (C17 6.5.5-6.5.12).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "models/limits.h"
#include "tb/sequence_parser.h"

using namespace pmusim;
using namespace pmusim::seq;

namespace {

uint64_t eval(const std::string& text, const name_table& names = {}) { return evaluate(text, names, "e.seq", 3); }

std::string eval_error(const std::string& text, const name_table& names = {}) {
    try {
        evaluate(text, names, "e.seq", 3);
    } catch (const input_error& e) {
        CHECK(e.file() == "e.seq");
        CHECK(e.line() == 3);
        return e.message();
    }
    FAIL("no input_error for '" << text << "'");
    return {};
}

// A scratch folder of files, removed afterwards.
struct scratch {
    std::filesystem::path dir;
    scratch() {
        std::string pattern = (std::filesystem::temp_directory_path() / "pmusim-seqlang-XXXXXX").string();
        REQUIRE(::mkdtemp(pattern.data()));
        dir = pattern;
    }
    ~scratch() { std::filesystem::remove_all(dir); }
    std::string write(const std::string& name, const std::string& text) const {
        std::filesystem::create_directories((dir / name).parent_path());
        std::ofstream(dir / name, std::ios::binary) << text;
        return (dir / name).string();
    }
};

std::vector<statement> parse_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parse_sequence(text, path);
}

} // namespace

TEST_CASE("expressions: C precedence and associativity", "[language]") {
    CHECK(eval("1 + 2 * 3") == 7);
    CHECK(eval("(1 + 2) * 3") == 9);
    CHECK(eval("10 - 4 - 3") == 3); // left associative
    CHECK(eval("64 / 4 / 2") == 8);
    CHECK(eval("17 % 5") == 2);
    CHECK(eval("1 << 4 + 1") == 32); // + binds tighter than <<
    CHECK(eval("0x100 >> 4") == 0x10);
    CHECK(eval("0x11 | 0x10 & 0") == 0x11); // & binds tighter than |
    CHECK(eval("0x11 ^ 0x10 & 0") == 0x11); // & binds tighter than ^
    CHECK(eval("6 ^ 3 | 8") == 13);         // ^ binds tighter than |
    CHECK(eval("~0") == ~uint64_t{0});
    CHECK(eval("~~5") == 5);
    CHECK(eval("~0xF & 0xFF") == 0xF0);
    CHECK(eval("0xFFFF_FFFF_FFFF_FFFF") == ~uint64_t{0});
    CHECK(eval("1_000 * 1_000") == 1000000);
    CHECK(eval("((((7))))") == 7);
    CHECK(eval("\t2*3 ") == 6);
}

TEST_CASE("expressions: names bound with let", "[language]") {
    name_table names{{"DSU", 0x2A000000}, {"n", 3}, {"_x1", 1}};
    CHECK(eval("DSU + 8 * n", names) == 0x2A000018);
    CHECK(eval("_x1 << n", names) == 8);
    CHECK(eval_error("dsu + 8", names).find("'dsu' is not defined") != std::string::npos); // names are case-sensitive
}

TEST_CASE("expressions: what 64 bits cannot hold is bad input", "[language]") {
    CHECK(eval("0xFFFF_FFFF_FFFF_FFFE + 1") == ~uint64_t{0});
    CHECK(eval_error("0xFFFF_FFFF_FFFF_FFFF + 1").find("overflow") != std::string::npos);
    CHECK(eval_error("0x1_0000_0000 * 0x1_0000_0000").find("overflow") != std::string::npos);
    CHECK(eval_error("1 - 2").find("a negative result") != std::string::npos);
    CHECK(eval_error("5 / 0").find("division by zero") != std::string::npos);
    CHECK(eval_error("5 % (3 - 3)").find("division by zero") != std::string::npos);
    CHECK(eval("1 << 63") == uint64_t{1} << 63);
    CHECK(eval_error("1 << 64").find("a shift by 64") != std::string::npos);
    CHECK(eval_error("3 << 63").find("loses set bits") != std::string::npos);
    CHECK(eval_error("8 >> 64").find("a shift by 64") != std::string::npos);
    CHECK(eval_error("18446744073709551616").find("fits in 64 bits") != std::string::npos);
}

TEST_CASE("expressions: malformed text names what was expected", "[language]") {
    CHECK(eval_error("").find("expected a number, a name or '('") != std::string::npos);
    CHECK(eval_error("1 +").find("found end of line") != std::string::npos);
    CHECK(eval_error("(1 + 2").find("expected ')'") != std::string::npos);
    CHECK(eval_error("1 + 2)").find("expected an operator") != std::string::npos);
    CHECK(eval_error("1 2").find("expected an operator") != std::string::npos);
    CHECK(eval_error("1 && 2").find("expected an operator") != std::string::npos); // no logical operators
    CHECK(eval_error("-1").find("expected a number") != std::string::npos); // no unary minus: values are unsigned
    CHECK(eval_error("12ab").find("expected a number") != std::string::npos);
    CHECK(eval_error("$").find("found '$'") != std::string::npos);
    // Nesting is bounded: a deep expression is refused, not a stack overflow.
    std::string deep(10000, '('), tilde(10000, '~');
    CHECK(eval_error(deep + "1").find("nested") != std::string::npos);
    CHECK(eval_error(tilde + "1").find("nested") != std::string::npos);
    CHECK(eval(std::string(max_expression_depth, '(') + "1" + std::string(max_expression_depth, ')')) == 1);
}

TEST_CASE("statements: operands are expressions also across spaces", "[language]") {
    name_table names{{"DSU", 0x2A000000}, {"SEL", 3}};
    auto one = [&](const std::string& text) {
        auto s = parse_line(text, "t.seq", 1, &names);
        REQUIRE(s);
        return s->body;
    };
    auto w = std::get<mem_write>(one("write64 DSU + 8 * SEL 1 << SEL -> ok"));
    CHECK(w.address == 0x2A000018);
    CHECK(w.value == 8);
    CHECK(w.outcome == access_outcome::ok);
    auto r = std::get<mem_read>(one("read32 (DSU + 0xE04) == 0x10 | 1 mask 0xFF"));
    CHECK(r.address == 0x2A000E04);
    CHECK(r.check->value == 0x11);
    CHECK(r.check->mask == 0xFF);
    auto p = std::get<mem_read>(one("print64 DSU+8"));
    CHECK(p.print);
    CHECK(p.address == 0x2A000008);
    CHECK(to_string(p) == "print64 0x2a000008");
    CHECK(std::get<run_cycles>(one("run SEL * 2 cycles of dsu0")).cycles == 6);
    CHECK(std::get<run_cycles>(one("run SEL cycles")).cycles == 3);
    CHECK(std::get<run_time>(one("run 10us")).duration_fs == 10'000'000'000ull);
    CHECK(std::get<reg_write>(one("write CLUSTERPMSELR_EL1 SEL")).value == 3);
    CHECK(std::get<inject_events>(one("inject dsu0 0x11 SEL * 100")).count == 300);
    // Without names (serve, firmware) literal expressions still work; names do not.
    auto s = parse_line("write64 (0x10 + 0x20) 0", "t.seq", 1);
    REQUIRE(s);
    CHECK(std::get<mem_write>(s->body).address == 0x30);
    CHECK_THROWS_AS(parse_line("write64 DSU 0", "t.seq", 1), input_error);
    // The directives belong to files.
    for (const char* d : {"let X = 1", "include a.seq", "repeat 2", "end"}) {
        try {
            parse_line(d, "<stdin>", 4);
            FAIL("accepted " << d);
        } catch (const input_error& e) {
            CHECK(e.message().find("directive of sequence files") != std::string::npos);
        }
    }
    // A memory address is not a register name.
    CHECK_THROWS_WITH(parse_line("print 0x2A000000", "t.seq", 1),
                      Catch::Contains("for a memory address write print32 ADDR or print64 ADDR"));
}

TEST_CASE("expansion: let repeat and include in file order", "[language]") {
    scratch d;
    d.write("lib/consts.inc", "let BASE = 0x1000\ninclude more/step.inc\n");
    d.write("lib/more/step.inc", "let STEP = 8\n");
    std::string top = d.write("top.seq", "platform arm-default\n"
                                         "include lib/consts.inc\n"
                                         "let i = 0\n"
                                         "repeat 3\n"
                                         "  write64 BASE + STEP * i i\n"
                                         "  let i = i + 1\n"
                                         "end\n"
                                         "read64 BASE == 0\n");
    auto st = parse_file(top);
    REQUIRE(st.size() == 5);
    for (int k = 0; k < 3; ++k) {
        auto& w = std::get<mem_write>(st[1 + k].body);
        CHECK(w.address == 0x1000u + 8u * unsigned(k));
        CHECK(w.value == unsigned(k));
        CHECK(st[1 + k].file == top);
        CHECK(st[1 + k].line == 5);
        REQUIRE(st[1 + k].origin);
        CHECK(*st[1 + k].origin == " (iteration " + std::to_string(k + 1) + " of 3 of the repeat at " + top + ":4)");
        CHECK(location(st[1 + k]) == top + ":5" + *st[1 + k].origin);
    }
    CHECK(!st[4].origin);
    CHECK(st[4].line == 8);
}

TEST_CASE("expansion: errors keep file and line and the include chain", "[language]") {
    scratch d;
    d.write("b.seq", "# b\nlet X = 1\nwrite64 X nonsense\n");
    d.write("sub/c.seq", "include ../b.seq\n");
    std::string a = d.write("a.seq", "\n\n\n\n\n\nrepeat 2\ninclude sub/c.seq\nend\n");
    try {
        parse_file(a);
        FAIL("no error");
    } catch (const input_error& e) {
        const std::string b = (d.dir / "b.seq").string(), c = (d.dir / "sub/c.seq").string();
        CHECK(e.file() == b);
        CHECK(e.line() == 3);
        CHECK(e.origin() == " (included from " + c + ":1, included from " + a + ":8, iteration 1 of 2 of the repeat at " +
                                a + ":7)");
        CHECK(std::string(e.what()) == b + ":3" + e.origin() + ": expected a number after 'write64 X', found 'nonsense'");
    }
}

TEST_CASE("expansion: include cycles and depth and missing files and non-files are refused", "[language]") {
    scratch d;
    std::string self = d.write("self.seq", "include self.seq\n");
    CHECK_THROWS_WITH(parse_file(self), Catch::Contains("include cycle: " + self + " includes " + self));
    // A chain of max_include_depth includes is fine; one more is refused.
    for (unsigned k = 0; k <= limits::max_include_depth + 1; ++k)
        d.write("chain" + std::to_string(k) + ".seq", "include chain" + std::to_string(k + 1) + ".seq\n");
    d.write("chain" + std::to_string(limits::max_include_depth) + ".seq", "run 1 cycles\n");
    CHECK(parse_file((d.dir / "chain0.seq").string()).size() == 1);
    d.write("chain" + std::to_string(limits::max_include_depth) + ".seq",
            "include chain" + std::to_string(limits::max_include_depth + 1) + ".seq\n");
    d.write("chain" + std::to_string(limits::max_include_depth + 1) + ".seq", "run 1 cycles\n");
    CHECK_THROWS_WITH(parse_file((d.dir / "chain0.seq").string()), Catch::Contains("nested at most 16 deep"));
    std::string missing = d.write("missing.seq", "include nothere.seq\n");
    CHECK_THROWS_WITH(parse_file(missing), Catch::Contains("no such file"));
    std::filesystem::create_directories(d.dir / "folder");
    std::string folder = d.write("folder.seq", "include folder\n");
    CHECK_THROWS_WITH(parse_file(folder), Catch::Contains("not a regular file"));
    std::string dev = d.write("dev.seq", "include /dev/zero\n");
    CHECK_THROWS_WITH(parse_file(dev), Catch::Contains("not a regular file"));
    std::string empty = d.write("empty.seq", "include\n");
    CHECK_THROWS_WITH(parse_file(empty), Catch::Contains("expected a file name after 'include'"));
    // A file included twice (not a cycle) is fine, and a name given in quotes may hold spaces.
    d.write("my consts.inc", "let K = 2\n");
    std::string twice = d.write("twice.seq", "include \"my consts.inc\"\ninclude \"my consts.inc\"\nrun K cycles\n");
    CHECK(std::get<run_cycles>(parse_file(twice).at(0).body).cycles == 2);
}

TEST_CASE("expansion: repeat bounds", "[language]") {
    CHECK(parse_sequence("repeat 1000000\nend\n", "r.seq").empty());
    CHECK(parse_sequence("repeat 0\nwrite64 nonsense\nend\n", "r.seq").empty()); // a skipped body is not parsed
    CHECK_THROWS_WITH(parse_sequence("repeat 1000001\nend\n", "r.seq"), Catch::Contains("at most 1000000"));
    CHECK_THROWS_WITH(parse_sequence("repeat 1000000\nrepeat 1000000\nend\nend\n", "r.seq"),
                      Catch::Contains("expand to more than 2000000 lines"));
    CHECK_THROWS_WITH(parse_sequence("repeat\nend\n", "r.seq"), Catch::Contains("expected a count after 'repeat'"));
    CHECK_THROWS_WITH(parse_sequence("repeat 2\nend now\n", "r.seq"), Catch::Contains("expected end of line after 'end'"));
    std::string nested;
    for (unsigned k = 0; k < limits::max_repeat_nesting; ++k) nested += "repeat 2\n";
    nested += "run 1 cycles\n";
    for (unsigned k = 0; k < limits::max_repeat_nesting; ++k) nested += "end\n";
    CHECK(parse_sequence(nested, "r.seq").size() == 256u); // 2^8
    CHECK_THROWS_WITH(parse_sequence("repeat 1\n" + nested + "end\n", "r.seq"), Catch::Contains("nested at most 8 deep"));
    CHECK_THROWS_WITH(parse_sequence("repeat 1\nplatform arm-default\nend\n", "r.seq"),
                      Catch::Contains("inside a 'repeat' block"));
    // Lines are numbered from first_line for a sequence embedded in another file.
    try {
        parse_sequence("run 1 cycles\nrun x\n", "scenario.yaml", 10);
        FAIL("no error");
    } catch (const input_error& e) {
        CHECK(e.line() == 11);
    }
}
