#pragma once
// What an ISS needs from the system it runs in (docs/firmware.md "The parts"), in models/ terms only:
// the ISS depends on models/ and on this, never on a platform or testbench (vp/, tb/). The virtual
// platform's adapter is vp/platform_iss.h; tests/unit/test_iss_host.cpp runs an ISS over a fake.
//
// The ISS asks once, at construction, for everything it uses per instruction or per access (the
// memory map, the gate, the control registers, its core model and IRQ lines, the access-log flag)
// and keeps references: no virtual call sits on its hot paths (the block hook, the MRS/MSR hook).
// What stays virtual happens once per run or per logged line.
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "models/sim_time.h"

namespace pmusim {

struct access_record;
class core_model;
class cpu_controls;
class firmware_gate;
class interrupt_line;
class memory;

// Where an ISS's records go: the human log, the simulated program's own output, the access log.
class cpu_log {
public:
    virtual ~cpu_log() = default;
    virtual void line(const std::string& text) = 0;           // a line of the human log
    virtual void program_output(const std::string& text) = 0; // one line the simulated program printed
    // The access log's stream, null while no access log is written: the ISS builds a record (most of
    // an access's cost) only while *access_log() is set. The pointer is read once, at construction;
    // what it points to is read at every access, so a log opened later is seen.
    virtual std::ostream* const* access_log() const = 0;
    virtual void access(const access_record& record) = 0; // one record, while *access_log() is set
};

// This CPU's models and identity, as the host wired them.
struct cpu_wiring {
    core_model* core = nullptr;              // its activity and AMU model (models/core.h), required
    std::vector<interrupt_line*> irq_inputs; // its IRQ input: taken while any of these is high
    unsigned cycles_per_instruction = 1;     // CPU cycles per retired instruction
    uint64_t mpidr = 0;                      // MPIDR_EL1 (iss/cpu_identity.h)
};

class cpu_host {
public:
    virtual ~cpu_host() = default;
    // The memory map: every plain-memory region as (base, region), fixed for the ISS's lifetime.
    // Everything else is a window: an access to it goes to the gate as a TLM transaction.
    virtual const std::vector<std::pair<uint64_t, memory*>>& memories() const = 0;
    // The register owners: the firmware gate, the ISS's TLM target (its socket binds to the gate's
    // from_initiators) and the owner of every system register a unit implements (sysreg_owner).
    virtual firmware_gate& gate() = 0;
    // The control registers (SCR_EL3, HCR_EL2, ...) every CPU's bank holds (models/cpu_controls.h).
    virtual cpu_controls& controls() = 0;
    // CPU `cpu`'s core model, interrupt lines and identity.
    virtual cpu_wiring wiring(unsigned cpu) = 0;
    virtual cpu_log& log() = 0;
    // CPU `cpu`'s firmware ended, its last instruction retiring at `t` (t >= now).
    virtual void firmware_exited(unsigned cpu, fs_t t) = 0;
};

} // namespace pmusim
