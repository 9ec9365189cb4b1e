#include "debug/trace.h"

#include <capstone/capstone.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/input_error.h"
#include "vp/run_recorder.h"

namespace pmusim::debug {

namespace {
std::string hex(uint64_t v) { return fmt::format("{:#x}", v); }
} // namespace

std::string exception_class_name(unsigned ec) {
    // Arm ARM D17.2.37 ESR_ELx, the EC values an AArch64 CPU without AArch32 takes.
    switch (ec) {
    case 0x00: return "unknown reason (UNDEFINED)";
    case 0x01: return "WFI or WFE trapped";
    case 0x07: return "SVE, SIMD or floating-point access trapped";
    case 0x0e: return "illegal execution state";
    case 0x15: return "SVC from AArch64";
    case 0x16: return "HVC from AArch64";
    case 0x17: return "SMC from AArch64";
    case 0x18: return "MSR, MRS or system instruction trapped";
    case 0x20: return "instruction abort from a lower EL";
    case 0x21: return "instruction abort from the same EL";
    case 0x22: return "PC alignment fault";
    case 0x24: return "data abort from a lower EL";
    case 0x25: return "data abort from the same EL";
    case 0x26: return "SP alignment fault";
    case 0x2f: return "SError";
    case 0x3c: return "BRK";
    default: return fmt::format("EC {:#x}", ec);
    }
}

trace::trace(const std::string& spec, uint64_t bound) : bound_(bound) {
    std::string categories = spec, file;
    if (auto eq = spec.find('='); eq != std::string::npos) {
        categories = spec.substr(0, eq);
        file = spec.substr(eq + 1);
        if (file.empty()) throw input_error("--trace", 0, "no file after '=': expected --trace CATEGORIES=FILE");
    }
    size_t at = 0;
    while (at <= categories.size()) {
        size_t end = categories.find(',', at);
        std::string c = categories.substr(at, end == std::string::npos ? std::string::npos : end - at);
        at = end == std::string::npos ? categories.size() + 1 : end + 1;
        if (c == "insn") insn_ = true;
        else if (c == "exceptions") exceptions_ = true;
        else if (c == "sysreg") sysreg_ = true;
        else if (c == "mmio") mmio_ = true;
        else if (c == "all") insn_ = exceptions_ = sysreg_ = mmio_ = true;
        else
            throw input_error("--trace", 0, fmt::format("unknown trace category '{}': expected a comma-separated list of "
                                                        "insn, exceptions, sysreg, mmio (or all), then optionally =FILE", c));
    }
    if (!file.empty()) {
        file_.open(file, std::ios::out | std::ios::trunc);
        if (!file_) throw input_error("--trace", 0, fmt::format("cannot write the trace file '{}'", file));
        out_ = &file_;
    } else {
        out_ = &std::cerr;
    }
    csh handle = 0;
    if (insn_ && cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &handle) != CS_ERR_OK)
        throw model_error("Capstone cannot disassemble AArch64");
    capstone_ = handle;
}

trace::~trace() {
    if (capstone_) {
        csh handle = capstone_;
        cs_close(&handle);
    }
    flush();
}

void trace::flush() {
    if (out_) out_->flush();
}

bool trace::room() {
    if (records_ < bound_) {
        ++records_;
        return true;
    }
    if (records_ == bound_) {
        ++records_;
        *out_ << nlohmann::json{{"kind", "cut"},
                                {"detail", fmt::format("the trace holds at most {} records (docs/debugging.md)", bound_)}}
                     .dump()
              << '\n';
    }
    return false;
}

std::string trace::disassemble(uint64_t pc, uint32_t word) {
    uint8_t bytes[4];
    std::memcpy(bytes, &word, 4);
    cs_insn* insn = nullptr;
    const size_t n = cs_disasm(capstone_, bytes, 4, pc, 1, &insn);
    if (n == 0) return fmt::format(".inst {:#010x}", word);
    std::string text = insn[0].mnemonic;
    if (insn[0].op_str[0]) text += std::string(" ") + insn[0].op_str;
    cs_free(insn, n);
    return text;
}

void trace::instruction(const aarch64_iss& cpu, uint64_t index, fs_t time, uint64_t pc, uint32_t word) {
    if (!insn_ || !room()) return;
    nlohmann::json j{{"kind", "insn"},      {"time_fs", time}, {"time", format_time(time)}, {"cpu", cpu.cpu()},
                     {"el", cpu.exception_level()}, {"index", index}, {"pc", hex(pc)}, {"word", fmt::format("{:#010x}", word)},
                     {"disasm", disassemble(pc, word)}};
    *out_ << j.dump() << '\n';
}

void trace::exception(const aarch64_iss& cpu, fs_t time, unsigned from_el, unsigned to_el, bool irq, uint64_t esr,
                      uint64_t elr, std::optional<uint64_t> far, uint64_t vector) {
    if (!exceptions_ || !room()) return;
    nlohmann::json j{{"kind", "exception"}, {"time_fs", time},     {"time", format_time(time)}, {"cpu", cpu.cpu()},
                     {"from_el", from_el},  {"target_el", to_el}, {"elr", hex(elr)},          {"vector", hex(vector)}};
    if (irq) {
        j["cause"] = "IRQ";
    } else {
        j["cause"] = exception_class_name(unsigned(esr >> 26) & 0x3f);
        j["esr"] = hex(esr);
    }
    if (far) j["far"] = hex(*far);
    *out_ << j.dump() << '\n';
}

// The access log's record (docs/logs.md), with "kind" and "cpu" added.
void trace::access(const aarch64_iss& cpu, const access_record& record, bool system_register) {
    if (!(system_register ? sysreg_ : mmio_) || !room()) return;
    nlohmann::json j = nlohmann::json::parse(record.json());
    j["kind"] = system_register ? "sysreg" : "mmio";
    j["cpu"] = cpu.cpu();
    *out_ << j.dump() << '\n';
}

} // namespace pmusim::debug
