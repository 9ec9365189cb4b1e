#pragma once
// The reference twin of a lazy_counter (docs/reference-mode.md): a register that
// adds the events its source delivers, edge by edge, as a hardware adder would,
// and records a wrap (carry out of the top bit) at the edge where it happens.
// lazy_counter delegates every operation to it in reference mode.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "models/reference_sources.h"
#include "models/sim_time.h"

namespace pmusim {

class reference_counter : public reference_sink {
public:
    explicit reference_counter(unsigned width_bits);
    ~reference_counter() override;

    void set_source(std::shared_ptr<reference_source> source, fs_t now);
    void set_enabled(bool enabled, fs_t now);
    uint64_t read(fs_t now);
    void write(uint64_t value, fs_t now);
    void set_width(unsigned width_bits, fs_t now);
    uint64_t take_overflows(fs_t now);
    // A wrap not yet taken is due now; a future wrap is announced when it happens
    // (on_wrap), so there is nothing to predict.
    std::optional<fs_t> next_overflow(fs_t now);

    void on_wrap(std::function<void()> listener) { wrap_listeners_.push_back(std::move(listener)); }

    void receive(uint64_t count, bool secure) override;
    void notify_wrap(); // called by reference_world after the catch-up in which it wrapped

private:
    unsigned width_;
    uint64_t value_ = 0;
    bool enabled_ = false;
    uint64_t wraps_ = 0;
    bool wrap_queued_ = false;
    std::shared_ptr<reference_source> source_;
    std::vector<std::function<void()>> wrap_listeners_;
};

} // namespace pmusim
