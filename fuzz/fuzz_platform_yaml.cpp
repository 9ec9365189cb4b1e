// libFuzzer target: the YAML platform loader (tb/platform_config: parse_platform, which also
// validates every unit's parameters against the schema its unit registered).
// Property: any text either loads or is refused with an input_error; yaml-cpp's own exceptions,
// std::out_of_range, bad_alloc and friends must not escape.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "vp/platform_listing.h"
#include "vp/unit_list.h"

using namespace pmusim;

// libsystemc.so calls sc_main (C linkage, as <systemc> declares it); the fuzzer's main runs instead.
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static bool registered = (register_all_units(), true);
    (void)registered;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        platform_config p = parse_platform(text, "<fuzz>.yaml");
        // A loaded platform must also list its parameters without throwing.
        (void)list_params(p);
    } catch (const input_error&) {
        return 0;
    }
    return 0;
}
