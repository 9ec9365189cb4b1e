#pragma once
// Declarative register tables and the register bank that runs them.
//
// Each unit declares its registers once, as a register_table: name, system-register
// encoding and/or memory-mapped offset, width, reset value, fields with access
// types. The model, the generated docs (docs/registers/*.md), the generated C
// header and the JSON dump all read that same table (`pmusim regs`), so they
// cannot disagree. Behaviour beyond plain storage is attached by the model as
// read/write hooks on named registers, in the VCML style.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/access_context.h"
#include "models/integer_map.h"
#include "models/lazy_counter.h"
#include "models/sim_time.h"

namespace pmusim {

enum class field_access {
    rw,        // read/write
    ro,        // read-only: writes ignored
    wo,        // write-only: reads as zero
    w1c,       // write one to clear
    w1s,       // write one to set
    raz_wi,    // reads as zero, writes ignored
    res0,      // reserved, reads zero (writes ignored)
    res1,      // reserved, reads one (writes ignored)
    read_clear // reading returns the value and clears it
};
const char* to_string(field_access a);

// A field's place in its register, written once: the unit's table builds the field_def from it
// and the unit's code reads and composes the field through it, so no bit position is written
// twice (docs/extending.md, "Naming fields in code").
struct reg_field {
    unsigned lsb = 0;
    unsigned width = 1;
    constexpr uint64_t ones() const { return width >= 64 ? ~0ULL : (uint64_t(1) << width) - 1; }
    constexpr uint64_t mask() const { return ones() << lsb; }
    // The field's value in a register value.
    constexpr uint64_t get(uint64_t reg) const { return (reg >> lsb) & ones(); }
    // `value` in the field's place (bits beyond the width dropped), to OR into a register value.
    constexpr uint64_t put(uint64_t value) const { return (value & ones()) << lsb; }
    // A single-bit field as a flag.
    constexpr bool in(uint64_t reg) const { return get(reg) != 0; }
};

struct field_def {
    field_def() = default;
    // The positional form the tables use (a constructor, not an aggregate, so that the source may
    // be named later by cite() without every initializer listing it).
    field_def(std::string name_, unsigned lsb_, unsigned width_, field_access access_, std::string description_,
              std::string source_ = {})
        : name(std::move(name_)), lsb(lsb_), width(width_), access(access_), description(std::move(description_)),
          source(std::move(source_)) {}
    // The same, placed by the reg_field the unit's code uses.
    field_def(std::string name_, reg_field pos, field_access access_, std::string description_, std::string source_ = {})
        : field_def(std::move(name_), pos.lsb, pos.width, access_, std::move(description_), std::move(source_)) {}
    std::string name;
    unsigned lsb = 0;
    unsigned width = 1;
    field_access access = field_access::rw;
    std::string description;
    // Where the position, width and access come from: document and section, header file and
    // line, or "UNVERIFIED: <the choice made>". Empty: the register's source (cite()).
    std::string source;
    uint64_t mask() const { return (width >= 64 ? ~0ULL : ((1ULL << width) - 1)) << lsb; }
};

struct register_def {
    register_def() = default;
    register_def(std::string name_, std::optional<sysreg_encoding> sysreg_, std::optional<uint64_t> offset_,
                 unsigned width_ = 64, uint64_t reset_ = 0, std::vector<field_def> fields_ = {},
                 std::string description_ = {}, std::string source_ = {})
        : name(std::move(name_)), sysreg(sysreg_), offset(offset_), width(width_), reset(reset_),
          fields(std::move(fields_)), description(std::move(description_)), source(std::move(source_)) {}
    std::string name;                      // architectural name: AMCNTENSET0_EL0, PMEVTYPER2, ...
    std::optional<sysreg_encoding> sysreg; // system-register view
    std::optional<uint64_t> offset;        // memory-mapped view: offset in the unit's frame
    unsigned width = 64;                   // 32 or 64 bits
    uint64_t reset = 0;
    std::vector<field_def> fields;         // empty: a single RW field spanning the register
    std::string description;
    // Where the encoding/offset, width and reset come from (as field_def::source).
    std::string source;
    uint64_t width_mask() const { return width >= 64 ? ~0ULL : ((1ULL << width) - 1); }
};

struct register_table {
    std::string unit;    // "amu", "dsu_clusterpmu", ...
    std::string title;   // human title for the docs
    std::string summary; // a paragraph for the docs
    std::vector<register_def> registers;
    // The banks holding one register per event counter ("PMEVCNTR<n>"): a platform's instance has
    // as many of them as its `counters` parameter says (`pmusim regs --platform`, docs/c-headers.md).
    std::vector<std::string> per_counter_banks;
    // The event numbers software writes to the table's event-type registers, by name, each with its
    // source: `write ...EVTYPER... NAME` in a sequence, #defines in the C header, `pmusim regs`.
    struct named_event {
        std::string name;   // as Linux's perf driver or the TRM names it, upper case
        uint64_t code = 0;
        std::string source;
    };
    std::vector<named_event> events;
    const named_event* find_event(const std::string& name) const; // any case; null if none
    const register_def* find(const std::string& name) const;
};

// Names the source of a register and of each of its fields that names none of its own.
void cite(register_def& def, const std::string& source);
// The same for every register of `table` whose name starts with `name_prefix` (exact names end
// the prefix with '$'); throws model_error when no register matches, so a renamed register
// cannot silently lose its source.
void cite(register_table& table, const std::string& name_prefix, const std::string& source);
// Registers and fields of `table` without a source ("REG" or "REG.FIELD"); empty when all have one.
std::vector<std::string> uncited(const register_table& table);

// Tables every part of pmusim registers, for `pmusim regs` and the docs check.
void register_table_for_docs(const register_table& table);
std::vector<const register_table*> tables_for_docs();

// Fields decoded for messages: "E=1 P=0 N=6".
std::string decode_fields(const register_def& def, uint64_t value);

// A register's stored value. Every assignment counts as a change of the register state
// (register_value::changes()), so that a unit may remember a decision it made from register
// values until any register changes, even when a test or tool assigns a value directly.
class register_value {
public:
    register_value(uint64_t v = 0) : v_(v) {} // NOLINT: converts implicitly, as the plain integer did
    register_value(const register_value& other) = default;
    operator uint64_t() const { return v_; }
    register_value& operator=(uint64_t v) {
        v_ = v;
        ++changes_;
        return *this;
    }
    register_value& operator=(const register_value& other) { return *this = other.v_; }
    register_value& operator|=(uint64_t bits) { return *this = v_ | bits; }
    register_value& operator&=(uint64_t bits) { return *this = v_ & bits; }
    // Assignments to any register value so far, in this process.
    static uint64_t changes() { return changes_; }

private:
    uint64_t v_;
    inline static uint64_t changes_ = 0;
};

struct write_event {
    uint64_t old_value;
    uint64_t new_value; // after the field access rules were applied (and stored)
    uint64_t written;   // the raw value the initiator wrote
};

// Run-time state of a table: values plus hooks.
class register_bank {
public:
    struct reg {
        const register_def* def = nullptr;
        register_value value;
        std::function<uint64_t()> read_hook;                // supplies the value
        std::function<void(const write_event&)> write_hook; // side effects after storage
        lazy_counter* counter = nullptr;                     // supplies the value: its count now
        // Convenience for models.
        void on_read(std::function<uint64_t()> f) { read_hook = std::move(f); }
        // A counter register reads its lazy counter at the current instant (a direct call: counter
        // registers are the ones software reads most often).
        void reads_counter(lazy_counter& c) { counter = &c; }
        void on_write(std::function<void(const write_event&)> f) { write_hook = std::move(f); }
        bool field(const std::string& name) const; // single-bit field as bool
        // The fields' read semantics and the width folded into three masks when the bank is built,
        // so that a read does not walk the fields: (raw & read_kept) | read_ones, then read_cleared
        // bits clear.
        uint64_t read_kept = 0, read_ones = 0, read_cleared = 0;
    };

