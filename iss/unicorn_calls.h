#pragma once
// Small wrappers of Unicorn calls the parts of the ISS share (internal to iss/).
#include <fmt/format.h>
#include <unicorn/unicorn.h>

#include "models/input_error.h"

namespace pmusim::a64 {

// A Unicorn call that must succeed: a model error otherwise.
inline void check(uc_err e, const char* what) {
    if (e != UC_ERR_OK) throw model_error(fmt::format("Unicorn: {}: {}", what, uc_strerror(e)));
}

// SPSR_EL1 has no register id of its own in Unicorn 2.1.1 (include/unicorn/arm64.h): the coprocessor interface (S3_0_C4_C0_0).
inline uint64_t read_spsr_el1(uc_engine* uc) {
    uc_arm64_cp_reg r{4, 0, 3, 0, 0, 0};
    uc_reg_read(uc, UC_ARM64_REG_CP_REG, &r);
    return r.val;
}
inline void write_spsr_el1(uc_engine* uc, uint64_t v) {
    uc_arm64_cp_reg r{4, 0, 3, 0, 0, v};
    uc_reg_write(uc, UC_ARM64_REG_CP_REG, &r);
}

} // namespace pmusim::a64
