#pragma once
// A firmware profile's typed steps (models/firmware_access.h) performed on a platform as its CPUs
// would: each register access through the gate, with the access context of the last run_as step,
// a masked write as its read and its write. The library boots its platforms with it
// (embed/model.cpp) before any process of the user's sc_main runs; the sequence runner performs the
// same steps as the statements they stand for, so that they also enter its logs
// (tb/sequence_runner.h). Latency 0 (an embedded platform's): nothing here waits.
#include <string>
#include <tlm>

#include "models/firmware_access.h"

namespace pmusim {

class platform;

// Throws model_error "firmware step 'STEP' (LABEL) failed: WHY" at the first step refused.
void perform_firmware_code(platform& p, tlm::tlm_fw_transport_if<>& gate, const firmware_code& code,
                           const std::string& label);

} // namespace pmusim
