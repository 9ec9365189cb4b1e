#pragma once
// `--trace insn,exceptions,sysreg,mmio[=FILE]` (docs/debugging.md): what the firmware's CPUs do,
// one JSON object per line, bounded in size. Instructions are disassembled by Capstone.
#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>

#include "iss/aarch64_iss.h"

namespace pmusim::debug {

class trace : public aarch64_iss::trace_sink {
public:
    // The records a trace holds at most; one more record says the trace was cut there.
    static constexpr uint64_t max_records = 1000000;

    // `spec`: categories separated by commas, optionally "=FILE" (default: standard error).
    // Bad input (an unknown category, a file that cannot be written): input_error naming --trace.
    // `bound`: max_records, or fewer (a test of the cut without writing a million records).
    explicit trace(const std::string& spec, uint64_t bound = max_records);
    ~trace() override;
    trace(const trace&) = delete;
    trace& operator=(const trace&) = delete;

    bool wants_instructions() const override { return insn_; }
    void instruction(const aarch64_iss& cpu, uint64_t index, fs_t time, uint64_t pc, uint32_t word) override;
    void exception(const aarch64_iss& cpu, fs_t time, unsigned from_el, unsigned to_el, bool irq, uint64_t esr, uint64_t elr,
                   std::optional<uint64_t> far, uint64_t vector) override;
    void access(const aarch64_iss& cpu, const access_record& record, bool system_register) override;

    uint64_t records() const { return records_; }
    void flush();

private:
    bool insn_ = false, exceptions_ = false, sysreg_ = false, mmio_ = false;
    std::ofstream file_;
    std::ostream* out_ = nullptr;
    uint64_t records_ = 0;
    uint64_t bound_ = max_records;
    size_t capstone_ = 0; // csh
    bool room();          // false once the bound is reached (the cut record written)
    std::string disassemble(uint64_t pc, uint32_t word);
};

// The cause of an exception from its ESR_ELx.EC (Arm ARM D17.2.37, "EC, bits [31:26]").
std::string exception_class_name(unsigned ec);

} // namespace pmusim::debug
