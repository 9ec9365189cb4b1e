#pragma once
// A GDB Remote Serial Protocol server (GDB manual, appendix "GDB Remote Serial Protocol") for a
// debug_target, all-stop mode, one GDB at a time, on 127.0.0.1 only (docs/debugging.md).
//
// The stub is passive: the simulation calls it. When a CPU stops (the first halt, a breakpoint,
// a finished step, an interrupt from GDB), its thread calls stopped(), which reports the stop and
// serves packets until GDB resumes, and returns what GDB asked for; nothing else runs meanwhile,
// so simulated time stands still. While running, interrupt_requested() polls for Ctrl-C (0x03)
// or a new connection without blocking.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "debug/debug_target.h"

namespace pmusim::debug {

// Why a CPU stopped, as a stop reply says it (T packet).
struct stop_reason {
    unsigned cpu = 0;
    int signal = 5;                         // SIGTRAP (breakpoint, step); 2 SIGINT (Ctrl-C)
    std::optional<breakpoint_kind> watch;   // a watchpoint hit: kind and data address
    uint64_t watch_address = 0;
};

// What GDB asked for when it resumed.
struct resume_request {
    enum class kind { resume, kill, detach } k = kind::resume;
    // The CPU to single-step (the others stay halted); none: every CPU continues.
    std::optional<unsigned> step;
};

class gdb_stub {
public:
    // Listens on 127.0.0.1:`port` (0: a free port the system picks; port() tells which).
    gdb_stub(debug_target& target, uint16_t port);
    // Serves an already connected socket (tests: one end of a socketpair); takes ownership.
    struct connected_socket { int fd; };
    gdb_stub(debug_target& target, connected_socket socket);
    ~gdb_stub();
    gdb_stub(const gdb_stub&) = delete;
    gdb_stub& operator=(const gdb_stub&) = delete;

    uint16_t port() const { return port_; }
    bool connected() const { return conn_ >= 0; }
    // Blocks until GDB connects (--gdb-wait) or `timeout_ms` passes (-1: forever); true if connected.
    bool accept_connection(int timeout_ms = -1);

    // CPU `why.cpu` stopped: reports it (when GDB waits for a stop reply) and serves GDB until it
    // resumes, kills or detaches. Without a connection: resume.
    resume_request stopped(const stop_reason& why);
    // While running: true when GDB sent Ctrl-C or has just connected (all-stop: GDB expects a
    // stopped target when it attaches). Never blocks.
    bool interrupt_requested();
    // The program exited with `status` (W packet); GDB stays connected until it detaches or closes.
    void exited(int status);

    // The last stop reply and the packets' handling, without a socket (tests).
    std::string handle_packet(const std::string& payload, std::optional<resume_request>& resume);
    static std::string frame(const std::string& payload); // $payload#checksum, escaped
    static uint8_t checksum(const std::string& bytes);
    static std::string escape(const std::string& binary);      // } # $ * as '}' x^0x20
    static std::string unescape(const std::string& escaped);

private:
    debug_target& target_;
    int listener_ = -1, conn_ = -1;
    uint16_t port_ = 0;
    bool ack_mode_ = true;
    bool awaiting_stop_reply_ = false; // GDB sent c/s/vCont and waits for a T packet
    std::string last_stop_;            // the reply to '?'
    unsigned general_cpu_ = 0;         // Hg: registers and memory of this CPU
    std::string in_;                   // received bytes not yet a whole packet
    bool interrupt_pending_ = false;

    // Reads one packet's payload (acking it); nullopt when the connection closed.
    std::optional<std::string> read_packet();
    void send_packet(const std::string& payload, bool wait_for_ack = true);
    bool fill(bool block); // reads what the socket has into in_; false: closed
    void close_connection();
    std::string stop_reply(const stop_reason& why) const;
    std::optional<unsigned> cpu_of_thread(const std::string& id) const;
    std::string read_registers(unsigned cpu);
    std::string write_registers(unsigned cpu, const std::string& hex);
    std::string xfer_features(const std::string& annex, const std::string& range);
    std::string vcont(const std::string& actions, std::optional<resume_request>& resume);
    std::string breakpoint_packet(const std::string& payload, bool insert);
};

// The AArch64 target description GDB reads through qXfer:features:read:target.xml.
const std::string& aarch64_target_xml();

} // namespace pmusim::debug
