// libFuzzer target: the event-stream reader of what-if scenarios (tb/scenario: parse_event_stream,
// one JSON object per line, docs/whatif.md).
// Property: any text either parses or is refused with an input_error; nlohmann's own exceptions
// (a number like 1e400, a bad UTF-8 string) must not escape.
// Invariants: at most one event per line, each naming a line of the text in increasing order, at
// or before the scenario's end.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "models/input_error.h"
#include "tb/scenario.h"

using namespace pmusim;

extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    constexpr fs_t duration = 1'000'000'000'000'000ULL; // 1 s
    std::vector<replayed_event> events;
    try {
        parse_event_stream(text, "<fuzz>.jsonl", 0, duration, events);
    } catch (const input_error&) {
        return 0;
    }
    size_t lines = 1;
    for (char c : text) lines += c == '\n';
    if (events.size() > lines) std::abort();
    unsigned previous = 0;
    for (const auto& e : events) {
        if (e.line <= previous || e.line > lines || e.at > duration) std::abort();
        previous = e.line;
    }
    return 0;
}
