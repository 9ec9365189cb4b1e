// The `traffic` unit command of the CMN-600 (docs/cmn.md "The `traffic` statement"):
// `cmn0 traffic X,Y pP[.D] off|KEY=VALUE...`, also written `traffic cmn0 ...` as before unit commands.
#include <algorithm>

#include "cmn/cmn600.h"
#include "cmn/cmn_traffic_text.h"
#include "models/values.h"

namespace pmusim {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// X,Y: two decimal numbers.
bool is_crosspoint(std::string_view t) {
    const size_t comma = t.find(',');
    return comma != std::string_view::npos && comma > 0 && comma + 1 < t.size() &&
           std::all_of(t.begin(), t.begin() + long(comma), is_digit) &&
           std::all_of(t.begin() + long(comma) + 1, t.end(), is_digit);
}

// p0 or p1, with .D for a device 0..3.
bool is_port(std::string_view t) {
    return (t.size() == 2 || (t.size() == 4 && t[2] == '.' && t[3] >= '0' && t[3] <= '3')) && t[0] == 'p' &&
           (t[1] == '0' || t[1] == '1');
}

// The forms only (requester words, `off` alone, each known key at most once, a valid rate); the mesh
// and the running generators are the unit's to check when the command runs.
std::vector<std::string> parse_traffic_words(command_words& w) {
    std::vector<std::string> args;
    if (w.at_end() || !is_crosspoint(w.peek())) w.fail("a requester crosspoint X,Y (e.g. 1,0)", w.found());
    args.push_back(w.take());
    if (w.at_end() || !is_port(w.peek())) w.fail("a requester port p0 or p1 (p1.1 for device 1)", w.found());
    args.push_back(w.take());
    const char* what = "'off' or KEY=VALUE settings (rate=, range=, mix=, seed=, start=, count=)";
    if (w.accept("off")) {
        args.push_back("off");
        return args;
    }
    if (w.at_end()) w.fail(what, "end of line");
    while (!w.at_end()) {
        const std::string_view t = w.peek();
        const size_t eq = t.find('=');
        const std::string_view key = t.substr(0, eq == std::string_view::npos ? t.size() : eq);
        if (eq == std::string_view::npos || eq + 1 == t.size() || std::find(cmn_traffic_keys.begin(), cmn_traffic_keys.end(), key) == cmn_traffic_keys.end())
            w.fail(what, w.found());
        for (size_t i = 2; i < args.size(); ++i)
            if (std::string_view(args[i]).substr(0, args[i].find('=')) == key)
                w.fail("each setting at most once", w.found(), "duplicate key " + values::quoted(key));
        if (key == "rate") values::parse_rational(t.substr(eq + 1), w.file(), w.line(), "for 'rate' " + w.context());
        args.push_back(w.take());
    }
    return args;
}

} // namespace

unit_command cmn_traffic_command() {
    unit_command c;
    c.verb = "traffic";
    c.usage = "X,Y pP[.D] off|KEY=VALUE... (keys rate range mix seed start count)";
    c.summary = "starts, changes or (off) stops the traffic of a requester from now on";
    c.old_spelling = unit_command::verb_first::with_unit; // `traffic cmn0 ARGS`, as before unit commands
    c.parse = parse_traffic_words;
    c.run = [](unit& u, const command_call& call) {
        command_result r;
        // X,Y pP[.D] then the settings (fewer words only from an embedder, include/pmusim/model.h).
        const std::vector<std::string>& a = call.args;
        const auto settings = a.begin() + long(std::min<size_t>(2, a.size()));
        static_cast<cmn600&>(u).set_traffic({a.begin(), settings}, {settings, a.end()}, r.error);
        return r;
    };
    return c;
}

} // namespace pmusim
