#include "cmn/cmn_edge_events.h"

#include <algorithm>

#include "cmn/cmn_reference.h"

namespace pmusim {

cmn_edge_events::cmn_edge_events(const clock_domain& clock) : clock_(clock) {
    if (clock.reference()) reference_ = std::make_shared<reference_cmn_edge_events>(clock.reference());
}

reference_cmn_edge_events* cmn_edge_events::twin() const {
    return static_cast<reference_cmn_edge_events*>(reference_.get());
}

void cmn_edge_events::sort_pending() const {
    if (sorted_ == pending_.size()) return;
    auto by_edge = [](const auto& a, const auto& b) { return a.first < b.first; };
    std::sort(pending_.begin() + long(sorted_), pending_.end(), by_edge);
    std::inplace_merge(pending_.begin(), pending_.begin() + long(sorted_), pending_.end(), by_edge);
    size_t out = 0;
    for (size_t i = 0; i < pending_.size(); ++i) {
        if (out && pending_[out - 1].first == pending_[i].first) {
            pending_[out - 1].second.points += pending_[i].second.points;
            pending_[out - 1].second.slope += pending_[i].second.slope;
        } else {
            pending_[out++] = pending_[i];
        }
    }
    pending_.resize(out);
    sorted_ = out;
    prefix_valid_ = false;
}

void cmn_edge_events::fold(uint64_t settled_edge) {
    sort_pending();
    size_t n = 0;
    while (n < pending_.size() && pending_[n].first <= settled_edge) {
        settled_.add(pending_[n].first, pending_[n].second);
        ++n;
    }
    pending_.erase(pending_.begin(), pending_.begin() + long(n));
    sorted_ = pending_.size();
    first_pending_ = pending_.empty() ? UINT64_MAX : pending_.front().first;
    prefix_valid_ = false;
}

void cmn_edge_events::push(uint64_t edge, breakpoint b) {
    pending_.emplace_back(edge, b);
    first_pending_ = std::min(first_pending_, edge);
    prefix_valid_ = false;
}

void cmn_edge_events::add(uint64_t edge, uint64_t count, uint64_t settled_edge) {
    if (auto* t = twin()) t->add(edge, count);
    if (count == 0) return;
    note_change();
    if (pending_.size() >= fold_at_) {
        fold(settled_edge);
        fold_at_ = 2 * pending_.size() + 64;
    }
    if (edge <= settled_edge) {
        settled_.points += count;
        prefix_valid_ = false;
    } else {
        push(edge, {count, 0});
    }
}

void cmn_edge_events::add_ramp(uint64_t from, uint64_t to, uint64_t settled_edge) {
    if (auto* t = twin()) t->add_ramp(from, to);
    if (to <= from) return;
    note_change();
    if (pending_.size() >= fold_at_) {
        fold(settled_edge);
        fold_at_ = 2 * pending_.size() + 64;
    }
    for (auto [edge, slope] : {std::pair<uint64_t, int64_t>{from, 1}, {to, -1}}) {
        if (edge <= settled_edge) {
            settled_.add(edge, {0, slope});
            prefix_valid_ = false;
        } else {
            push(edge, {0, slope});
        }
    }
}

uint64_t cmn_edge_events::count_at(fs_t t) const {
    const uint64_t e = clock_.edges_at(t);
    if (e < first_pending_) return settled_.at(e);
    sort_pending();
    if (!prefix_valid_) {
        prefix_.resize(pending_.size());
        totals run = settled_;
        for (size_t i = 0; i < pending_.size(); ++i) {
            run.add(pending_[i].first, pending_[i].second);
            prefix_[i] = run;
        }
        prefix_valid_ = true;
    }
    // The last breakpoint at or before e (there is one: e >= the first).
    auto it = std::upper_bound(pending_.begin(), pending_.end(), e,
                               [](uint64_t v, const std::pair<uint64_t, breakpoint>& p) { return v < p.first; });
    return prefix_[size_t(it - pending_.begin()) - 1].at(e);
}

void cmn_edge_events::drop_after(uint64_t now_edge) {
    if (auto* t = twin()) t->drop_pending();
    note_change();
    fold(now_edge);
    // Ramps still running stop here: their count up to now_edge stays.
    settled_.points = settled_.at(now_edge);
    settled_.slope = 0;
    settled_.weighted = 0;
    pending_.clear();
    sorted_ = 0;
    first_pending_ = UINT64_MAX;
    prefix_.clear();
    prefix_valid_ = true;
    fold_at_ = 64;
}

} // namespace pmusim
