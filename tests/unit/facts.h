#pragma once
// The facts files (tests/facts/*.tsv): register encodings, offsets, field positions and reset
// values transcribed from the public headers of the software that drives the hardware (TF-A,
// Linux, skiboot, cmn-tools) and from the Arm ARM, never from the model. Tests take their
// expected bit positions from here (fact_field("cpu_controls", "HCR_EL2", "TIDCP").lsb) instead
// of from the model's own constants. docs/facts.md describes the format.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <regex>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/access_context.h"

#ifndef PMUSIM_FACTS_DIR
#error "PMUSIM_FACTS_DIR must name tests/facts (CMakeLists.txt sets it)"
#endif

namespace pmusim::facts {

struct fact_row {
    std::string unit, reg, kind, field, value, source, note;
    std::string file; // "cpu.tsv"
    unsigned line = 0;
    bool applies() const { return note.rfind("n/a", 0) != 0; }
    std::string where() const { return "tests/facts/" + file + ":" + std::to_string(line); }
};

// Every tests/facts/*.tsv, sorted: a new unit's facts file is read without an edit here.
inline const std::vector<std::string>& fact_files() {
    static const std::vector<std::string> files = [] {
        std::vector<std::string> out;
        for (const auto& entry : std::filesystem::directory_iterator(PMUSIM_FACTS_DIR))
            if (entry.path().extension() == ".tsv") out.push_back(entry.path().filename().string());
        std::sort(out.begin(), out.end());
        return out;
    }();
    return files;
}

inline std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> cols;
    size_t start = 0;
    for (;;) {
        const size_t tab = line.find('\t', start);
        cols.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
        if (tab == std::string::npos) return cols;
        start = tab + 1;
    }
}

// Every fact of every file, read once. A malformed line throws (file:line and what was expected).
inline const std::vector<fact_row>& all_facts() {
    static const std::vector<fact_row> rows = [] {
        std::vector<fact_row> out;
        for (const auto& name : fact_files()) {
            std::ifstream in(std::string(PMUSIM_FACTS_DIR) + "/" + name);
            if (!in) throw std::runtime_error("cannot read tests/facts/" + name);
            std::string line;
            for (unsigned n = 1; std::getline(in, line); ++n) {
                if (line.empty() || line[0] == '#') continue;
                auto c = split_tabs(line);
                if (c.size() != 7)
                    throw std::runtime_error("tests/facts/" + name + ":" + std::to_string(n) + ": expected 7 tab-separated "
                                             "columns (unit register kind field value source note), got " +
                                             std::to_string(c.size()));
                out.push_back({c[0], c[1], c[2], c[3], c[4], c[5], c[6], name, n});
            }
        }
        return out;
    }();
    return rows;
}

inline uint64_t parse_number(const fact_row& f, const std::string& text) {
    try {
        size_t used = 0;
        const uint64_t v = std::stoull(text, &used, 0);
        if (used == text.size()) return v;
    } catch (const std::exception&) {
    }
    throw std::runtime_error(f.where() + ": '" + text + "' is not a number");
}

// The first applicable fact of this shape; throws when the files have none (a test asking for a
// fact nobody transcribed must not pass silently).
inline const fact_row& find_fact(const std::string& unit, const std::string& reg, const std::string& kind,
                                 const std::string& field = {}) {
    for (const auto& f : all_facts())
        if (f.applies() && f.unit == unit && f.reg == reg && f.kind == kind && f.field == field) return f;
    throw std::runtime_error("tests/facts has no " + kind + " fact for " + unit + " " + reg + (field.empty() ? "" : "." + field));
}

struct field_pos {
    unsigned lsb = 0, width = 0;
    uint64_t mask() const { return (width >= 64 ? ~0ULL : ((1ULL << width) - 1)) << lsb; }
    uint64_t bit() const { return 1ULL << lsb; }
};

inline field_pos parse_field(const fact_row& f) {
    const size_t comma = f.value.find(',');
    if (comma == std::string::npos) throw std::runtime_error(f.where() + ": a field fact's value is lsb,width");
    return {unsigned(parse_number(f, f.value.substr(0, comma))), unsigned(parse_number(f, f.value.substr(comma + 1)))};
}

