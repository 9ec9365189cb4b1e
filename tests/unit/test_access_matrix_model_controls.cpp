// Access matrix, model-only controls: inputs that are wires or pins on silicon (the DSU's lock
// inputs and its authentication signals DBGEN, NIDEN, SPIDEN, SPNIDEN: DSU TRM "external debug
// interface" signals; docs/dsu_clusterpmu.md "External access") must not be registers any
// modelled software can write. The model names them like registers (dsu0.CTL_*) for the
// testbench only: every CPU at every EL and security state and every debugger sees their
// addresses RAZ/WI (docs/reliability.md, "Model-only controls"). The oracle is the list of pins
// below, written from those documents, not from the model's tables.
#include "tests/unit/access_matrix_bench.h"

using namespace pmusim;
using namespace pmusim::access_matrix;

namespace {

// The DSU's model inputs (pins) and status, by name: the whole list the model may expose.
const std::set<std::string> dsu_pins = {"CTL_OSLOCK", "CTL_DLOCK", "CTL_AUTH", "CTL_PWRSTAT"};

struct requester {
    std::string label;
    access_context ctx;
};

std::vector<requester> every_requester(platform& p) {
    std::vector<requester> out;
    const bool power = p.config().arch == arch_kind::power;
    for (unsigned cpu = 0; cpu < p.system().cpus.size(); ++cpu) {
        if (power) {
            for (auto priv : {power_privilege::problem, power_privilege::supervisor, power_privilege::hypervisor}) {
                access_context c;
                c.cpu = cpu;
                c.is_power = true;
                c.privilege = priv;
                out.push_back({"cpu" + std::to_string(cpu) + " privilege " + std::to_string(int(priv)), c});
            }
            continue;
        }
        for (unsigned el = 0; el < 4; ++el)
            for (bool secure : {false, true})
                for (bool guest : {false, true}) {
                    if ((el == 3 && !secure) || (guest && el >= 2)) continue;
                    access_context c;
                    c.cpu = cpu;
                    c.el = el;
                    c.secure = secure;
                    c.guest = guest;
                    out.push_back({ctx_label("", el, secure, guest, false) + " cpu" + std::to_string(cpu), c});
                }
    }
    for (auto who : {initiator_kind::debugger, initiator_kind::microcontroller, initiator_kind::dma})
        for (bool secure : {false, true}) {
            access_context c;
            c.initiator = who;
            c.secure = secure;
            out.push_back({"initiator " + std::to_string(int(who)) + (secure ? " S" : " NS"), c});
        }
    for (auto& r : out) r.ctx.path = access_path::memory_mapped;
    return out;
}

// Every model input of every unit of the platform: each refuses every bus access (reads RAZ,
// writes ignored, the input unchanged), and the testbench still sets and reads it.
void check_platform(const std::string& name, const std::set<std::string>& expected_inputs) {
    register_all_units();
    platform p(load_platform(name));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    tally t("model-only controls");
    std::set<std::string> found;
    const auto requesters = every_requester(p);
    for (unit* u : p.units()) {
        model_inputs* inputs = capability<model_inputs>(*u); // the units with pins (models/unit_capabilities.h)
        for (const auto& def : u->table().registers) {
            const bool looks_like_pin = def.name.rfind("CTL_", 0) == 0 ||
                                        def.description.find("Model input") != std::string::npos ||
                                        def.description.find("Model status") != std::string::npos;
            if (!inputs || !inputs->is_model_input(def)) {
                if (looks_like_pin) t.fail(std::string(u->basename()) + "." + def.name + " is a model control but reachable over the bus");
                continue;
            }
            const std::string full = std::string(u->basename()) + "." + def.name;
            found.insert(full);
            auto r = p.resolve_register(full, 0);
            REQUIRE(r);
            const bool writable = def.name != "CTL_PWRSTAT";
            uint64_t known = 0;
            REQUIRE(inputs->testbench_input(def, false, known));
            if (writable) { // a value whose leak or change shows: the lowest bit flipped
                known ^= 1;
                uint64_t v = known;
                REQUIRE(inputs->testbench_input(def, true, v));
            }
            for (const auto& who : requesters)
                for (unsigned len : {4u, 8u})
                    for (bool write : {false, true}) {
                        auto a = b.access(who.ctx, r->address, len, write, write ? all_ones : poison);
                        ++t.checked;
                        const std::string label = full + " " + who.label + (write ? " write" : " read") +
                                                  std::to_string(len * 8);
                        if (!write && a.status == tlm::TLM_OK_RESPONSE && a.value != 0)
                            t.fail(label + ": read " + std::to_string(a.value) + ", expected RAZ");
                        uint64_t now = 0;
                        REQUIRE(inputs->testbench_input(def, false, now));
                        if (now != known) t.fail(label + ": changed the input");
                    }
        }
    }
    CHECK(found == expected_inputs);
    t.print();
    CHECK(t.disagreements == 0);
}

std::set<std::string> pins_of(const std::string& instance) {
    std::set<std::string> out;
    for (const auto& pin : dsu_pins) out.insert(instance + "." + pin);
    return out;
}

} // namespace

TEST_CASE("access matrix: model-only controls of arm-default are testbench-only") {
    std::set<std::string> both = pins_of("dsu0"); // arm-default has two clusters (platforms/arm-default.yaml)
    both.merge(pins_of("dsu1"));
    check_platform("arm-default", both);
}

TEST_CASE("access matrix: power9-default has no model-only control a CPU reaches") {
    check_platform("power9-default", {});
}

// The example: a Non-secure EL0 write of 0xF to CTL_AUTH's address (0x2A001008) used to
// grant a Non-secure debugger the PMU frame.
TEST_CASE("access matrix: a Non-secure EL0 store to the DSU authentication pins grants nothing") {
    register_all_units();
    platform p(load_platform("arm-default"));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.debug_write("dsu0.CTL_AUTH", 0); // no debug authentication at all
    auto pmcr = p.resolve_register("dsu0.PMCR", 0);
    REQUIRE(pmcr);
    CHECK(b.mmio(initiator_kind::debugger, 0, false, pmcr->address, 4, false, poison).status ==
          tlm::TLM_GENERIC_ERROR_RESPONSE);
    access_context el0;
    el0.cpu = 0;
    el0.el = 0;
    el0.secure = false;
    el0.path = access_path::memory_mapped;
    auto store = b.access(el0, 0x2A001008, 4, true, 0xF);
    CHECK(store.status == tlm::TLM_OK_RESPONSE); // RAZ/WI, as any unoccupied offset of the window
    CHECK(b.mmio(initiator_kind::debugger, 0, false, pmcr->address, 4, false, poison).status ==
          tlm::TLM_GENERIC_ERROR_RESPONSE);
}
