#pragma once
// Shared by the access-rule matrix tests (test_access_matrix*.cpp, docs/reliability.md): a bench
// initiator that drives accesses through the real gate and bus, whole-platform register snapshots
// (read behind the gate), and the tally that counts combinations and disagreements.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/cpu_controls.h"
#include "vp/platform.h"
#include "vp/platform_config.h"
#include "vp/unit_list.h"
#include "tests/unit/tlm_test_access.h"
#include "models/data_files.h"
#include "tests/unit/facts.h"

namespace pmusim::access_matrix {

using o = access_outcome;

inline const std::string source_tree = pmusim::source_dir();
constexpr uint64_t poison = 0x5A5A5A5A5A5A5A5AULL;  // pre-filled read buffer: a refused read must not overwrite it with data
constexpr uint64_t all_ones = ~0ULL;                 // written value: changes every writable bit

// Architectural bit positions, from the facts files (tests/facts/cpu.tsv: TF-A's arch.h and dsu.h,
// Linux's kvm_arm.h), not from models/cpu_controls.h.
inline uint64_t cpu_bit(const char* reg, const char* field) { return facts::fact_field("cpu_controls", reg, field).bit(); }
inline const uint64_t SCR_EEL2 = cpu_bit("SCR_EL3", "EEL2"), SCR_AMVOFFEN = cpu_bit("SCR_EL3", "AMVOFFEN"),
                      SCR_RES1 = facts::fact_field("cpu_controls", "SCR_EL3", "RES1").mask();
inline const uint64_t CPTR_TAM = cpu_bit("CPTR_EL3", "TAM"), CPTR_EL2_RES1 = facts::fact_number("cpu_controls", "CPTR_EL2", "reset");
inline const uint64_t HCR_TGE = cpu_bit("HCR_EL2", "TGE"), HCR_AMVOFFEN = cpu_bit("HCR_EL2", "AMVOFFEN");
inline const uint64_t HCR_TIDCP = cpu_bit("HCR_EL2", "TIDCP");
inline const uint64_t ACTLR_CLUSTERPMUEN = cpu_bit("ACTLR_EL3", "CLUSTERPMUEN");
inline const facts::field_pos ID_AA64PFR0_AMU = facts::fact_field("cpu_controls", "ID_AA64PFR0_EL1", "AMU");
// The system-register encoding a register of `table_unit` has in the facts files (TF-A, Linux).
inline uint32_t fact_key(const std::string& table_unit, const std::string& reg) {
    return facts::fact_encoding(table_unit, reg).key();
}

// One state of everything: the value of every register of every unit and of the CPU controls,
// read at EL3 (system registers, through the bus, behind the gate) and by a Secure debugger
// (memory-mapped), plus the units' observables (every counter, interrupt lines).
using snapshot = std::map<std::string, uint64_t>;

struct bench : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<bench> to_gate{"to_gate"};
    platform& p;
    bench(const sc_core::sc_module_name& n, platform& pl) : sc_module(n), p(pl) {
        to_gate.bind(p.gate().from_initiators);
        // Snapshots read behind the gate, straight from each unit's target socket.
    }

    testing::tlm_access_result sysreg(unsigned cpu, unsigned el, bool secure, bool guest, uint32_t key, bool write,
                                      uint64_t value) {
        access_context ctx = testing::sysreg_context(cpu, el, secure, guest);
        return testing::tlm_access(*to_gate.operator->(), write, key, 8, value, ctx);
    }
    testing::tlm_access_result mmio(initiator_kind who, unsigned cpu, bool secure, uint64_t address, unsigned len,
                                    bool write, uint64_t value) {
        access_context ctx;
        ctx.initiator = who;
        ctx.cpu = cpu;
        ctx.el = 1;
        ctx.secure = secure;
        ctx.path = access_path::memory_mapped;
        return testing::tlm_access(*to_gate.operator->(), write, address, len, value, ctx);
    }
    // Any request context (POWER privilege, debugger, service processor, ...).
    testing::tlm_access_result access(const access_context& ctx, uint64_t address, unsigned len, bool write,
                                      uint64_t value) {
        return testing::tlm_access(*to_gate.operator->(), write, address, len, value, ctx);
    }
    uint64_t el3_read(unsigned cpu, const std::string& reg) {
        auto r = p.resolve_register(reg, cpu);
        REQUIRE(r);
        auto a = sysreg(cpu, 3, true, false, r->key, false, 0);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return a.value;
    }
    void el3_write(unsigned cpu, const std::string& reg, uint64_t v) {
        auto r = p.resolve_register(reg, cpu);
        REQUIRE(r);
        auto a = sysreg(cpu, 3, true, false, r->key, true, v);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
    }
    void debug_write(const std::string& reg, uint64_t v) { // INSTANCE.REG, e.g. dsu0.PMCR
        auto r = p.resolve_register(reg, 0);
        REQUIRE(r);
        auto* inputs = capability<model_inputs>(*r->owner); // the DSU's pins (models/unit_capabilities.h)
        if (inputs && inputs->is_model_input(*r->def)) { // a pin (dsu0.CTL_AUTH): only the testbench sets it
            REQUIRE(inputs->testbench_input(*r->def, true, v));
            return;
        }
        auto a = mmio(initiator_kind::debugger, 0, true, r->address, r->width / 8, true, v);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
    }

