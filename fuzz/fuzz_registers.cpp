// libFuzzer target: the register interface of every unit of one platform (PMUSIM_FUZZ_PLATFORM:
// arm-default or power9-default; CMake builds one target per platform). The input is a program
// of operations decoded with FuzzedDataProvider: system-register accesses (any CPU, EL, security,
// guest flag, implemented encodings or random ones), memory-mapped accesses of any width and
// alignment into every unit window and the gaps around them (any initiator), time advances,
// power and security changes, and injected events. After every access the accessed unit's
// invariants are checked (fuzz/invariants.h), after every program the whole platform's.
// Properties of every access: a refused read returns no data; the TLM status agrees with the
// outcome (OK <-> ok/ignored, COMMAND_ERROR only for a system-register exception).
// The platform is built once per process (SystemC allows one elaboration) and reset cold at
// the start of every input; simulated time only moves forward, at most 100 us per input.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fuzzer/FuzzedDataProvider.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/sanitizer_fibers.h"
#include "fuzz/invariants.h"
#include "models/sim_time.h"
#include "vp/platform_config.h"
#include "vp/unit_list.h"

#ifndef PMUSIM_FUZZ_PLATFORM
#define PMUSIM_FUZZ_PLATFORM "arm-default"
#endif

using namespace pmusim;

namespace {

constexpr uint64_t poison = 0x5A5A5A5A5A5A5A5AULL;

struct harness : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<harness> out{"out"};
    platform& p;
    struct sysreg_target {
        uint32_t key;
        unit* owner;
    };
    std::vector<std::vector<sysreg_target>> sysregs; // per CPU
    struct window {
        uint64_t base, size;
        unit* owner;
        std::vector<uint64_t> offsets; // register offsets in the table
    };
    std::vector<window> windows;

    harness(const sc_core::sc_module_name& n, platform& pl) : sc_module(n), p(pl) {
        out.bind(p.gate().from_initiators);
        sysregs.resize(p.system().cpus.size());
        for (unit* u : p.units()) {
            for (unsigned cpu = 0; cpu < sysregs.size(); ++cpu)
                for (const register_def* def : u->sysregs(cpu)) sysregs[cpu].push_back({def->sysreg->key(), u});
            for (const auto& w : u->mmio_windows()) {
                // Every register instance (each CMN-600 node's, each core's IMC SCOMs), not only
                // the unit table's offsets.
                windows.push_back({w.base, w.size, u, fuzzing::register_offsets(*u, w)});
            }
        }
    }

    void access(FuzzedDataProvider& in) {
        const bool system_register = in.ConsumeBool();
        access_context ctx;
        ctx.initiator = system_register ? initiator_kind::cpu : initiator_kind(in.ConsumeIntegralInRange<int>(0, 3));
        ctx.cpu = in.ConsumeIntegralInRange<unsigned>(0, unsigned(p.system().cpus.size()));   // one past the end too
        ctx.el = in.ConsumeIntegralInRange<unsigned>(0, 4);                                    // EL4 does not exist
        ctx.secure = in.ConsumeBool();
        ctx.guest = in.ConsumeBool();
        ctx.is_power = in.ConsumeBool();
        ctx.privilege = power_privilege(in.ConsumeIntegralInRange<int>(0, 2));
        ctx.path = system_register ? access_path::system_register : access_path::memory_mapped;
        const bool write = in.ConsumeBool();
        uint64_t address = 0;
        unsigned bytes = 8;
        unit* owner = nullptr;
        if (system_register) {
            const auto& list = ctx.cpu < sysregs.size() ? sysregs[ctx.cpu] : sysregs[0];
            if (!list.empty() && in.ConsumeIntegralInRange<int>(0, 7) != 0) {
                const auto& t = list[in.ConsumeIntegralInRange<size_t>(0, list.size() - 1)];
                address = t.key;
                owner = t.owner;
            } else {
                address = in.ConsumeIntegral<uint32_t>() & 0xffff; // any encoding (Op0 Op1 CRn CRm Op2 = 16 bits)
            }
        } else if (!windows.empty() && in.ConsumeIntegralInRange<int>(0, 7) != 0) {
            const window& w = windows[in.ConsumeIntegralInRange<size_t>(0, windows.size() - 1)];
            owner = w.owner;
            uint64_t offset = !w.offsets.empty() && in.ConsumeBool()
                                  ? w.offsets[in.ConsumeIntegralInRange<size_t>(0, w.offsets.size() - 1)]
                                  : in.ConsumeIntegralInRange<uint64_t>(0, w.size + 16);
            offset += in.ConsumeIntegralInRange<int>(-1, 4) * (in.ConsumeBool() ? 1 : 4); // misalignment, neighbours
            address = w.base + offset;
            const unsigned widths[] = {1, 2, 4, 8, 3, 16};
            bytes = widths[in.ConsumeIntegralInRange<int>(0, 5)];
        } else {
            address = in.ConsumeIntegral<uint64_t>();
            bytes = 1u << in.ConsumeIntegralInRange<int>(0, 3);
        }
        const uint64_t values[] = {0, ~0ULL, 1, 0x80000000ULL, 0xC5ACCE55ULL, 0x7fffffffffffffffULL};
        const uint64_t value = in.ConsumeBool() ? values[in.ConsumeIntegralInRange<int>(0, 5)] : in.ConsumeIntegral<uint64_t>();

        tlm::tlm_generic_payload t;
        uint8_t data[16];
        for (unsigned i = 0; i < 16; i += 8) std::memcpy(data + i, write ? &value : &poison, 8);
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(address);
        t.set_data_ptr(data);
        t.set_data_length(bytes);
        t.set_streaming_width(bytes);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        t.set_extension(&ctx);
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        out->b_transport(t, d);
        t.clear_extension(&ctx);

        const auto status = t.get_response_status();
        const auto describe = [&] {
            return fmt::format("{} {} {:#x} ({} bytes) by {}: status {}, outcome {}, detail '{}'", write ? "write" : "read",
                               system_register ? "sysreg" : "mmio", address, bytes, ctx.describe(), int(status),
                               to_string(ctx.outcome), ctx.detail);
        };
        bool consistent = true;
        if (status == tlm::TLM_INCOMPLETE_RESPONSE) consistent = false;
        if (status == tlm::TLM_OK_RESPONSE && ctx.outcome != access_outcome::ok && ctx.outcome != access_outcome::ignored) consistent = false;
        if (status == tlm::TLM_COMMAND_ERROR_RESPONSE &&
            (!system_register || ctx.outcome == access_outcome::ok || ctx.outcome == access_outcome::ignored)) consistent = false;
        if (!consistent) {
            std::fprintf(stderr, "inconsistent response: %s\n", describe().c_str());
            std::abort();
        }
        if (!write && status != tlm::TLM_OK_RESPONSE) {
            // The access's own bytes are left as they were (poison) or zeroed, as a whole; no byte
            // beyond its width is touched (a refused 4-byte read zeroes 4 bytes, not 8).
            bool untouched = true, zeroed = true, beyond_untouched = true;
            for (unsigned i = 0; i < sizeof data; ++i) {
                if (i < bytes) {
                    untouched = untouched && data[i] == uint8_t(poison);
                    zeroed = zeroed && data[i] == 0;
                } else {
                    beyond_untouched = beyond_untouched && data[i] == uint8_t(poison);
                }
            }
            if (!(untouched || zeroed) || !beyond_untouched) {
                uint64_t got[2];
                std::memcpy(got, data, 16);
                std::fprintf(stderr, "a refused read returned data %#llx %#llx: %s\n", (unsigned long long)got[0],
                             (unsigned long long)got[1], describe().c_str());
                std::abort();
            }
        }
        if (owner) fuzzing::require_invariants(p, owner, describe().c_str());
    }
};

