#include "models/reference_counter.h"

#include "models/reference_mode.h"

namespace pmusim {

namespace {
uint64_t top_value(unsigned width) { return width >= 64 ? ~0ULL : (1ULL << width) - 1; }
} // namespace

reference_counter::reference_counter(unsigned width_bits) : width_(width_bits) {}

reference_counter::~reference_counter() {
    if (source_) source_->unsubscribe(this);
    reference_world::instance().forget_counter(this);
}

void reference_counter::set_source(std::shared_ptr<reference_source> source, fs_t now) {
    reference_world::instance().catch_up(now);
    if (source_) source_->unsubscribe(this);
    source_ = std::move(source);
    if (source_) source_->subscribe(this);
}

void reference_counter::set_enabled(bool enabled, fs_t now) {
    reference_world::instance().catch_up(now);
    enabled_ = enabled;
}

uint64_t reference_counter::read(fs_t now) {
    reference_world::instance().catch_up(now);
    return value_;
}

void reference_counter::write(uint64_t value, fs_t now) {
    reference_world::instance().catch_up(now);
    value_ = value & top_value(width_);
}

void reference_counter::set_width(unsigned width_bits, fs_t now) {
    reference_world::instance().catch_up(now);
    width_ = width_bits;
    value_ &= top_value(width_);
}

uint64_t reference_counter::take_overflows(fs_t now) {
    reference_world::instance().catch_up(now);
    uint64_t n = wraps_;
    wraps_ = 0;
    return n;
}

std::optional<fs_t> reference_counter::next_overflow(fs_t now) {
    reference_world::instance().catch_up(now);
    if (wraps_) return now;
    return std::nullopt;
}

void reference_counter::receive(uint64_t count, bool) {
    if (!enabled_) return;
    // The adder of a width-bit register: every carry out of the top bit is a wrap.
    const uint64_t top = top_value(width_);
    while (count) {
        const uint64_t room = top - value_; // events before the next wrap
        if (count <= room) {
            value_ += count;
            return;
        }
        count -= room + 1;
        value_ = 0;
        ++wraps_;
        if (!wrap_queued_) {
            wrap_queued_ = true;
            reference_world::instance().defer_wrap(this);
        }
    }
}

void reference_counter::notify_wrap() {
    wrap_queued_ = false;
    for (size_t i = 0; i < wrap_listeners_.size(); ++i) wrap_listeners_[i]();
}

} // namespace pmusim
