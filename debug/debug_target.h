#pragma once
// What a debugger needs of a simulated CPU cluster (docs/debugging.md): the GDB remote stub
// (debug/gdb_stub.h) serves GDB through this interface only, so it knows nothing of the ISS, and
// its protocol is tested against a fake target (tests/unit/test_gdb_stub.cpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pmusim::debug {

// AArch64 registers in GDB's numbering: the order of the target description (debug/
// aarch64_target_xml.cpp; GDB manual, "AArch64 Features": org.gnu.gdb.aarch64.core then .fpu).
namespace aarch64_regs {
constexpr unsigned x0 = 0, x30 = 30, sp = 31, pc = 32, cpsr = 33, v0 = 34, v31 = 65, fpsr = 66, fpcr = 67, count = 68;
// Bytes of register `regno` in the protocol (little-endian): 8, 4 (cpsr, fpsr, fpcr) or 16 (V).
constexpr unsigned bytes(unsigned regno) { return regno == cpsr || regno == fpsr || regno == fpcr ? 4 : regno >= v0 && regno <= v31 ? 16 : 8; }
} // namespace aarch64_regs

// The Z/z packet types (GDB manual, "Packets": Z0 software breakpoint ... Z4 access watchpoint).
enum class breakpoint_kind { software = 0, hardware = 1, write_watch = 2, read_watch = 3, access_watch = 4 };

class debug_target {
public:
    virtual ~debug_target() = default;
    // The CPUs, each a GDB thread (thread id = CPU number + 1: GDB's ids are positive).
    virtual std::vector<unsigned> cpus() const = 0;
    // A short description GDB shows in `info threads` ("cpu0 EL3 running firmware").
    virtual std::string describe(unsigned cpu) const = 0;
    // Register `regno` (aarch64_regs) in aarch64_regs::bytes(regno) little-endian bytes.
    virtual bool read_register(unsigned cpu, unsigned regno, uint8_t* bytes) = 0;
    virtual bool write_register(unsigned cpu, unsigned regno, const uint8_t* bytes) = 0;
    // Memory as CPU `cpu` sees it (virtual addresses when its MMU is on). False: not accessible.
    virtual bool read_memory(unsigned cpu, uint64_t address, uint8_t* bytes, size_t length) = 0;
    virtual bool write_memory(unsigned cpu, uint64_t address, const uint8_t* bytes, size_t length) = 0;
    // Breakpoints and watchpoints on every CPU. supports() false: the stub answers "not supported"
    // (an empty packet) and GDB falls back (software watchpoints by single-stepping).
    virtual bool supports(breakpoint_kind kind) const = 0;
    virtual bool insert_breakpoint(breakpoint_kind kind, uint64_t address, unsigned length) = 0;
    virtual bool remove_breakpoint(breakpoint_kind kind, uint64_t address, unsigned length) = 0;
};

} // namespace pmusim::debug
