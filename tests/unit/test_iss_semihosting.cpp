// Arm semihosting's operations (iss/semihosting.h) over a fake memory and console. Expected values
// come from Arm "Semihosting for AArch32 and AArch64" (version 2.0, ARM-software/abi-aa
// semihosting/semihosting.rst), section "Semihosting operations" (each cited below by its name),
// and from docs/firmware.md "Leaving: semihosting" where the specification leaves a choice to the
// implementation; issue 28 item 8's rules (every byte written or the count not written returned;
// a bad buffer is an error return) are the specification's SYS_WRITE and SYS_GET_CMDLINE returns.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <vector>

#include "iss/semihosting.h"

using namespace pmusim;
using kind = semihosting_outcome::kind;

namespace {
// Operation numbers (the specification's table of operation numbers).
constexpr uint32_t SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_WRITEC = 0x03, SYS_WRITE0 = 0x04, SYS_WRITE = 0x05,
                   SYS_READ = 0x06, SYS_ISERROR = 0x08, SYS_ISTTY = 0x09, SYS_CLOCK = 0x10, SYS_GET_CMDLINE = 0x15,
                   SYS_HEAPINFO = 0x16, SYS_EXIT = 0x18, SYS_EXIT_EXTENDED = 0x20, SYS_ELAPSED = 0x30,
                   SYS_TICKFREQ = 0x31;
// SYS_EXIT reason codes (the specification's "SYS_EXIT", Table: ADP_Stopped_*).
constexpr uint64_t ADP_Stopped_ApplicationExit = 0x20026, ADP_Stopped_RunTimeErrorUnknown = 0x20023;

// Plain memory at [plain_base, +plain_size), a unit window (readable and writable through the
// gate, not plain memory) at [window_base, +window_size), nothing elsewhere.
constexpr uint64_t plain_base = 0x80000000, plain_size = 1u << 20, window_base = 0x20000000, window_size = 0x1000;

struct fake_host : semihosting_host {
    std::vector<uint8_t> plain = std::vector<uint8_t>(plain_size), window = std::vector<uint8_t>(window_size);
    std::vector<std::string> lines;
    std::string errors;
    std::vector<uint32_t> unsupported_ops;
    fs_t now_at = 0, started_at = 0;
    uint8_t* at(uint64_t a, uint64_t n) {
        if (a >= plain_base && n <= plain_size && a - plain_base <= plain_size - n) return &plain[a - plain_base];
        if (a >= window_base && n <= window_size && a - window_base <= window_size - n) return &window[a - window_base];
        return nullptr;
    }
    bool read(uint64_t a, void* bytes, uint64_t n) override {
        uint8_t* p = at(a, n);
        if (p) std::memcpy(bytes, p, n);
        return p;
    }
    bool write(uint64_t a, const void* bytes, uint64_t n) override {
        uint8_t* p = at(a, n);
        if (p) std::memcpy(p, bytes, n);
        return p;
    }
    bool plain_memory(uint64_t a) const override { return a >= plain_base && a - plain_base < plain_size; }
    void output_line(const std::string& line) override { lines.push_back(line); }
    void error_output(const std::string& text) override { errors += text; }
    fs_t now() const override { return now_at; }
    fs_t started() const override { return started_at; }
    uint64_t image_end() const override { return plain_base + 0x12345; }
    uint64_t memory_top() const override { return plain_base + plain_size; }
    void unsupported(uint32_t op) override { unsupported_ops.push_back(op); }

    void put64(uint64_t a, uint64_t v) { REQUIRE(write(a, &v, 8)); }
    uint64_t get64(uint64_t a) {
        uint64_t v = 0;
        REQUIRE(read(a, &v, 8));
        return v;
    }
    void put_block(uint64_t a, std::initializer_list<uint64_t> words) {
        for (uint64_t w : words) put64(a, w), a += 8;
    }
};

constexpr uint64_t block = plain_base + 0x100, buffer = plain_base + 0x1000;
constexpr uint64_t minus_one = ~uint64_t(0);

uint64_t returned(semihosting& sh, fake_host& h, uint32_t op, uint64_t param) {
    const semihosting_outcome o = sh.call(h, op, param);
    REQUIRE(o.k == kind::returned);
    return o.result;
}
} // namespace