inline sysreg_encoding parse_encoding(const fact_row& f) {
    std::vector<uint64_t> v;
    size_t start = 0;
    for (;;) {
        const size_t comma = f.value.find(',', start);
        v.push_back(parse_number(f, f.value.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (v.size() == 1) return sysreg_encoding::from_key(uint32_t(v[0])); // an SPR number
    if (v.size() != 5) throw std::runtime_error(f.where() + ": an encoding is op0,op1,CRn,CRm,op2");
    return {uint8_t(v[0]), uint8_t(v[1]), uint8_t(v[2]), uint8_t(v[3]), uint8_t(v[4])};
}

// The source's position of a field whether or not pmusim models it (a test writes an unmodelled
// field to show it has no effect: HCR_EL2.EnSCXT).
inline field_pos source_field(const std::string& unit, const std::string& reg, const std::string& field) {
    for (const auto& f : all_facts())
        if (f.unit == unit && f.reg == reg && f.kind == "field" && f.field == field) return parse_field(f);
    throw std::runtime_error("tests/facts has no field fact for " + unit + " " + reg + "." + field);
}
// Field position and width: fact_field("cpu_controls", "HCR_EL2", "TIDCP").lsb.
inline field_pos fact_field(const std::string& unit, const std::string& reg, const std::string& field) {
    return parse_field(find_fact(unit, reg, "field", field));
}
// Offset, SCOM address, reset value or named constant.
inline uint64_t fact_number(const std::string& unit, const std::string& reg, const std::string& kind) {
    const fact_row& f = find_fact(unit, reg, kind);
    return parse_number(f, f.value);
}
inline sysreg_encoding fact_encoding(const std::string& unit, const std::string& reg) {
    return parse_encoding(find_fact(unit, reg, "encoding"));
}


// Whether a fact's source column cites a primary source (docs/facts.md "Sources"): TF-A, skiboot or
// cmn-tools by file:line at the commit in the file's header; Linux by file@commit or @vX.Y (or
// linux-6.1:file, Debian's linux-source-6.1); Marvell's CSR headers by repository@commit:file;
// Arm documents by number (DDI0487, IHI0029, a TRM's six-digit number, the SysReg XML by date).
// Our own notes (../shared/reference, reference/*.md) are never a source. A row with no primary
// citation must say UNVERIFIED, and so must a row that says it assumes. An empty string: the row is
// fine; otherwise why it is not.
inline std::string source_problem(const std::string& source) {
    static const std::regex primary(
        R"((^|[\s(;,])(tfa|skiboot|cmn-tools):[\w./-]+:\d+)"
        R"(|\blinux:[\w./-]+@(v?\d+\.\d+|[0-9a-f]{7,40})\b|\blinux-\d+\.\d+:[\w./-]+)"
        R"(|\bmarvell:[\w./-]+@[0-9a-f]{7,40}:[\w./-]+)"
        R"(|\b(DDI|IHI|DEN|ARM DDI )\s?0?\d{3,4}|\bTRM\s+1\d{5}\b|\bSysReg XML\b)");
    static const std::regex linux_without_version(R"(\blinux:[\w./-]+(?!@)(?:[\s(),;:]|$))");
    if (source.find("shared/reference") != std::string::npos || source.find("reference/") == 0 ||
        source.find(" reference/") != std::string::npos)
        return "cites pmusim's own notes (../shared/reference), which are not a source";
    const bool unverified = source.find("UNVERIFIED") != std::string::npos;
    if (std::regex_search(source, linux_without_version))
        return "a Linux citation without a commit or version (linux:FILE@COMMIT, linux:FILE@v6.1)";
    if (unverified) return {};
    if (source.find("assume") != std::string::npos) return "says it assumes but is not marked UNVERIFIED";
    if (!std::regex_search(source, primary))
        return "cites no primary source (TF-A/skiboot/cmn-tools file:line, Linux file@commit, an Arm document by "
               "number) and is not marked UNVERIFIED";
    return {};
}

} // namespace pmusim::facts
