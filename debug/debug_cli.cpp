#include "debug/debug_cli.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>

#include "debug/iss_debugger.h"
#include "debug/trace.h"
#include "models/input_error.h"
#include "models/soc.h"
#include "vp/platform.h"
#include "vp/platform_iss.h"

namespace pmusim::debug {

void add_debug_options(CLI::App& command, debug_options& options) {
    auto* gdb = command.add_option("--gdb", options.gdb_port,
                                   "serve GDB's remote protocol on 127.0.0.1:PORT (0: a free port, printed on stderr; "
                                   "docs/debugging.md)")
                    ->check(CLI::Range(0, 65535));
    command.add_flag("--gdb-wait", options.gdb_wait, "hold the firmware before its first instruction until GDB connects")
        ->needs(gdb);
    command.add_option("--trace", options.trace,
                       "trace insn,exceptions,sysreg,mmio (or all) as JSON lines to stderr or =FILE (docs/debugging.md)");
}

debug_attachment::debug_attachment(const debug_options& options, platform& p) {
    if (!options.trace.empty()) trace_ = std::make_unique<trace>(options.trace);
    if (options.gdb_port >= 0) {
        debugger_ = std::make_unique<iss_debugger>(uint16_t(options.gdb_port), options.gdb_wait);
        // The line a script reads the port from (with --gdb 0).
        std::cerr << fmt::format("pmusim: GDB stub on 127.0.0.1:{}\n", debugger_->port()) << std::flush;
    }
    for (aarch64_iss* iss : isses_on(p)) {
        if (debugger_) debugger_->add(*iss);
        if (trace_) iss->set_trace(trace_.get());
    }
}

debug_attachment::~debug_attachment() {
    if (trace_) trace_->flush();
}

} // namespace pmusim::debug
