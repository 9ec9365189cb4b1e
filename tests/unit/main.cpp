// Catch2 runner for the unit tests. libsystemc.so defines main(), so we define
// our own (an executable's symbol wins over a shared library's) and a sc_main
// that is never called. ctest runs every TEST_CASE in its own process (one
// SystemC kernel per process).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>
#include <systemc>

int sc_main(int, char**) { return 0; }

int main(int argc, char* argv[]) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    // SystemC warnings and errors are test failures, not console noise.
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DISPLAY | sc_core::SC_THROW);
    return Catch::Session().run(argc, argv);
}
