// libFuzzer target: the sweep file loader (tb/sweep: parse_sweep, then check_sweep_params, which
// loads the named scenario with the first point's values).
// Property: any text either loads or is refused with an input_error; nothing else escapes.
// Invariants: a loaded sweep has at least one point, as many parameters as each point has values,
// one line per parameter, and its point count is what its axes multiply to (the grid is never
// enumerated, so even 10^18 points cost one point's memory).
// The text is read as if it were "scenarios/studies/fie/fuzz-sweep.yaml", so a seed's
// `scenario: fie.yaml` names a real scenario and the grid and points grammar is reached.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "models/input_error.h"
#include "tb/sweep.h"
#include "vp/unit_list.h"

using namespace pmusim;

extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static bool registered = (register_all_units(), true);
    (void)registered;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const sweep_spec s = parse_sweep(text, PMUSIM_SOURCE_DIR "/scenarios/studies/fie/fuzz-sweep.yaml");
        if (s.point_count == 0 || s.param_lines.size() != s.params.size()) std::abort();
        if (s.point(0).size() != s.params.size() || s.point(s.point_count - 1).size() != s.params.size()) std::abort();
        check_sweep_params(s);
    } catch (const input_error&) {
        return 0;
    }
    return 0;
}