platform* the_platform = nullptr;
harness* the_harness = nullptr;

void init() {
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    register_all_units();
    the_platform = new platform(load_platform(PMUSIM_FUZZ_PLATFORM));
    the_harness = new harness("fuzz_harness", *the_platform);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    pmusim::sanitizer_fibers::main_stack_resumed();
}

} // namespace

int sc_main(int, char**) { return 0; } // libsystemc.so needs one; libFuzzer's main runs

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (!the_platform) init();
    platform& p = *the_platform;
    p.reset(true);
    FuzzedDataProvider in(data, size);
    fs_t advanced = 0;
    const fs_t budget = 100'000'000'000; // 100 us
    for (int op = 0; op < 512 && in.remaining_bytes() > 0; ++op) {
        switch (in.ConsumeIntegralInRange<int>(0, 9)) {
        case 0: case 1: case 2: case 3: case 4: case 5: the_harness->access(in); break;
        case 6: { // advance time
            fs_t d = in.ConsumeIntegralInRange<fs_t>(0, 10'000'000'000); // up to 10 us
            if (advanced + d > budget) break;
            advanced += d;
            sc_core::sc_start(sc_core::sc_time::from_value(d));
            pmusim::sanitizer_fibers::main_stack_resumed();
            break;
        }
        case 7: { // power state of a CPU
            auto& cpus = p.system().cpus;
            if (cpus.empty()) break;
            unsigned cpu = in.ConsumeIntegralInRange<unsigned>(0, unsigned(cpus.size() - 1));
            p.system().core(cpu).set_power(power_state(in.ConsumeIntegralInRange<int>(0, 3)), now_fs());
            break;
        }
        case 8: { // security state of a CPU
            auto& cpus = p.system().cpus;
            if (cpus.empty()) break;
            unsigned cpu = in.ConsumeIntegralInRange<unsigned>(0, unsigned(cpus.size() - 1));
            p.system().core(cpu).set_secure(in.ConsumeBool(), now_fs());
            break;
        }
        case 9: { // injected events into a unit (refusals are fine; crashes are not)
            if (p.units().empty()) break;
            unit* u = p.units()[in.ConsumeIntegralInRange<size_t>(0, p.units().size() - 1)];
            // Names the units know, and anything else.
            const char* nodes[] = {"", "cpu0", "cpu1", "cpu4", "cpu9"};
            const char* events[] = {"aux0", "aux1", "aux15", "0x11", "0x2a", "0x2b", "L3D_CACHE", "bus_access", "CYCLES", "0x4004"};
            std::string node = in.ConsumeBool() ? nodes[in.ConsumeIntegralInRange<int>(0, 4)] : in.ConsumeRandomLengthString(8);
            std::string event = in.ConsumeBool() ? events[in.ConsumeIntegralInRange<int>(0, 9)] : in.ConsumeRandomLengthString(16);
            std::string error;
            uint64_t count = in.ConsumeIntegralInRange<uint64_t>(0, 1'000'000);
            fs_t over = in.ConsumeBool() ? in.ConsumeIntegralInRange<fs_t>(0, 10'000'000'000) : 0;
            try {
                u->inject(node, event, count, over, error);
            } catch (const input_error&) {
            }
            break;
        }
        }
    }
    fuzzing::require_invariants(p, nullptr, "the program");
    return 0;
}
