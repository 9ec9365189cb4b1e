// Unit tests of the access log's record writer (models/access_record.h): byte for byte
// what nlohmann::json::dump() writes for the same object, whatever fields are present and
// whatever the strings hold.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "vp/run_recorder.h"

using namespace pmusim;

namespace {

// The record as the access log wrote it before access_record: a json object, dumped.
std::string as_nlohmann(const access_record& a) {
    nlohmann::json j{{"time_fs", a.time_fs}, {"time", a.time},       {"file", a.file},
                     {"line", a.line},       {"context", a.context}, {"op", a.op},
                     {"outcome", a.outcome}};
    auto put = [&](const char* key, const std::optional<std::string>& v) {
        if (v) j[key] = *v;
    };
    put("pc", a.pc);
    put("target", a.target);
    put("address", a.address);
    put("encoding", a.encoding);
    put("value", a.value);
    put("syndrome", a.syndrome);
    put("detail", a.detail);
    if (a.size) j["size"] = *a.size;
    if (a.cpu_cycle) j["cpu_cycle"] = *a.cpu_cycle;
    return j.dump();
}

} // namespace

TEST_CASE("access record: written as nlohmann::json dumps it with any fields and strings", "[logs]") {
    access_record firmware;
    firmware.time_fs = 123456789012345;
    firmware.time = "123.456789012345 ns";
    firmware.file = "/tmp/fw.elf";
    firmware.pc = "0x80000018";
    firmware.context = "cpu0 EL3 S";
    firmware.op = "write";
    firmware.outcome = "ok";
    firmware.address = "0x2a000c00";
    firmware.size = 4;
    firmware.value = "0x3";
    firmware.cpu_cycle = 6;
    CHECK(firmware.json() == as_nlohmann(firmware));

    access_record sequence;
    sequence.time_fs = 0;
    sequence.time = "0 s";
    sequence.file = "a \"quoted\" path\\with\tcontrol\x01\x1f\b\f\n\r chars/and a slash\x7f";
    sequence.line = 4294967295u;
    sequence.context = "testbench";
    sequence.op = "read";
    sequence.target = "AMEVCNTR00_EL0";
    sequence.outcome = "trap_el2";
    sequence.encoding = "S3_3_C13_C4_0";
    sequence.syndrome = "0x6230f4a9";
    sequence.detail = "";
    CHECK(sequence.json() == as_nlohmann(sequence));

    sequence.file = "caf\xc3\xa9/\xe2\x82\xac.seq"; // UTF-8, written as is
    sequence.detail = "bus error (TLM_ADDRESS_ERROR_RESPONSE)";
    sequence.cpu_cycle = ~uint64_t(0);
    CHECK(sequence.json() == as_nlohmann(sequence));
}
