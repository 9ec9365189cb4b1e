// The GDB remote stub (debug/gdb_stub.h, docs/debugging.md) against a fake target: framing,
// checksums, acks, escaping, binary writes, qXfer paging, threads, breakpoints and resumption.
// Expected texts come from the GDB manual's protocol appendix ("Overview", "Packets", "Stop
// Reply Packets", "General Query Packets"), not from the stub.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <netinet/in.h>
#include <set>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include "debug/gdb_stub.h"

using namespace pmusim::debug;

namespace {

// Two CPUs (GDB threads 1 and 2), 64 KiB of memory at 0x10000, breakpoints of kinds 0 and 1.
struct fake_target : debug_target {
    std::map<unsigned, std::vector<std::vector<uint8_t>>> regs;
    std::vector<uint8_t> memory = std::vector<uint8_t>(0x10000);
    static constexpr uint64_t base = 0x10000;
    std::set<std::pair<int, uint64_t>> breakpoints;
    fake_target() {
        for (unsigned cpu : {0u, 1u}) {
            auto& r = regs[cpu];
            for (unsigned n = 0; n < aarch64_regs::count; ++n) {
                r.emplace_back(aarch64_regs::bytes(n));
                // Register n of CPU c holds bytes c*0x40 + n, then zeros: easy to find in a 'g' reply.
                r.back()[0] = uint8_t(cpu * 0x40 + n);
            }
        }
    }
    std::vector<unsigned> cpus() const override { return {0, 1}; }
    std::string describe(unsigned cpu) const override { return "cpu" + std::to_string(cpu) + " EL3"; }
    bool read_register(unsigned cpu, unsigned n, uint8_t* b) override {
        std::memcpy(b, regs.at(cpu).at(n).data(), aarch64_regs::bytes(n));
        return true;
    }
    bool write_register(unsigned cpu, unsigned n, const uint8_t* b) override {
        std::memcpy(regs.at(cpu).at(n).data(), b, aarch64_regs::bytes(n));
        return true;
    }
    bool read_memory(unsigned, uint64_t a, uint8_t* b, size_t n) override {
        if (a < base || a + n > base + memory.size()) return false;
        std::memcpy(b, memory.data() + (a - base), n);
        return true;
    }
    bool write_memory(unsigned, uint64_t a, const uint8_t* b, size_t n) override {
        if (a < base || a + n > base + memory.size()) return false;
        std::memcpy(memory.data() + (a - base), b, n);
        return true;
    }
    bool supports(breakpoint_kind k) const override { return k == breakpoint_kind::software || k == breakpoint_kind::hardware; }
    bool insert_breakpoint(breakpoint_kind k, uint64_t a, unsigned) override { return breakpoints.insert({int(k), a}).second; }
    bool remove_breakpoint(breakpoint_kind k, uint64_t a, unsigned) override { return breakpoints.erase({int(k), a}) == 1; }
};

// The GDB side of a socketpair: writes packets ahead (the stub reads them when it serves), then
// reads back what the stub sent.
struct client {
    int fd = -1;
    explicit client(int f) : fd(f) {}
    ~client() { ::close(fd); }
    void raw(const std::string& bytes) { REQUIRE(::write(fd, bytes.data(), bytes.size()) == ssize_t(bytes.size())); }
    // A packet with its checksum written by hand here (sum of the payload's bytes mod 256).
    void packet(const std::string& payload, bool ack_reply = true) {
        unsigned sum = 0;
        for (unsigned char c : payload) sum = (sum + c) & 0xff;
        char cs[3];
        std::snprintf(cs, sizeof cs, "%02x", sum);
        raw("$" + payload + "#" + cs);
        if (ack_reply) raw("+"); // the ack of the stub's reply, sent ahead
    }
    std::string received() {
        std::string all;
        char b[65536];
        ::fcntl(fd, F_SETFL, O_NONBLOCK);
        for (;;) {
            ssize_t n = ::read(fd, b, sizeof b);
            if (n <= 0) break;
            all.append(b, size_t(n));
        }
        return all;
    }
    // The payloads of the packets in `stream`, acks dropped.
    static std::vector<std::string> payloads(const std::string& stream) {
        std::vector<std::string> out;
        size_t at = 0;
        while ((at = stream.find('$', at)) != std::string::npos) {
            size_t hash = stream.find('#', at);
            out.push_back(stream.substr(at + 1, hash - at - 1));
            at = hash + 3;
        }
        return out;
    }
};

std::string fmt_hex(size_t v) {
    char b[20];
    std::snprintf(b, sizeof b, "%zx", v);
    return b;
}

struct session {
    fake_target target;
    std::unique_ptr<gdb_stub> stub;
    std::unique_ptr<client> gdb;
    session() {
        int fds[2];
        REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
        stub = std::make_unique<gdb_stub>(target, gdb_stub::connected_socket{fds[0]});
        gdb = std::make_unique<client>(fds[1]);
    }
};

} // namespace

