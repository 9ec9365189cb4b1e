#pragma once
// Internal state of the POWER9 IMC unit, shared by imc.cpp (construction, register
// access, testbench), imc_nest.cpp (the OCC microcode), imc_core.cpp (core, thread
// and trace engines) and imc_opal.cpp (firmware calls). Not for use outside imc/.
#include <cstring>
#include <fmt/format.h>

#include "imc/imc.h"
#include "models/input_error.h"
#include "models/overflow_scheduler.h"

namespace pmusim {
namespace imc {

// OCC 24x7 posting groups: header word, counters, trailer word = header + 0x108.
constexpr uint64_t group_header[7] = {0x0, 0x110, 0x220, 0x330, 0x440, 0x550, 0x660};
constexpr uint64_t group_span = 0x108;
constexpr unsigned nest_groups = 7;

// The group whose posting block holds a nest offset, or nest_groups when none does.
inline unsigned group_of(uint64_t offset) {
    for (unsigned g = 0; g < nest_groups; ++g)
        if (offset > group_header[g] && offset < group_header[g] + group_span) return g;
    return nest_groups;
}

// Whether group g posts in round-robin state s (1..8): G1/G2 odd, G3 even, G4..G7 in 2, 4, 6, 8.
inline bool group_posts_in(unsigned g, unsigned s) {
    if (g < 2) return s % 2 == 1;
    if (g == 2) return s % 2 == 0;
    return s == 2 * (g - 2);
}

inline uint64_t scale_of(const std::optional<std::string>& scale) {
    if (!scale) return 1;
    try {
        size_t used = 0;
        uint64_t v = std::stoull(*scale, &used, 10);
        if (used == scale->size() && v > 0) return v;
    } catch (const std::logic_error&) {
    }
    return 1; // a non-integer scale (e.g. "1.5e-3") is a display factor only: no prescale
}

// "chip3" -> 3 for prefix "chip"; nullopt when not prefix + decimal digits (at most 9).
inline std::optional<unsigned> index_after(const std::string& word, const char* prefix) {
    size_t n = std::strlen(prefix);
    if (word.compare(0, n, prefix) != 0 || word.size() == n || word.size() > n + 9 ||
        word.find_first_not_of("0123456789", n) != std::string::npos)
        return std::nullopt;
    return unsigned(std::stoul(word.substr(n)));
}

} // namespace imc

struct imc_unit::nest_counter {
    uint64_t value = 0; // offset in the nest region (unit reg + event reg)
    uint64_t scale = 1; // the microcode's prescale: memory counts scale events
    unsigned group = imc::nest_groups;
    std::vector<std::string> names;
    injected_events injected;
    summed_source source;
    uint64_t baseline = 0, posted = 0;
};

struct imc_unit::nest_chip {
    unsigned id = 0;
    uint64_t homer = 0;
    std::vector<std::unique_ptr<nest_counter>> counters; // stable addresses: sources point into them
    std::map<std::string, nest_counter*> by_name;
    uint64_t ticks = 0;
    bool paused = false;
    unsigned reinit_left = 0;
    uint64_t error_status = 0; // status_bad_speed / status_bad_mode, 0 when none
    uint64_t speed = 0, mode = 0;
    bool collecting = true;
    std::array<uint64_t, imc::nest_groups> countdown{};
    uint64_t postings = 0;
    sc_core::sc_event tick;
    std::unique_ptr<clock_edges> nest_edges;
    uint64_t cb() const { return homer + imc::nest_offset + imc::cb_offset; }
};

struct imc_unit::acc_counter {
    uint64_t offset = 0;
    uint64_t scale = 1;
    const event_source* source = nullptr;
    uint64_t baseline = 0, posted = 0;
    std::string name; // the catalog's full event name
};

struct imc_unit::thread_imc {
    unsigned cpu = 0, chip = 0, core = 0, thread = 0;
    core_imc* owner = nullptr;
    std::unique_ptr<register_bank> bank;
    uint64_t ldbar = 0;
    bool acc_active = false;
    std::vector<acc_counter> counters;
    std::unique_ptr<gated_source> ref32_running; // the 32 MHz reference while the thread runs
    // trace
    bool trace_active = false;
    uint64_t buffer = 0, entries = 4096, records = 0, load = 0;
    lazy_counter sampler{imc::imc_field::trace_cpmc_load.width}; // the sampling CPMC, loaded from CPMC_LOAD
    unsigned sampsel = 0, sel[2] = {0, 0};
    uint64_t cpmc_base[2] = {0, 0}, inst_base = 0, cycles_base = 0;
    // The sampler's wraps (its only slot): a record at each, at its exact instant.
    overflow_scheduler trace_wraps;
};

struct imc_unit::core_imc {
    unsigned chip = 0, core = 0;
    std::unique_ptr<register_bank> bank;
    std::vector<thread_imc*> threads;
    std::unique_ptr<clock_edges> cycles;
    std::unique_ptr<gated_source> non_idle_cycles; // core clock while any thread runs
    summed_source inst;
    bool acc_active = false;
    std::vector<acc_counter> counters;
    bool update_pending = false;
    sc_core::sc_event update;
    uint64_t reg(const char* name) { return (*bank)[name].value; }
};

// The hardware would take a machine check; pmusim stops the engine, warns and counts.
template <class Step> bool imc_unit::guarded(const std::string& engine, Step&& step) {
    if (step()) return true;
    ++memory_faults_;
    SC_REPORT_WARNING("pmusim/imc",
                      fmt::format("{}: {} stopped: its {} of {:#x} reached no memory (map memory there in the "
                                  "platform, or program another address)",
                                  basename(), engine, fault_.write ? "write" : "read", fault_.address)
                          .c_str());
    return false;
}

} // namespace pmusim
