#include "models/register_bank.h"
#include <algorithm>
#include <cctype>

#include <algorithm>
#include <fmt/format.h>

#include "models/input_error.h"
#include "models/lazy_counter.h"

namespace pmusim {

const char* to_string(field_access a) {
    switch (a) {
    case field_access::rw: return "RW";
    case field_access::ro: return "RO";
    case field_access::wo: return "WO";
    case field_access::w1c: return "W1C";
    case field_access::w1s: return "W1S";
    case field_access::raz_wi: return "RAZ/WI";
    case field_access::res0: return "RES0";
    case field_access::res1: return "RES1";
    case field_access::read_clear: return "RC";
    }
    return "?";
}

void cite(register_def& def, const std::string& source) {
    def.source = source;
    for (auto& f : def.fields)
        if (f.source.empty()) f.source = source;
}

void cite(register_table& table, const std::string& name_prefix, const std::string& source) {
    const bool exact = !name_prefix.empty() && name_prefix.back() == '$';
    const std::string key = exact ? name_prefix.substr(0, name_prefix.size() - 1) : name_prefix;
    bool any = false;
    for (auto& r : table.registers)
        if (exact ? r.name == key : r.name.compare(0, key.size(), key) == 0) {
            cite(r, source);
            any = true;
        }
    if (!any) throw model_error(fmt::format("register table {}: no register {} to cite", table.unit, name_prefix));
}

std::vector<std::string> uncited(const register_table& table) {
    std::vector<std::string> out;
    for (const auto& r : table.registers) {
        if (r.source.empty()) out.push_back(r.name);
        for (const auto& f : r.fields)
            if (f.source.empty()) out.push_back(r.name + "." + f.name);
    }
    return out;
}

const register_table::named_event* register_table::find_event(const std::string& name) const {
    auto same = [](const std::string& a, const std::string& b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
                   return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
               });
    };
    for (const auto& e : events)
        if (same(e.name, name)) return &e;
    return nullptr;
}

const register_def* register_table::find(const std::string& name) const {
    for (const auto& r : registers)
        if (r.name == name) return &r;
    return nullptr;
}

static std::vector<const register_table*>& doc_tables() {
    static std::vector<const register_table*> tables;
    return tables;
}

void register_table_for_docs(const register_table& table) {
    for (auto*& t : doc_tables())
        if (t->unit == table.unit) {
            t = &table;
            return;
        }
    doc_tables().push_back(&table);
}

std::vector<const register_table*> tables_for_docs() { return doc_tables(); }

static std::vector<field_def> effective_fields(const register_def& def) {
    if (!def.fields.empty()) return def.fields;
    return {field_def{def.name, 0, def.width, field_access::rw, ""}};
}

std::string decode_fields(const register_def& def, uint64_t value) {
    std::string out;
    for (const auto& f : effective_fields(def)) {
        if (f.access == field_access::res0 || f.access == field_access::res1 || f.access == field_access::raz_wi)
            continue;
        uint64_t v = (value & f.mask()) >> f.lsb;
        if (!out.empty()) out += ' ';
        out += f.width == 1 ? fmt::format("{}={}", f.name, v) : fmt::format("{}={:#x}", f.name, v);
    }
    return out;
}

bool register_bank::reg::field(const std::string& name) const {
    for (const auto& f : def->fields)
        if (f.name == name) return (value & f.mask()) != 0;
    throw model_error(fmt::format("{} has no field {}", def->name, name));
}

