#pragma once
// The debugging options of `pmusim firmware` and `pmusim run` (exec statements):
// --gdb PORT, --gdb-wait, --trace CATEGORIES[=FILE] (docs/debugging.md).
#include <memory>
#include <string>

namespace CLI {
class App;
}

namespace pmusim {
class sequence_runner;
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

// The stub and the trace of one simulation, attached to the runner's ISSs (created by load()).
class debug_attachment {
public:
    debug_attachment(const debug_options& options, sequence_runner& runner, platform& p);
    ~debug_attachment();

private:
    std::unique_ptr<iss_debugger> debugger_;
    std::unique_ptr<trace> trace_;
};

} // namespace pmusim::debug