TEST_CASE("iss semihosting: SYS_WRITE writes every byte of a 100000-byte buffer and returns 0", "[iss]") {
    // SYS_WRITE: block {handle, address, length}; "On exit, R0 contains 0 if the call is
    // successful, or the number of bytes that are not written, if there is an error."
    fake_host h;
    semihosting sh;
    std::string text;
    for (int i = 0; i < 100000; ++i) text += i % 100 == 99 ? '\n' : char('a' + i % 26);
    REQUIRE(h.write(buffer, text.data(), text.size()));
    h.put_block(block, {semihosting::handle_stdout, buffer, text.size()});
    CHECK(returned(sh, h, SYS_WRITE, block) == 0);
    REQUIRE(h.lines.size() == 1000);
    std::string joined;
    for (const auto& l : h.lines) joined += l + '\n';
    CHECK(joined == text);
    CHECK(sh.take_partial_line().empty());
}

TEST_CASE("iss semihosting: SYS_WRITE of a buffer outside plain memory returns the bytes not written", "[iss]") {
    // The error return of SYS_WRITE: the number of bytes not written (the whole length when none is).
    fake_host h;
    semihosting sh;
    h.put_block(block, {semihosting::handle_stdout, 0x10, 40}); // unmapped
    CHECK(returned(sh, h, SYS_WRITE, block) == 40);
    h.put_block(block, {semihosting::handle_stdout, window_base, 16}); // a unit window
    CHECK(returned(sh, h, SYS_WRITE, block) == 16);
    // A buffer running off the end of memory: its first 64 KiB chunk is written, the rest is not.
    const uint64_t start = plain_base + plain_size - 0x10000;
    h.put_block(block, {semihosting::handle_stdout, start, 0x10000 + 100});
    CHECK(returned(sh, h, SYS_WRITE, block) == 100);
    // A handle SYS_OPEN did not give: nothing written.
    h.put_block(block, {77, buffer, 5});
    CHECK(returned(sh, h, SYS_WRITE, block) == 5);
    CHECK(h.errors.empty());
}

TEST_CASE("iss semihosting: SYS_OPEN of :tt gives stdin stdout stderr handles by mode and SYS_WRITE to stderr", "[iss]") {
    // SYS_OPEN: block {name, mode, length}; ":tt" is the console: mode 0-3 ("r") stdin, 4-7 ("w")
    // stdout, 8-11 ("a") stderr; "On exit, R0 contains a nonzero handle if the call is successful,
    // or -1 if the call is not successful."
    fake_host h;
    semihosting sh;
    REQUIRE(h.write(buffer, ":tt", 3));
    h.put_block(block, {buffer, 0, 3});
    const uint64_t in = returned(sh, h, SYS_OPEN, block);
    h.put_block(block, {buffer, 4, 3});
    const uint64_t out = returned(sh, h, SYS_OPEN, block);
    h.put_block(block, {buffer, 8, 3});
    const uint64_t err = returned(sh, h, SYS_OPEN, block);
    CHECK(in != 0);
    CHECK(out != 0);
    CHECK(err != 0);
    CHECK(in != minus_one);
    CHECK(out != minus_one);
    CHECK(err != minus_one);
    CHECK(in != out);
    CHECK(out != err);
    CHECK(in != err);
    REQUIRE(h.write(buffer + 16, "a.txt", 5));
    h.put_block(block, {buffer + 16, 0, 5});
    CHECK(returned(sh, h, SYS_OPEN, block) == minus_one);
    // SYS_ISTTY: 1 for an interactive device. SYS_CLOSE: 0 on success, -1 otherwise.
    h.put_block(block, {err});
    CHECK(returned(sh, h, SYS_ISTTY, block) == 1);
    REQUIRE(h.write(buffer + 32, "oops\n", 5));
    h.put_block(block + 64, {err, buffer + 32, 5});
    CHECK(returned(sh, h, SYS_WRITE, block + 64) == 0);
    CHECK(h.errors == "oops\n");
    CHECK(h.lines.empty());
    h.put_block(block, {out});
    CHECK(returned(sh, h, SYS_CLOSE, block) == 0);
    h.put_block(block, {1234});
    CHECK(returned(sh, h, SYS_CLOSE, block) == minus_one);
    // SYS_READ from stdin: "R0 contains ... the number of bytes not read"; equal to the length: EOF.
    h.put_block(block, {in, buffer, 10});
    CHECK(returned(sh, h, SYS_READ, block) == 10);
}

