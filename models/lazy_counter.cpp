#include "models/lazy_counter.h"

#include "models/input_error.h"
#include "models/reference_counter.h"
#include "models/reference_mode.h"

namespace pmusim {

using u128 = unsigned __int128;

static uint64_t mask_for(unsigned width) { return width >= 64 ? ~0ULL : ((1ULL << width) - 1); }

lazy_counter::lazy_counter(unsigned width_bits) : width_(width_bits), mask_(mask_for(width_bits)) {
    if (reference_mode()) reference_ = std::make_shared<reference_counter>(width_bits);
}

void lazy_counter::on_reference_wrap(std::function<void()> listener) {
    if (reference_) reference_->on_wrap(std::move(listener));
}

void lazy_counter::sync(fs_t now) {
    if (!enabled_ || !source_) return;
    const uint64_t version = source_->version();
    if (now == synced_at_ && version == synced_version_) return; // counted at this instant, nothing changed since
    uint64_t current = source_->count_at(now);
    synced_at_ = now;
    synced_version_ = version;
    uint64_t delta = current - source_at_sync_;
    source_at_sync_ = current;
    if (delta == 0) return;
    u128 total = (u128)value_ + delta;
    pending_overflows_ += static_cast<uint64_t>(total >> width_);
    value_ = static_cast<uint64_t>(total) & mask_;
}

void lazy_counter::set_source(const event_source* source, fs_t now) {
    if (reference_) {
        if (source && !source->reference()) throw model_error("reference mode: an event source without a reference twin");
        reference_->set_source(source ? source->reference() : nullptr, now);
        source_ = source; // kept for source(); the fast state is not used in reference mode
        return;
    }
    sync(now);
    source_ = source;
    synced_at_ = fs_never;
    if (source_) source_at_sync_ = source_->count_at(now);
}

void lazy_counter::set_enabled(bool enabled, fs_t now) {
    if (enabled == enabled_) return;
    if (reference_) {
        reference_->set_enabled(enabled, now);
        enabled_ = enabled;
        return;
    }
    sync(now);
    enabled_ = enabled;
    synced_at_ = fs_never;
    if (enabled_ && source_) source_at_sync_ = source_->count_at(now);
}

uint64_t lazy_counter::read_counting(fs_t now) {
    if (reference_) return reference_->read(now);
    sync(now);
    return value_;
}

void lazy_counter::write(uint64_t value, fs_t now) {
    if (reference_) return reference_->write(value, now);
    sync(now);
    value_ = value & mask_;
}

void lazy_counter::set_width(unsigned width_bits, fs_t now) {
    if (reference_) reference_->set_width(width_bits, now);
    else sync(now);
    width_ = width_bits;
    mask_ = mask_for(width_bits);
    value_ &= mask_;
}

uint64_t lazy_counter::take_overflows(fs_t now) {
    if (reference_) return reference_->take_overflows(now);
    sync(now);
    uint64_t n = pending_overflows_;
    pending_overflows_ = 0;
    return n;
}

uint64_t lazy_counter::overflows_at(fs_t t) const {
    if (reference_ || !enabled_ || !source_) return pending_overflows_;
    const uint64_t delta = source_->count_at(t) - source_at_sync_;
    return pending_overflows_ + static_cast<uint64_t>(((u128)value_ + delta) >> width_);
}

std::optional<fs_t> lazy_counter::next_overflow(fs_t now) {
    if (reference_) return reference_->next_overflow(now);
    sync(now);
    if (!enabled_ || !source_) return std::nullopt;
    u128 needed = ((u128)mask_ + 1) - value_;
    u128 target = (u128)source_at_sync_ + needed;
    if (target > UINT64_MAX) return std::nullopt; // beyond any source's reach
    return first_time_reaching(*source_, static_cast<uint64_t>(target), now);
}

} // namespace pmusim