TEST_CASE("gdb stub: packets are framed with a two-digit modulo-256 checksum and binary data escaped with 0x7d", "[gdb]") {
    // GDB manual, "Overview": $packet-data#checksum, the checksum the unsigned sum of the data's
    // characters modulo 256 in two hex digits; '}' escapes '#', '$', '}' and '*' as the
    // character XOR 0x20.
    CHECK(gdb_stub::frame("OK") == "$OK#9a"); // 'O' 0x4f + 'K' 0x4b = 0x9a
    CHECK(gdb_stub::frame("") == "$#00");
    CHECK(gdb_stub::checksum(std::string(2, '\x80')) == 0x00);
    CHECK(gdb_stub::escape("a#b$c}d*e") == "a}\x03" "b}\x04" "c}]d}\x0a" "e");
    CHECK(gdb_stub::unescape("a}\x03" "b}\x04" "c}]d}\x0a" "e") == "a#b$c}d*e");
}

TEST_CASE("gdb stub: acks good packets and naks a bad checksum then serves the resent packet", "[gdb]") {
    session s;
    s.gdb->raw("$qC#00");     // wrong checksum: '-'
    s.gdb->packet("qC");      // resent
    s.gdb->packet("?");
    s.gdb->packet("c", false);
    std::optional<resume_request> dummy;
    auto r = s.stub->stopped({0, 5, std::nullopt, 0});
    CHECK(r.k == resume_request::kind::resume);
    CHECK_FALSE(r.step);
    const std::string out = s.gdb->received();
    REQUIRE(out.size() >= 2);
    CHECK(out.substr(0, 2) == "-+"); // nak of the bad one, ack of the resent one
    auto replies = client::payloads(out);
    REQUIRE(replies.size() == 2);
    CHECK(replies[0] == "QC1");            // thread of CPU 0
    CHECK(replies[1] == "T05thread:1;");   // the stop: SIGTRAP, thread 1
}

TEST_CASE("gdb stub: qSupported offers the target description and no-ack mode which then stops acks", "[gdb]") {
    session s;
    s.gdb->packet("qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+");
    s.gdb->packet("QStartNoAckMode");
    s.gdb->packet("qAttached", false); // no acks from here on
    s.gdb->packet("k", false);
    auto r = s.stub->stopped({0, 5, std::nullopt, 0});
    CHECK(r.k == resume_request::kind::kill);
    const std::string out = s.gdb->received();
    auto replies = client::payloads(out);
    REQUIRE(replies.size() == 3);
    CHECK(replies[0].find("qXfer:features:read+") != std::string::npos);
    CHECK(replies[0].find("QStartNoAckMode+") != std::string::npos);
    CHECK(replies[0].find("PacketSize=") == 0);
    CHECK(replies[1] == "OK");
    CHECK(replies[2] == "1");
    // Two acks (qSupported, QStartNoAckMode), none after: outside the packets, two '+' before the OK.
    std::string acks_before_ok, acks_after_ok;
    bool after_ok = false;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] == '$') {
            after_ok = after_ok || out.compare(i, 4, "$OK#") == 0;
            i = out.find('#', i) + 2; // past the checksum
        } else {
            (after_ok ? acks_after_ok : acks_before_ok) += out[i];
        }
    }
    CHECK(acks_before_ok == "++");
    CHECK(acks_after_ok == "");
}