    // Every register of the platform (cpu < 0), or only the system registers of every unit on
    // one CPU (a cheaper snapshot for the many refused writes after the first of each kind).
    // With only_unit: that unit alone (all its views).
    snapshot take(int only_cpu = -1, unit* only_unit = nullptr) {
        snapshot s;
        for (unit* u : p.units()) { // the CPU controls included
            if (only_unit && u != only_unit) continue;
            tlm::tlm_fw_transport_if<>& target = *u->registers_in.get_base_export().operator->();
            for (unsigned cpu = 0; cpu < p.system().cpus.size(); ++cpu) {
                if (only_cpu >= 0 && cpu != unsigned(only_cpu)) continue;
                for (const register_def* def : u->sysregs(cpu)) {
                    access_context ctx = testing::sysreg_context(cpu, 3, true);
                    auto a = testing::tlm_access(target, false, def->sysreg->key(), 8, 0, ctx);
                    s[std::string(u->basename()) + ".cpu" + std::to_string(cpu) + "." + def->name] = a.value;
                }
            }
            if (only_cpu >= 0) continue;
            for (const auto& w : u->mmio_windows())
                for (const auto& def : u->table().registers) {
                    if (!def.offset || *def.offset >= w.size) continue;
                    access_context ctx;
                    ctx.initiator = initiator_kind::debugger;
                    ctx.secure = true;
                    ctx.path = access_path::memory_mapped;
                    auto a = testing::tlm_access(target, false, w.base + *def.offset, def.width / 8, 0, ctx);
                    s[w.name + "." + def.name] = a.value;
                }
            std::vector<observable> obs;
            u->observables(obs);
            for (const auto& ob : obs) s["obs." + ob.name] = ob.value();
        }
        return s;
    }
};

inline std::string diff(const snapshot& before, const snapshot& after) {
    std::ostringstream out;
    for (const auto& [name, v] : before) {
        auto it = after.find(name);
        if (it == after.end()) out << name << " vanished; ";
        else if (it->second != v) out << name << ": " << std::hex << v << " -> " << it->second << std::dec << "; ";
    }
    return out.str();
}

// Outcome of a system-register access as the initiator sees it.
inline o seen(const testing::tlm_access_result& a) {
    if (a.status == tlm::TLM_OK_RESPONSE) return a.outcome == o::ignored ? o::ignored : o::ok;
    if (a.status == tlm::TLM_COMMAND_ERROR_RESPONSE) return a.outcome;
    return o::error;
}

// Collects disagreements; prints the first few and the count.
struct tally {
    explicit tally(const char* name) : what(name) {}
    const char* what;
    uint64_t checked = 0, skipped = 0, refused_writes = 0, refused_reads = 0, disagreements = 0;
    std::vector<std::string> first;
    std::set<std::string> fully_snapshotted;
    // The first refused write of each kind (register, outcome) gets a full-platform snapshot;
    // later ones snapshot every unit's system registers on the accessing CPU.
    int snapshot_scope(const std::string& kind, unsigned cpu) {
        return fully_snapshotted.insert(kind).second ? -1 : int(cpu);
    }
    void fail(const std::string& msg) {
        ++disagreements;
        if (first.size() < 20) first.push_back(msg);
    }
    void print() const {
        std::printf("%s: %llu combinations checked (%llu refused writes with a register snapshot before/after, "
                    "%llu refused reads), %llu impossible contexts skipped, %llu disagreements\n",
                    what, (unsigned long long)checked, (unsigned long long)refused_writes,
                    (unsigned long long)refused_reads, (unsigned long long)skipped,
                    (unsigned long long)disagreements);
        for (const auto& m : first) std::printf("  %s\n", m.c_str());
        std::fflush(stdout);
    }
};

// After a refused access: no data returned, nothing changed.
inline void check_refused(tally& t, bench& b, const snapshot& before, int scope, const testing::tlm_access_result& a,
                   bool write, const std::string& label) {
    if (write) {
        ++t.refused_writes;
        std::string d = diff(before, b.take(scope));
        if (!d.empty()) t.fail(label + ": refused write changed state: " + d);
    } else {
        ++t.refused_reads;
        if (a.value != poison && a.value != 0) t.fail(label + ": refused read returned data");
    }
}

inline std::string ctx_label(const std::string& reg, unsigned el, bool secure, bool guest, bool write) {
    return reg + (write ? " MSR" : " MRS") + " EL" + std::to_string(el) + (secure ? " S" : " NS") +
           (guest ? " guest" : "");
}

} // namespace pmusim::access_matrix