    register_bank(std::string instance, const register_table& table);

    const std::string& instance() const { return instance_; }
    const register_table& table() const { return table_; }

    reg& operator[](const std::string& name);
    reg* find(const std::string& name);
    reg* find_sysreg(uint32_t key);
    // The register holding `offset` (64-bit registers also answer at offset + 4). Frames up to
    // 64 KiB decode by a table of words, as a bus decodes its address lines (every memory-mapped
    // access decodes here); registers beyond that by a search.
    reg* find_offset(uint64_t offset) {
        if (offset < by_word_.size() * 4) {
            const uint16_t i = by_word_[offset >> 2];
            return i ? &regs_[i - 1] : nullptr;
        }
        return find_offset_sparse(offset);
    }

    // Architectural access with field semantics (hooks included). Reads are inline: every
    // register access ends in one.
    uint64_t read(reg& r) {
        const uint64_t raw = raw_value(r);
        if (r.read_cleared) r.value &= ~r.read_cleared;
        return (raw & r.read_kept) | r.read_ones;
    }
    void write(reg& r, uint64_t value);
    // Memory-mapped access of 4 or 8 bytes at a register's offset (or the upper
    // half of a 64-bit register). Returns false when no register is there.
    bool read_mmio(uint64_t offset, unsigned size, uint64_t& data);
    bool write_mmio(uint64_t offset, unsigned size, uint64_t data);
    // The same, at an offset already decoded to `r` (find_offset(offset) == &r).
    uint64_t read_mmio(reg& r, uint64_t offset, unsigned size) {
        const uint64_t data = read(r) >> (unsigned(offset - *r.def->offset) * 8);
        return size < 8 ? data & ((1ULL << (size * 8)) - 1) : data;
    }
    void write_mmio(reg& r, uint64_t offset, unsigned size, uint64_t data);

    void reset(); // every register to its reset value (hooks not called)

private:
    std::string instance_;
    const register_table& table_;
    std::vector<reg> regs_;
    std::unordered_map<std::string, size_t> by_name_;
    integer_map<size_t> by_sysreg_; // encoding key -> index in regs_
    std::map<uint64_t, size_t> by_offset_;
    std::vector<uint16_t> by_word_; // offset / 4 -> index in regs_ + 1 (0: no register there)
    reg* find_offset_sparse(uint64_t offset);
    // What a read sees before the field rules.
    uint64_t raw_value(reg& r) {
        return r.counter ? r.counter->read(now_fs()) : r.read_hook ? r.read_hook() : uint64_t(r.value);
    }
};

} // namespace pmusim
