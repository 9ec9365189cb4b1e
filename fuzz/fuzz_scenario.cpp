// libFuzzer target: the what-if scenario loader (tb/scenario: parse_scenario, with its platform,
// workload schedule, sampling, sequences and event-stream references).
// Property: any text either loads or is refused with an input_error; yaml-cpp's own exceptions,
// std::out_of_range, bad_alloc and friends must not escape. Files it names are looked up next to
// "<fuzz>/scenario.yaml" (a folder that does not exist): references are refused, never read.
#include <cstdint>
#include <string>

#include "models/input_error.h"
#include "tb/scenario.h"
#include "vp/unit_list.h"

using namespace pmusim;

// libsystemc.so calls sc_main (C linkage, as <systemc> declares it); the fuzzer's main runs instead.
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static bool registered = (register_all_units(), true);
    (void)registered;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)parse_scenario(text, "<fuzz>/scenario.yaml");
    } catch (const input_error&) {
        return 0;
    }
    return 0;
}
