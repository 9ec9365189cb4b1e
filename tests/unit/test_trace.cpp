// The trace's bound (docs/debugging.md "Traces", issue 32 item 2): a trace holds at most its bound
// of records, then one `cut` record naming the bound, then nothing, whatever the categories. The
// CLI's bound is 1,000,000 records (about 150 MB of instruction records: measured by hand with
// `--trace insn` on tests/iss/forever.S, 8.9 s); this test gives the trace a bound of 3 to see the
// same code cut it without writing a million records.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "debug/trace.h"
#include "iss/aarch64_iss.h"
#include "vp/platform.h"
#include "vp/platform_iss.h"
#include "vp/run_recorder.h"

using namespace pmusim;

TEST_CASE("trace: a trace holds at most its bound of records then one cut record and nothing more") {
    platform p{load_platform("arm-default")};
    run_recorder rec;
    platform_iss cpu0("iss_cpu0", p, rec, 0);
    char path[] = "/tmp/pmusim-trace-test-XXXXXX";
    const int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    const std::string file = path;
    {
        debug::trace t("insn,exceptions=" + file, 3);
        for (uint64_t i = 0; i < 4; ++i) t.instruction(cpu0, i, i * 1000, 0x80000000 + 4 * i, 0xd503201f); // NOP
        // ESR of an SVC #0 from AArch64 (EC 0x15, IL): cut too.
        t.exception(cpu0, 5000, 1, 1, false, 0x56000000, 0x80000010, std::nullopt, 0x80000400);
        t.flush();
    }
    std::vector<nlohmann::json> records;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) records.push_back(nlohmann::json::parse(line));
    std::remove(file.c_str());
    REQUIRE(records.size() == 4);
    for (unsigned i = 0; i < 3; ++i) {
        CHECK(records[i]["kind"] == "insn");
        CHECK(records[i]["index"] == i);
        CHECK(records[i]["disasm"] == "nop"); // Capstone's
    }
    CHECK(records[3]["kind"] == "cut");
    CHECK(records[3]["detail"].get<std::string>().find("at most 3 records") != std::string::npos);
    CHECK(debug::trace::max_records == 1000000); // the bound docs/debugging.md gives the CLI's traces
}
