#include "debug/gdb_stub.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "models/input_error.h"

namespace pmusim::debug {

namespace {

constexpr size_t packet_size = 0x4000; // PacketSize we announce: GDB sends no longer packet
constexpr int sigtrap = 5;

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string to_hex(const uint8_t* bytes, size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    s.reserve(2 * n);
    for (size_t i = 0; i < n; ++i) {
        s += digits[bytes[i] >> 4];
        s += digits[bytes[i] & 15];
    }
    return s;
}
std::string to_hex(const std::string& text) { return to_hex(reinterpret_cast<const uint8_t*>(text.data()), text.size()); }

// Hex pairs to bytes; false on an odd length or a non-hex character.
bool from_hex(const std::string& hex, std::vector<uint8_t>& out) {
    if (hex.size() % 2) return false;
    out.clear();
    for (size_t i = 0; i < hex.size(); i += 2) {
        int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
        if (hi < 0 || lo < 0) return false;
        out.push_back(uint8_t(hi << 4 | lo));
    }
    return true;
}

// A hex number (big-endian text, as addresses and lengths are written); nullopt if malformed.
std::optional<uint64_t> parse_number(const std::string& s) {
    if (s.empty() || s.size() > 16) return std::nullopt;
    uint64_t v = 0;
    for (char c : s) {
        int d = hex_digit(c);
        if (d < 0) return std::nullopt;
        v = v << 4 | unsigned(d);
    }
    return v;
}

// "ADDR,LENGTH" into its two numbers.
bool parse_address_length(const std::string& s, uint64_t& address, uint64_t& length) {
    auto comma = s.find(',');
    if (comma == std::string::npos) return false;
    auto a = parse_number(s.substr(0, comma)), l = parse_number(s.substr(comma + 1));
    if (!a || !l) return false;
    address = *a;
    length = *l;
    return true;
}

const std::string error_reply = "E01";

} // namespace

// ---------------------------------------------------------------------------------------------
// Framing

uint8_t gdb_stub::checksum(const std::string& bytes) {
    uint8_t sum = 0;
    for (char c : bytes) sum = uint8_t(sum + uint8_t(c));
    return sum;
}

std::string gdb_stub::escape(const std::string& binary) {
    std::string out;
    out.reserve(binary.size());
    for (char c : binary) {
        if (c == '}' || c == '#' || c == '$' || c == '*') {
            out += '}';
            out += char(c ^ 0x20);
        } else {
            out += c;
        }
    }
    return out;
}

std::string gdb_stub::unescape(const std::string& escaped) {
    std::string out;
    out.reserve(escaped.size());
    for (size_t i = 0; i < escaped.size(); ++i) {
        if (escaped[i] == '}' && i + 1 < escaped.size()) out += char(escaped[++i] ^ 0x20);
        else out += escaped[i];
    }
    return out;
}

std::string gdb_stub::frame(const std::string& payload) {
    // Payloads are escaped by their producers where they can hold binary data (qXfer); hex and
    // text replies hold none of the four special characters.
    return fmt::format("${}#{:02x}", payload, checksum(payload));
}

// ---------------------------------------------------------------------------------------------
// Sockets

gdb_stub::gdb_stub(debug_target& target, uint16_t port) : target_(target) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener_ < 0) throw input_error("--gdb", 0, fmt::format("cannot create a socket: {}", std::strerror(errno)));
    int one = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK); // localhost only: the stub reads and writes the whole machine
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 || ::listen(listener_, 1) < 0) {
        std::string why = std::strerror(errno);
        ::close(listener_);
        listener_ = -1;
        throw input_error("--gdb", 0, fmt::format("cannot listen on 127.0.0.1:{}: {}", port, why));
    }
    socklen_t len = sizeof addr;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
}

gdb_stub::gdb_stub(debug_target& target, connected_socket socket) : target_(target), conn_(socket.fd) {}

gdb_stub::~gdb_stub() {
    close_connection();
    if (listener_ >= 0) ::close(listener_);
}

void gdb_stub::close_connection() {
    if (conn_ >= 0) ::close(conn_);
    conn_ = -1;
    in_.clear();
    ack_mode_ = true;
    awaiting_stop_reply_ = false;
}