TEST_CASE("iss semihosting: SYS_WRITE0 writes a string of any length and one running off memory is an error", "[iss]") {
    // SYS_WRITE0: "Writes a null-terminated string to the debug channel"; R1 points to it.
    fake_host h;
    semihosting sh;
    std::string text(100000, 'x');
    text += "\nend";
    REQUIRE(h.write(buffer, text.c_str(), text.size() + 1));
    CHECK(sh.call(h, SYS_WRITE0, buffer).k == kind::returned);
    REQUIRE(h.lines.size() == 1);
    CHECK(h.lines[0] == std::string(100000, 'x'));
    CHECK(sh.take_partial_line() == "end");
    // SYS_WRITEC: the byte R1 points to.
    REQUIRE(h.write(buffer, "Q\n", 2));
    sh.call(h, SYS_WRITEC, buffer);
    sh.call(h, SYS_WRITEC, buffer + 1);
    CHECK(h.lines.back() == "Q");
    // No NUL before the end of memory: the firmware's error, naming the string.
    std::vector<uint8_t> ones(64, 'y');
    REQUIRE(h.write(plain_base + plain_size - 64, ones.data(), 64));
    const semihosting_outcome o = sh.call(h, SYS_WRITE0, plain_base + plain_size - 64);
    CHECK(o.k == kind::error);
    CHECK(o.message.find("SYS_WRITE0") != std::string::npos);
}

TEST_CASE("iss semihosting: SYS_GET_CMDLINE writes an empty command line and fails into an unmapped or window buffer", "[iss]") {
    // SYS_GET_CMDLINE: block {buffer address, buffer size}; on exit the buffer holds the
    // null-terminated command line and the block's second word its length; R0 is 0 if the call
    // is successful, -1 if it is not. pmusim's command line is empty (docs/firmware.md).
    fake_host h;
    semihosting sh;
    REQUIRE(h.write(buffer, "zzzz", 4));
    h.put_block(block, {buffer, 4});
    CHECK(returned(sh, h, SYS_GET_CMDLINE, block) == 0);
    uint8_t first = 0xff;
    REQUIRE(h.read(buffer, &first, 1));
    CHECK(first == 0);
    CHECK(h.get64(block + 8) == 0);
    // Unmapped: -1.
    h.put_block(block, {0x10, 4});
    CHECK(returned(sh, h, SYS_GET_CMDLINE, block) == minus_one);
    CHECK(h.get64(block + 8) == 4); // the block is not changed
    // A unit window: -1, and nothing written there.
    h.window[0] = 0x5a;
    h.put_block(block, {window_base, 4});
    CHECK(returned(sh, h, SYS_GET_CMDLINE, block) == minus_one);
    CHECK(h.window[0] == 0x5a);
    // A buffer of size 0 cannot hold the NUL: -1.
    h.put_block(block, {buffer, 0});
    CHECK(returned(sh, h, SYS_GET_CMDLINE, block) == minus_one);
}

TEST_CASE("iss semihosting: a parameter block outside memory is an error that ends the run", "[iss]") {
    fake_host h;
    semihosting sh;
    for (uint32_t op : {SYS_WRITE, SYS_OPEN, SYS_GET_CMDLINE, SYS_EXIT}) {
        const semihosting_outcome o = sh.call(h, op, 0x10);
        CHECK(o.k == kind::error);
        CHECK(o.message.find("0x10") != std::string::npos);
    }
}