TEST_CASE("gdb stub: registers in the AArch64 order of GDB per thread are read and written", "[gdb]") {
    session s;
    s.gdb->packet("g");
    s.gdb->packet("Hg2");
    s.gdb->packet("p20");                                  // pc (32) of CPU 1
    s.gdb->packet("P21=78563412");                         // cpsr (33): 4 bytes, little-endian
    s.gdb->packet("p21");
    s.gdb->packet("p22");                                  // v0 (34): 16 bytes
    s.gdb->packet("p44");                                  // 68: no such register
    s.gdb->packet("T2");
    s.gdb->packet("T3");
    s.gdb->packet("qfThreadInfo");
    s.gdb->packet("qsThreadInfo");
    s.gdb->packet("qThreadExtraInfo,2");
    s.gdb->packet("c", false);
    s.stub->stopped({0, 5, std::nullopt, 0});
    auto r = client::payloads(s.gdb->received());
    REQUIRE(r.size() == 12);
    // x0..x30, sp, pc: 8 bytes; cpsr 4; v0..v31 16; fpsr, fpcr 4 (GDB manual, "AArch64 Features").
    CHECK(r[0].size() == 2 * (33 * 8 + 4 + 32 * 16 + 4 + 4));
    CHECK(r[0].substr(0, 16) == "0000000000000000");           // x0 of CPU 0
    CHECK(r[0].substr(16, 16) == "0100000000000000");          // x1
    CHECK(r[0].substr(2 * 8 * 33, 8) == "21000000");           // cpsr (register 33)
    CHECK(r[0].substr(2 * (8 * 33 + 4), 32) == "22" + std::string(30, '0')); // v0
    CHECK(r[1] == "OK");
    CHECK(r[2] == "6000000000000000");                         // 0x40 + 32
    CHECK(r[3] == "OK");
    CHECK(r[4] == "78563412");
    CHECK(s.target.regs[1][33][0] == 0x78);
    CHECK(s.target.regs[1][33][3] == 0x12);
    CHECK(r[5].size() == 32);
    CHECK(r[6] == "E01");
    CHECK(r[7] == "OK");
    CHECK(r[8] == "E01");
    CHECK(r[9] == "m1,2");
    CHECK(r[10] == "l");
    CHECK(r[11] == "6370753120454c33"); // "cpu1 EL3" in hex
}

TEST_CASE("gdb stub: memory reads and hex and binary writes with escaped bytes and errors outside memory", "[gdb]") {
    session s;
    s.gdb->packet("M10000,4:deadbeef");
    s.gdb->packet("m10000,4");
    // X with the bytes 0x23 '#', 0x24 '$', 0x7d '}', 0x2a '*': each escaped.
    s.gdb->packet(std::string("X10004,4:") + "}\x03" "}\x04" "}]" "}\x0a");
    s.gdb->packet("m10004,4");
    s.gdb->packet("X10008,0:");  // GDB's probe of X support
    s.gdb->packet("m0,4");
    s.gdb->packet("M10000,2:00");  // length mismatch
    s.gdb->packet("c", false);
    s.stub->stopped({0, 5, std::nullopt, 0});
    auto r = client::payloads(s.gdb->received());
    REQUIRE(r.size() == 7);
    CHECK(r[0] == "OK");
    CHECK(r[1] == "deadbeef");
    CHECK(r[2] == "OK");
    CHECK(r[3] == "23247d2a");
    CHECK(r[4] == "OK");
    CHECK(r[5].front() == 'E');
    CHECK(r[6].front() == 'E');
    CHECK(s.target.memory[0] == 0xde);
    CHECK(s.target.memory[7] == 0x2a);
}

TEST_CASE("gdb stub: qXfer target.xml read in pages gives the whole AArch64 description", "[gdb]") {
    session s;
    const std::string& xml = aarch64_target_xml();
    const size_t page = 0x100;
    const size_t pages = (xml.size() + page - 1) / page;
    for (size_t i = 0; i <= pages; ++i)
        s.gdb->packet("qXfer:features:read:target.xml:" + fmt_hex(i * page) + "," + fmt_hex(page));
    s.gdb->packet("qXfer:features:read:other.xml:0,100");
    s.gdb->packet("c", false);
    s.stub->stopped({0, 5, std::nullopt, 0});
    auto r = client::payloads(s.gdb->received());
    REQUIRE(r.size() == pages + 2);
    std::string whole;
    for (size_t i = 0; i < pages; ++i) {
        CHECK(r[i].front() == (i + 1 < pages ? 'm' : 'l'));
        whole += gdb_stub::unescape(r[i].substr(1));
    }
    CHECK(r[pages] == "l"); // past the end
    CHECK(r[pages + 1].front() == 'E');
    CHECK(whole == xml);
    CHECK(xml.find("<architecture>aarch64</architecture>") != std::string::npos);
    CHECK(xml.find("<feature name=\"org.gnu.gdb.aarch64.core\">") != std::string::npos);
    CHECK(xml.find("<feature name=\"org.gnu.gdb.aarch64.fpu\">") != std::string::npos);
    for (const char* reg : {"\"x0\"", "\"x30\"", "\"sp\"", "\"pc\"", "\"cpsr\"", "\"v0\"", "\"v31\"", "\"fpsr\"", "\"fpcr\""})
        CHECK(xml.find(std::string("name=") + reg) != std::string::npos);
    size_t regs = 0;
    for (size_t at = 0; (at = xml.find("<reg ", at)) != std::string::npos; ++at) ++regs;
    CHECK(regs == 68);
}

