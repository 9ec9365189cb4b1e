// libFuzzer target: the `perf stat -I ... -x,` CSV reader that turns measured activity into a
// workload schedule (tb/perf_stat: parse_perf_stat).
// Property: any text either parses into intervals in time order with finite rates, or is refused
// with an input_error; nothing else escapes.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "models/input_error.h"
#include "tb/perf_stat.h"

using namespace pmusim;

extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const auto intervals = parse_perf_stat(text, "<fuzz>.csv");
        // Invariant: intervals tile time from 0, each (start, end] non-empty and after the last.
        fs_t previous = 0;
        for (const auto& i : intervals) {
            if (i.start != previous || i.end <= i.start) std::abort();
            previous = i.end;
            for (const auto& [event, value] : i.values)
                if (!i.lines.count(event)) std::abort();
        }
    } catch (const input_error&) {
        return 0;
    }
    return 0;
}