bool gdb_stub::accept_connection(int timeout_ms) {
    if (conn_ >= 0) return true;
    if (listener_ < 0) return false;
    pollfd p{listener_, POLLIN, 0};
    int r;
    do r = ::poll(&p, 1, timeout_ms);
    while (r < 0 && errno == EINTR);
    if (r <= 0) return false;
    int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return false;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); // a reply per packet: no Nagle delay
    conn_ = fd;
    in_.clear();
    ack_mode_ = true;
    awaiting_stop_reply_ = false;
    return true;
}

bool gdb_stub::fill(bool block) {
    if (conn_ < 0) return false;
    pollfd p{conn_, POLLIN, 0};
    int r;
    do r = ::poll(&p, 1, block ? -1 : 0);
    while (r < 0 && errno == EINTR);
    if (r == 0) return true; // nothing yet
    char buffer[4096];
    ssize_t n;
    do n = ::recv(conn_, buffer, sizeof buffer, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
        close_connection();
        return false;
    }
    in_.append(buffer, size_t(n));
    return true;
}

std::optional<std::string> gdb_stub::read_packet() {
    for (;;) {
        // Drop acks and noise before a packet; 0x03 outside a packet is an interrupt.
        size_t start = 0;
        while (start < in_.size() && in_[start] != '$') {
            if (in_[start] == '\x03') interrupt_pending_ = true;
            ++start;
        }
        in_.erase(0, start);
        size_t hash = in_.find('#');
        if (!in_.empty() && hash != std::string::npos && hash + 2 < in_.size()) {
            std::string payload = in_.substr(1, hash - 1);
            int hi = hex_digit(in_[hash + 1]), lo = hex_digit(in_[hash + 2]);
            in_.erase(0, hash + 3);
            bool good = hi >= 0 && lo >= 0 && uint8_t(hi << 4 | lo) == checksum(payload);
            if (ack_mode_) {
                const char ack = good ? '+' : '-';
                (void)::send(conn_, &ack, 1, MSG_NOSIGNAL);
            }
            if (good || !ack_mode_) return payload; // without acks a bad checksum cannot be resent
            continue;
        }
        if (in_.size() > 2 * packet_size + 4) { // no end in sight: not GDB
            close_connection();
            return std::nullopt;
        }
        if (!fill(true)) return std::nullopt;
    }
}

