#pragma once
// A level-sensitive interrupt output (e.g. the DSU's nCLUSTERPMUIRQ, the CMN's
// overflow interrupt). Units drive it; the testbench, logs and waveforms watch it.
#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "models/sim_time.h"

namespace pmusim {

class interrupt_line {
public:
    explicit interrupt_line(std::string name) : name_(std::move(name)) {}
    const std::string& name() const { return name_; }
    bool level() const { return level_; }
    uint64_t rising_edges() const { return rising_edges_; }
    const sc_core::sc_event& changed_event() const { return changed_; }

    void set(bool level) {
        if (level == level_) return;
        level_ = level;
        if (level) ++rising_edges_;
        changed_.notify(sc_core::SC_ZERO_TIME);
        for (auto& l : listeners_) l(level, now_fs());
    }
    // Called at every edge with the new level and the instant.
    void on_edge(std::function<void(bool, fs_t)> listener) { listeners_.push_back(std::move(listener)); }

private:
    std::string name_;
    bool level_ = false;
    uint64_t rising_edges_ = 0;
    sc_core::sc_event changed_;
    std::vector<std::function<void(bool, fs_t)>> listeners_;
};

} // namespace pmusim