TEST_CASE("iss semihosting: SYS_EXIT and SYS_EXIT_EXTENDED pass only on ADP_Stopped_ApplicationExit with status 0", "[iss]") {
    // SYS_EXIT (AArch64): block {reason, subcode}; ADP_Stopped_ApplicationExit (0x20026) with the
    // exit status in the subcode; SYS_EXIT_EXTENDED: the same block. docs/firmware.md "Exit status".
    fake_host h;
    semihosting sh;
    h.put_block(block, {ADP_Stopped_ApplicationExit, 0});
    semihosting_outcome o = sh.call(h, SYS_EXIT, block);
    CHECK(o.k == kind::exited);
    CHECK(o.passed);
    h.put_block(block, {ADP_Stopped_ApplicationExit, 3});
    o = sh.call(h, SYS_EXIT_EXTENDED, block);
    CHECK(o.k == kind::exited);
    CHECK_FALSE(o.passed);
    CHECK(o.status == 3);
    CHECK(o.message == "exit status 3");
    h.put_block(block, {ADP_Stopped_RunTimeErrorUnknown, 0});
    o = sh.call(h, SYS_EXIT, block);
    CHECK_FALSE(o.passed);
    CHECK(o.message.find("0x20023") != std::string::npos);
    // Output not yet ended by a newline is flushed as a line when the program exits.
    REQUIRE(h.write(buffer, "bye", 4));
    sh.call(h, SYS_WRITE0, buffer);
    h.put_block(block, {ADP_Stopped_ApplicationExit, 0});
    sh.call(h, SYS_EXIT, block);
    CHECK(h.lines.back() == "bye");
}

TEST_CASE("iss semihosting: SYS_HEAPINFO SYS_CLOCK SYS_ELAPSED SYS_TICKFREQ SYS_ISERROR and an unknown operation", "[iss]") {
    fake_host h;
    semihosting sh;
    // SYS_HEAPINFO: R1 points to a word holding the address of a 4-word block {heap base, heap
    // limit, stack base, stack limit}. docs/firmware.md: heap base = end of the image rounded up
    // to 16, heap limit = stack limit = top of memory - 64 KiB, stack base = top of memory.
    h.put64(block, buffer);
    CHECK(returned(sh, h, SYS_HEAPINFO, block) == 0);
    CHECK(h.get64(buffer) == plain_base + 0x12350);
    CHECK(h.get64(buffer + 8) == plain_base + plain_size - 0x10000);
    CHECK(h.get64(buffer + 16) == plain_base + plain_size);
    CHECK(h.get64(buffer + 24) == plain_base + plain_size - 0x10000);
    // SYS_CLOCK: centiseconds (simulated time, docs/firmware.md): 1.23 s -> 123.
    h.now_at = 1'230'000'000'000'000ULL;
    CHECK(returned(sh, h, SYS_CLOCK, 0) == 123);
    // SYS_ELAPSED: the ticks since the program started into the doubleword R1 points to;
    // SYS_TICKFREQ: ticks per second (nanoseconds here).
    h.started_at = 1'000'000'000'000'000ULL;
    h.now_at = h.started_at + 2'500'000'000'000ULL; // + 2.5 ms
    CHECK(returned(sh, h, SYS_ELAPSED, block) == 0);
    CHECK(h.get64(block) == 2'500'000);
    CHECK(returned(sh, h, SYS_TICKFREQ, 0) == 1'000'000'000);
    // SYS_ISERROR: nonzero when the status word is an error (negative).
    h.put64(block, uint64_t(-5));
    CHECK(returned(sh, h, SYS_ISERROR, block) == 1);
    h.put64(block, 7);
    CHECK(returned(sh, h, SYS_ISERROR, block) == 0);
    // An operation not implemented: -1, and the host is told.
    CHECK(returned(sh, h, 0x0d, block) == minus_one); // SYS_TMPNAM
    REQUIRE(h.unsupported_ops.size() == 1);
    CHECK(h.unsupported_ops[0] == 0x0d);
}
