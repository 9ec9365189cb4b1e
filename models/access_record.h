#pragma once
// One register access of the JSON-lines access log (docs/logs.md), as an initiator (the ISS, the
// sequence runner) records it and a run's recorder (vp/run_recorder.h) writes it.
#include <cstdint>
#include <optional>
#include <string>

#include "models/sim_time.h"

namespace pmusim {

// json() writes it with its keys in the order nlohmann::json sorts them, byte for byte what
// json::dump() of the same object gave (logs are compared byte for byte), at a fraction of the
// cost of building that object.
struct access_record {
    fs_t time_fs = 0;
    std::string time, file;
    uint64_t line = 0;
    std::string context, op, outcome;
    std::optional<std::string> pc, target, address, encoding, value, syndrome, detail;
    std::optional<uint64_t> size, cpu_cycle;
    std::string json() const;
};

} // namespace pmusim