TEST_CASE("gdb stub: breakpoints of supported kinds reach the target and watchpoints get an empty reply", "[gdb]") {
    session s;
    s.gdb->packet("Z0,10040,4");
    s.gdb->packet("Z1,10080,4");
    s.gdb->packet("Z2,10000,8");
    s.gdb->packet("z0,10040,4");
    s.gdb->packet("z0,10040,4");  // not inserted
    s.gdb->packet("c", false);
    s.stub->stopped({0, 5, std::nullopt, 0});
    auto r = client::payloads(s.gdb->received());
    REQUIRE(r.size() == 5);
    CHECK(r[0] == "OK");
    CHECK(r[1] == "OK");
    CHECK(r[2] == "");
    CHECK(r[3] == "OK");
    CHECK(r[4] == "E01");
    CHECK(s.target.breakpoints == std::set<std::pair<int, uint64_t>>{{1, 0x10080}});
}

TEST_CASE("gdb stub: vCont steps one thread and the next stop is reported with that thread", "[gdb]") {
    session s;
    s.gdb->packet("vCont?");
    s.gdb->packet("vCont;s:2;c", false);
    auto r1 = s.stub->stopped({0, 5, std::nullopt, 0});
    REQUIRE(r1.k == resume_request::kind::resume);
    REQUIRE(r1.step);
    CHECK(*r1.step == 1);
    s.gdb->packet("s", false); // step the current thread (Hg unchanged: the stopped one)
    auto r2 = s.stub->stopped({1, 5, std::nullopt, 0});
    REQUIRE(r2.step);
    CHECK(*r2.step == 1);
    s.gdb->packet("vCont;c", false);
    auto r3 = s.stub->stopped({1, 2, std::nullopt, 0});
    CHECK_FALSE(r3.step);
    auto r = client::payloads(s.gdb->received());
    REQUIRE(r.size() == 3);
    CHECK(r[0] == "vCont;c;C;s;S;t");
    CHECK(r[1] == "T05thread:2;");
    CHECK(r[2] == "T02thread:2;"); // SIGINT
}

TEST_CASE("gdb stub: Ctrl-C while running is an interrupt and detach answers OK and closes", "[gdb]") {
    session s;
    CHECK_FALSE(s.stub->interrupt_requested());
    s.gdb->raw("\x03");
    CHECK(s.stub->interrupt_requested());
    CHECK_FALSE(s.stub->interrupt_requested());
    s.gdb->packet("D", false);
    auto r = s.stub->stopped({0, 2, std::nullopt, 0});
    CHECK(r.k == resume_request::kind::detach);
    CHECK_FALSE(s.stub->connected());
    CHECK(client::payloads(s.gdb->received()) == std::vector<std::string>{"OK"});
}

TEST_CASE("gdb stub: listens on 127.0.0.1 on a port the system picks and accepts GDB there", "[gdb]") {
    fake_target target;
    gdb_stub stub(target, 0);
    REQUIRE(stub.port() != 0);
    CHECK_FALSE(stub.accept_connection(0)); // nobody yet: no wait
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(stub.port());
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    CHECK(stub.accept_connection(5000));
    client gdb(fd);
    gdb.packet("qC");
    gdb.packet("k", false);
    CHECK(stub.stopped({1, 5, std::nullopt, 0}).k == resume_request::kind::kill);
    CHECK(client::payloads(gdb.received()) == std::vector<std::string>{"QC2"});
}
