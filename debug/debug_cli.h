#pragma once
// The debugging options of `pmusim firmware` and `pmusim run` (exec statements):
// --gdb PORT, --gdb-wait, --trace CATEGORIES[=FILE] (docs/debugging.md).
#include <memory>
#include <string>

namespace CLI {
class App;
}

namespace pmusim {
class platform;
}

namespace pmusim::debug {

class iss_debugger;
class trace;

struct debug_options {
    int gdb_port = -1; // -1: no stub; 0: a free port (printed)
    bool gdb_wait = false;
    std::string trace;
    bool any() const { return gdb_port >= 0 || !trace.empty(); }
};

void add_debug_options(CLI::App& command, debug_options& options);

// The stub and the trace of one simulation, attached to every ISS of the platform (those that
// exist now: `pmusim run` after the runner's load(), `pmusim linux` after its machine is built).
class debug_attachment {
public:
    debug_attachment(const debug_options& options, platform& p);
    ~debug_attachment();

private:
    std::unique_ptr<iss_debugger> debugger_;
    std::unique_ptr<trace> trace_;
};

} // namespace pmusim::debug
