// libFuzzer target: the sequence-language parser (tb/sequence_parser).
// Properties: any byte string either parses or is refused with an input_error (a file:line
// message); nothing else escapes. Every parsed statement's canonical text parses back to the
// same canonical text (the round trip tb/sequence_parser.h promises).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "tb/sequence_parser.h"

using namespace pmusim;

// libsystemc.so calls sc_main (C linkage, as <systemc> declares it); the fuzzer's main runs instead.
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<seq::statement> statements;
    try {
        statements = seq::parse_sequence(text, "<fuzz>");
    } catch (const input_error& e) {
        // An error in a file the input includes names that file, and the include chain back to the input.
        const bool through_include = e.origin().find("<fuzz>:") != std::string::npos;
        if (e.file() != "<fuzz>" && !through_include) {
            std::fprintf(stderr, "input_error names file '%s', not the input\n", e.file().c_str());
            std::abort();
        }
        return 0;
    }
    for (const auto& s : statements) {
        const std::string canonical = seq::to_string(s.body);
        std::optional<seq::statement> again;
        try {
            again = seq::parse_line(canonical, "<canonical>", 1);
        } catch (const input_error& e) {
            std::fprintf(stderr, "canonical text does not parse: '%s': %s\n", canonical.c_str(), e.what());
            std::abort();
        }
        if (!again || seq::to_string(again->body) != canonical) {
            std::fprintf(stderr, "round trip changed '%s' into '%s'\n", canonical.c_str(),
                         again ? seq::to_string(again->body).c_str() : "(nothing)");
            std::abort();
        }
    }
    return 0;
}