void gdb_stub::send_packet(const std::string& payload, bool wait_for_ack) {
    if (conn_ < 0) return;
    const std::string framed = frame(payload);
    for (int attempt = 0; attempt < 3; ++attempt) {
        size_t sent = 0;
        while (sent < framed.size()) {
            ssize_t n = ::send(conn_, framed.data() + sent, framed.size() - sent, MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                close_connection();
                return;
            }
            sent += size_t(n);
        }
        if (!ack_mode_ || !wait_for_ack) return;
        // Wait for the ack ('+'); '-' asks for the packet again.
        for (;;) {
            size_t i = 0;
            while (i < in_.size() && in_[i] != '+' && in_[i] != '-' && in_[i] != '$') {
                if (in_[i] == '\x03') interrupt_pending_ = true;
                ++i;
            }
            in_.erase(0, i);
            if (!in_.empty() && in_[0] == '+') {
                in_.erase(0, 1);
                return;
            }
            if (!in_.empty() && in_[0] == '-') {
                in_.erase(0, 1);
                break; // resend
            }
            if (!in_.empty() && in_[0] == '$') return; // GDB went on without acking: take it as acked
            if (!fill(true)) return;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The session

resume_request gdb_stub::stopped(const stop_reason& why) {
    last_stop_ = stop_reply(why);
    general_cpu_ = why.cpu;
    interrupt_pending_ = false;
    if (conn_ < 0) return {};
    if (awaiting_stop_reply_) {
        awaiting_stop_reply_ = false;
        send_packet(last_stop_);
    }
    for (;;) {
        auto packet = read_packet();
        if (!packet) return {}; // GDB went away: run on
        std::optional<resume_request> resume;
        std::string reply = handle_packet(*packet, resume);
        if (resume) {
            // D and vKill answer OK; the connection closes then, without waiting for GDB's ack.
            if (!reply.empty()) send_packet(reply, false);
            if (resume->k == resume_request::kind::resume) awaiting_stop_reply_ = true;
            else close_connection();
            return *resume;
        }
        send_packet(reply);
    }
}

bool gdb_stub::interrupt_requested() {
    if (conn_ < 0) {
        // A new connection halts the target: GDB expects a stopped target when it attaches.
        if (accept_connection(0)) return true;
        return false;
    }
    if (!fill(false)) return false;
    for (char c : in_)
        if (c == '\x03') interrupt_pending_ = true;
    if (interrupt_pending_) {
        in_.erase(std::remove(in_.begin(), in_.end(), '\x03'), in_.end());
        interrupt_pending_ = false;
        return true;
    }
    return false;
}

void gdb_stub::exited(int status) {
    last_stop_ = fmt::format("W{:02x}", unsigned(status) & 0xff);
    if (conn_ < 0) return;
    if (awaiting_stop_reply_) {
        awaiting_stop_reply_ = false;
        send_packet(last_stop_);
    }
    // Serve until GDB leaves: it may read memory, kill or detach; resuming is refused (exited).
    for (;;) {
        auto packet = read_packet();
        if (!packet) return;
        std::optional<resume_request> resume;
        std::string reply;
        if (!packet->empty() && (packet->front() == 'c' || packet->front() == 's' || packet->front() == 'C' ||
                                 packet->front() == 'S' || packet->rfind("vCont;", 0) == 0))
            reply = last_stop_; // nothing to run: report the exit again
        else
            reply = handle_packet(*packet, resume);
        if (resume) {
            if (!reply.empty()) send_packet(reply, false);
            close_connection();
            return;
        }
        send_packet(reply);
    }
}

std::string gdb_stub::stop_reply(const stop_reason& why) const {
    std::string r = fmt::format("T{:02x}", unsigned(why.signal) & 0xff);
    if (why.watch) {
        const char* name = *why.watch == breakpoint_kind::read_watch ? "rwatch"
                           : *why.watch == breakpoint_kind::access_watch ? "awatch" : "watch";
        r += fmt::format("{}:{:x};", name, why.watch_address);
    }
    r += fmt::format("thread:{:x};", why.cpu + 1);
    return r;
}

std::optional<unsigned> gdb_stub::cpu_of_thread(const std::string& id) const {
    const auto cpus = target_.cpus();
    if (cpus.empty()) return std::nullopt;
    if (id == "0" || id == "-1") return general_cpu_; // any / all: the current one
    auto n = parse_number(id);
    if (!n || *n == 0) return std::nullopt;
    for (unsigned c : cpus)
        if (c + 1 == *n) return c;
    return std::nullopt;
}

std::string gdb_stub::read_registers(unsigned cpu) {
    std::string out;
    uint8_t bytes[16];
    for (unsigned r = 0; r < aarch64_regs::count; ++r) {
        const unsigned n = aarch64_regs::bytes(r);
        if (target_.read_register(cpu, r, bytes)) out += to_hex(bytes, n);
        else out += std::string(2 * n, 'x'); // unavailable
    }
    return out;
}

std::string gdb_stub::write_registers(unsigned cpu, const std::string& hex) {
    std::vector<uint8_t> bytes;
    if (!from_hex(hex, bytes)) return error_reply;
    size_t at = 0;
    for (unsigned r = 0; r < aarch64_regs::count && at < bytes.size(); ++r) {
        const unsigned n = aarch64_regs::bytes(r);
        if (at + n > bytes.size()) return error_reply;
        if (!target_.write_register(cpu, r, bytes.data() + at)) return error_reply;
        at += n;
    }
    return "OK";
}

// qXfer:features:read:ANNEX:OFFSET,LENGTH: 'm' + a part (more follows) or 'l' + the last part.
std::string gdb_stub::xfer_features(const std::string& annex, const std::string& range) {
    if (annex != "target.xml") return "E00";
    uint64_t offset = 0, length = 0;
    if (!parse_address_length(range, offset, length)) return error_reply;
    const std::string& xml = aarch64_target_xml();
    if (offset >= xml.size()) return "l";
    // The reply is escaped: keep its worst case (every byte doubled) inside the packet size.
    length = std::min<uint64_t>(length, packet_size / 2 - 8);
    std::string part = xml.substr(size_t(offset), size_t(length));
    return (offset + part.size() < xml.size() ? "m" : "l") + escape(part);
}

std::string gdb_stub::breakpoint_packet(const std::string& payload, bool insert) {
    // Z TYPE,ADDR,KIND
    auto first = payload.find(','), second = payload.find(',', first == std::string::npos ? 0 : first + 1);
    if (payload.size() < 2 || first != 2 || second == std::string::npos) return error_reply;
    const int type = payload[1] - '0';
    if (type < 0 || type > 4) return "";
    auto address = parse_number(payload.substr(first + 1, second - first - 1));
    auto kind_end = payload.find(';', second + 1); // conditions and commands after ';' are not supported
    auto length = parse_number(payload.substr(second + 1, kind_end == std::string::npos ? std::string::npos : kind_end - second - 1));
    if (!address || !length) return error_reply;
    const auto kind = breakpoint_kind(type);
    if (!target_.supports(kind)) return "";
    bool ok = insert ? target_.insert_breakpoint(kind, *address, unsigned(*length))
                     : target_.remove_breakpoint(kind, *address, unsigned(*length));
    return ok ? "OK" : error_reply;
}

// vCont;ACTION[:THREAD];...: the first action that applies to a thread wins (GDB manual, vCont).
// A step of one thread with the rest continuing (`vCont;s:2;c`) steps that thread alone: the
// others stay halted meanwhile (docs/debugging.md).
std::string gdb_stub::vcont(const std::string& actions, std::optional<resume_request>& resume) {
    resume_request r;
    size_t at = 0;
    while (at < actions.size()) {
        size_t end = actions.find(';', at);
        std::string action = actions.substr(at, end == std::string::npos ? std::string::npos : end - at);
        at = end == std::string::npos ? actions.size() : end + 1;
        if (action.empty()) continue;
        std::string thread;
        auto colon = action.find(':');
        if (colon != std::string::npos) {
            thread = action.substr(colon + 1);
            action = action.substr(0, colon);
        }
        const char op = action[0];
        if (op == 's' || op == 'S') {
            if (r.step) continue;
            auto cpu = thread.empty() ? std::optional<unsigned>(general_cpu_) : cpu_of_thread(thread);
            if (!cpu) return error_reply;
            r.step = *cpu;
        } else if (op == 'c' || op == 'C') {
            if (!thread.empty() && !cpu_of_thread(thread)) return error_reply;
        } else if (op == 't') {
            // stop: in all-stop mode everything is stopped already
        } else {
            return ""; // r (range step) is not supported: GDB steps instead
        }
    }
    resume = r;
    return "";
}

std::string gdb_stub::handle_packet(const std::string& p, std::optional<resume_request>& resume) {
    if (p.empty()) return "";
    const std::string rest = p.substr(1);
    switch (p[0]) {
    case '?': return last_stop_.empty() ? fmt::format("T{:02x}thread:{:x};", sigtrap, general_cpu_ + 1) : last_stop_;
    case 'g': return read_registers(general_cpu_);
    case 'G': return write_registers(general_cpu_, rest);
    case 'p': {
        auto r = parse_number(rest);
        if (!r || *r >= aarch64_regs::count) return error_reply;
        uint8_t bytes[16];
        if (!target_.read_register(general_cpu_, unsigned(*r), bytes)) return error_reply;
        return to_hex(bytes, aarch64_regs::bytes(unsigned(*r)));
    }
    case 'P': {
        auto eq = rest.find('=');
        if (eq == std::string::npos) return error_reply;
        auto r = parse_number(rest.substr(0, eq));
        std::vector<uint8_t> bytes;
        if (!r || *r >= aarch64_regs::count || !from_hex(rest.substr(eq + 1), bytes) ||
            bytes.size() != aarch64_regs::bytes(unsigned(*r)))
            return error_reply;
        return target_.write_register(general_cpu_, unsigned(*r), bytes.data()) ? "OK" : error_reply;
    }
    case 'm': {
        uint64_t address = 0, length = 0;
        if (!parse_address_length(rest, address, length)) return error_reply;
        length = std::min<uint64_t>(length, packet_size / 2 - 8);
        std::vector<uint8_t> bytes(static_cast<size_t>(length));
        if (length && !target_.read_memory(general_cpu_, address, bytes.data(), bytes.size())) return error_reply;
        return to_hex(bytes.data(), bytes.size());
    }
    case 'M':
    case 'X': {
        auto colon = rest.find(':');
        uint64_t address = 0, length = 0;
        if (colon == std::string::npos || !parse_address_length(rest.substr(0, colon), address, length)) return error_reply;
        std::vector<uint8_t> bytes;
        if (p[0] == 'M') {
            if (!from_hex(rest.substr(colon + 1), bytes)) return error_reply;
        } else {
            std::string data = unescape(rest.substr(colon + 1));
            bytes.assign(data.begin(), data.end());
        }
        if (bytes.size() != length) return error_reply;
        if (length == 0) return "OK"; // GDB probes X support with an empty write
        return target_.write_memory(general_cpu_, address, bytes.data(), bytes.size()) ? "OK" : error_reply;
    }
    case 'c':
    case 'C':
        resume = resume_request{};
        return "";
    case 's':
    case 'S':
        resume = resume_request{resume_request::kind::resume, general_cpu_};
        return "";
    case 'H': {
        if (rest.empty()) return error_reply;
        auto cpu = cpu_of_thread(rest.substr(1));
        if (!cpu) return error_reply;
        if (rest[0] == 'g' || rest[0] == 'c') general_cpu_ = *cpu; // Hc: the thread s/c act on, as Hg
        return "OK";
    }
    case 'T': return cpu_of_thread(rest) && rest != "0" && rest != "-1" ? "OK" : error_reply;
    case 'Z': return breakpoint_packet(p, true);
    case 'z': return breakpoint_packet(p, false);
    case 'k':
        resume = resume_request{resume_request::kind::kill, std::nullopt};
        return "";
    case 'D':
        resume = resume_request{resume_request::kind::detach, std::nullopt};
        return "OK";
    default: break;
    }
    if (p.rfind("qSupported", 0) == 0)
        return fmt::format("PacketSize={:x};qXfer:features:read+;QStartNoAckMode+;vContSupported+", packet_size);
    if (p == "QStartNoAckMode") {
        ack_mode_ = false; // as gdbserver: the OK is the first packet without an ack wait (GDB's '+' for it is skipped)
        return "OK";
    }
    if (p.rfind("qXfer:features:read:", 0) == 0) {
        std::string args = p.substr(std::strlen("qXfer:features:read:"));
        auto colon = args.find(':');
        if (colon == std::string::npos) return error_reply;
        return xfer_features(args.substr(0, colon), args.substr(colon + 1));
    }
    if (p == "qfThreadInfo") {
        std::string r = "m";
        for (unsigned c : target_.cpus()) r += fmt::format("{}{:x}", r.size() > 1 ? "," : "", c + 1);
        return r.size() > 1 ? r : "l";
    }
    if (p == "qsThreadInfo") return "l";
    if (p == "qC") return fmt::format("QC{:x}", general_cpu_ + 1);
    if (p == "qAttached") return "1"; // attached to an existing process: `kill` asks, `quit` detaches
    if (p.rfind("qThreadExtraInfo,", 0) == 0) {
        auto cpu = cpu_of_thread(p.substr(std::strlen("qThreadExtraInfo,")));
        if (!cpu) return error_reply;
        return to_hex(target_.describe(*cpu));
    }
    if (p == "vCont?") return "vCont;c;C;s;S;t";
    if (p.rfind("vCont;", 0) == 0) {
        std::string r = vcont(p.substr(6), resume);
        return resume ? "" : r;
    }
    if (p.rfind("vKill", 0) == 0) {
        resume = resume_request{resume_request::kind::kill, std::nullopt};
        return "OK";
    }
    if (p == "qSymbol::") return "OK";
    return ""; // not supported (vMustReplyEmpty, qTStatus, qOffsets, ...)
}

} // namespace pmusim::debug
