#pragma once
// An insert-only open-addressing hash map from 64-bit integer keys to small values, for the
// decodes done on every register access: the gate's (cpu, encoding) owner table and the AMU's and
// a register bank's encoding tables. A look-up is one multiply and, at a load of at most one half,
// usually one probe; std::unordered_map pays an integer division and a pointer chase per look-up,
// which was a quarter of a register access (docs/performance.md, scenario 2).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pmusim {

template <class V>
class integer_map {
public:
    const V* find(uint64_t key) const {
        if (slots_.empty()) return nullptr;
        for (size_t i = index_of(key);; i = (i + 1) & mask_) {
            const slot& s = slots_[i];
            if (!s.used) return nullptr;
            if (s.key == key) return &s.value;
        }
    }
    V* find(uint64_t key) { return const_cast<V*>(std::as_const(*this).find(key)); }

    // Inserts, or replaces the value of an existing key.
    void assign(uint64_t key, V value) {
        auto [stored, inserted] = insert(key, value);
        if (!inserted) *stored = std::move(value);
    }
    // Inserts unless the key is present; false (and the old value kept) when it was.
    bool emplace(uint64_t key, V value) { return insert(key, std::move(value)).second; }

    size_t size() const { return used_; }

private:
    struct slot {
        uint64_t key = 0;
        V value{};
        bool used = false;
    };

    // Fibonacci hashing: the top bits of key * 2^64/phi spread consecutive keys (encodings differ in
    // their low bits, CPUs in bits 32 and up) over the table.
    size_t index_of(uint64_t key) const { return size_t((key * 0x9E3779B97F4A7C15ULL) >> shift_); }

    std::pair<V*, bool> insert(uint64_t key, V value) {
        if (2 * (used_ + 1) > slots_.size()) grow();
        for (size_t i = index_of(key);; i = (i + 1) & mask_) {
            slot& s = slots_[i];
            if (s.used && s.key == key) return {&s.value, false};
            if (!s.used) {
                s = slot{key, std::move(value), true};
                ++used_;
                return {&s.value, true};
            }
        }
    }

    void grow() {
        std::vector<slot> old = std::move(slots_);
        const size_t capacity = old.empty() ? 16 : 2 * old.size();
        slots_.assign(capacity, slot{});
        mask_ = capacity - 1;
        shift_ = 64;
        for (size_t c = capacity; c > 1; c >>= 1) --shift_;
        used_ = 0;
        for (slot& s : old)
            if (s.used) insert(s.key, std::move(s.value));
    }

    std::vector<slot> slots_;
    size_t used_ = 0;
    // slots_.size() - 1, kept: the size of a slot is seldom a power of two, so computing it from the
    // vector costs a multiplication on every look-up.
    size_t mask_ = 0;
    unsigned shift_ = 64;
};

} // namespace pmusim