register_bank::register_bank(std::string instance, const register_table& table)
    : instance_(std::move(instance)), table_(table) {
    regs_.reserve(table.registers.size());
    for (const auto& def : table.registers) {
        size_t i = regs_.size();
        reg& r = regs_.emplace_back();
        r.def = &def;
        r.value = def.reset;
        for (const auto& f : effective_fields(def)) {
            switch (f.access) {
            case field_access::wo:
            case field_access::raz_wi:
            case field_access::res0: break;
            case field_access::res1: r.read_ones |= f.mask(); break;
            case field_access::read_clear: r.read_kept |= f.mask(); r.read_cleared |= f.mask(); break;
            default: r.read_kept |= f.mask();
            }
        }
        r.read_kept &= def.width_mask();
        r.read_ones &= def.width_mask();
        r.read_cleared &= def.width_mask();
        if (!by_name_.emplace(def.name, i).second)
            throw model_error("duplicate register " + def.name + " in table " + table.unit);
        if (def.sysreg) by_sysreg_.emplace(def.sysreg->key(), i);
        if (def.offset) by_offset_.emplace(*def.offset, i);
    }
    if (regs_.size() >= UINT16_MAX) throw model_error("register table " + table.unit + " is too large to decode");
    constexpr uint64_t word_table_limit = 64 * 1024;
    uint64_t end = 0;
    bool aligned = true;
    for (const auto& [offset, i] : by_offset_) {
        aligned &= offset % 4 == 0 && regs_[i].def->width % 32 == 0;
        if (offset < word_table_limit) end = std::max(end, offset + regs_[i].def->width / 8);
    }
    if (!aligned) return; // every register found by the search
    by_word_.assign((end + 3) / 4, 0);
    for (const auto& [offset, i] : by_offset_)
        if (offset < word_table_limit)
            for (uint64_t w = offset / 4; w < (offset + regs_[i].def->width / 8) / 4; ++w) by_word_[w] = uint16_t(i + 1);
}

register_bank::reg& register_bank::operator[](const std::string& name) {
    if (auto* r = find(name)) return *r;
    throw model_error(fmt::format("{}: no register {}", instance_, name));
}

register_bank::reg* register_bank::find(const std::string& name) {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : &regs_[it->second];
}

register_bank::reg* register_bank::find_sysreg(uint32_t key) {
    const size_t* i = by_sysreg_.find(key);
    return i ? &regs_[*i] : nullptr;
}

register_bank::reg* register_bank::find_offset_sparse(uint64_t offset) {
    auto it = by_offset_.upper_bound(offset);
    if (it == by_offset_.begin()) return nullptr;
    --it;
    reg& r = regs_[it->second];
    uint64_t bytes = r.def->width / 8;
    return offset < it->first + bytes ? &r : nullptr;
}

void register_bank::write(reg& r, uint64_t value) {
    const register_def& def = *r.def;
    value &= def.width_mask();
    const uint64_t old = r.value;
    // No fields: one RW field spanning the register (bits above its width are kept, as that field would).
    uint64_t next = def.fields.empty() ? (old & ~def.width_mask()) | value : old;
    for (const auto& f : def.fields) {
        uint64_t m = f.mask();
        switch (f.access) {
        case field_access::rw:
        case field_access::wo: next = (next & ~m) | (value & m); break;
        case field_access::w1c: next &= ~(value & m); break;
        case field_access::w1s: next |= value & m; break;
        default: break; // ro, raz_wi, res0, res1, read_clear: writes ignored
        }
    }
    r.value = next;
    if (r.write_hook) r.write_hook(write_event{old, next, value});
}

bool register_bank::read_mmio(uint64_t offset, unsigned size, uint64_t& data) {
    reg* r = find_offset(offset);
    if (!r) return false;
    data = read_mmio(*r, offset, size);
    return true;
}

bool register_bank::write_mmio(uint64_t offset, unsigned size, uint64_t data) {
    reg* r = find_offset(offset);
    if (!r) return false;
    write_mmio(*r, offset, size, data);
    return true;
}

void register_bank::write_mmio(reg& r, uint64_t offset, unsigned size, uint64_t data) {
    const unsigned shift = unsigned(offset - *r.def->offset) * 8;
    if (size * 8 >= r.def->width && shift == 0) return write(r, data);
    // A 32-bit access to half of a 64-bit register merges with the other half's current value.
    const uint64_t lane = ((size >= 8) ? ~0ULL : ((1ULL << (size * 8)) - 1)) << shift;
    write(r, (raw_value(r) & ~lane) | ((data << shift) & lane));
}

void register_bank::reset() {
    for (auto& r : regs_) r.value = r.def->reset;
}

} // namespace pmusim
