#pragma once
// Reference twins of the event sources (models/event_source.h): each delivers
// its events as they happen, edge by edge, to whoever subscribed (other twins
// and reference counters). docs/reference-mode.md describes the mode.
//
//   reference_rate_stream   rate p/q per edge: an accumulator gains p on every
//                           edge and yields one event each time it holds q
//                           (3/2 gives 1, 2, 1, 2, ... events on edges 1, 2, 3, 4)
//   reference_clock_count   one event per edge
//   reference_filter        passes the events of one producer security state
//   reference_sum           passes the events of all its parts
//   reference_divider       one event each time the running total reaches a multiple of the divisor
//   reference_gate          passes the events while open; the edges at or before a change
//                           belong to the old state
//   reference_injected      `inject`: at once, or one by one at the instants
//                           start + ceil(k * duration / count), k = 1..count
//
// Events carry the producer's security state so that filters can select them.
#include <cstdint>
#include <memory>
#include <vector>

#include "models/rational.h"
#include "models/reference_clock.h"
#include "models/sim_time.h"

namespace pmusim {

// What receives events: a twin further down, or a reference counter.
class reference_sink {
public:
    virtual ~reference_sink() = default;
    // `count` events happened now, produced in the given security state.
    virtual void receive(uint64_t count, bool secure) = 0;
};

class reference_source {
public:
    virtual ~reference_source() = default;
    void subscribe(reference_sink* s) { sinks_.push_back(s); }
    void unsubscribe(reference_sink* s);

protected:
    void emit(uint64_t count, bool secure) {
        if (count == 0) return;
        for (size_t i = 0; i < sinks_.size(); ++i) sinks_[i]->receive(count, secure);
    }

private:
    std::vector<reference_sink*> sinks_;
};

class reference_rate_stream : public reference_source, reference_edge_listener {
public:
    explicit reference_rate_stream(std::shared_ptr<reference_clock> clock);
    ~reference_rate_stream() override;
    // New rate and producer security state from `now` on. An unchanged pair keeps the
    // accumulator (the phase goes on); any change starts a new phase with an empty one.
    void set(rational rate, bool secure, fs_t now);
    void on_edge() override;

private:
    std::shared_ptr<reference_clock> clock_;
    uint64_t per_edge_ = 0, whole_ = 1; // rate = per_edge_ / whole_
    bool secure_ = false;
    uint64_t accumulator_ = 0;          // always < whole_
};

class reference_clock_count : public reference_source, reference_edge_listener {
public:
    explicit reference_clock_count(std::shared_ptr<reference_clock> clock);
    ~reference_clock_count() override;
    void on_edge() override { emit(1, false); }

private:
    std::shared_ptr<reference_clock> clock_;
};

class reference_filter : public reference_source, reference_sink {
public:
    reference_filter(std::shared_ptr<reference_source> from, bool pass_secure, bool pass_nonsecure);
    ~reference_filter() override;
    void receive(uint64_t count, bool secure) override {
        if (secure ? pass_secure_ : pass_nonsecure_) emit(count, secure);
    }

private:
    std::shared_ptr<reference_source> from_;
    bool pass_secure_, pass_nonsecure_;
};

class reference_sum : public reference_source, reference_sink {
public:
    ~reference_sum() override;
    void add(std::shared_ptr<reference_source> part);
    void receive(uint64_t count, bool secure) override { emit(count, secure); }

private:
    std::vector<std::shared_ptr<reference_source>> parts_;
};

class reference_divider : public reference_source, reference_sink {
public:
    reference_divider(std::shared_ptr<reference_source> base, uint64_t divisor);
    ~reference_divider() override;
    void receive(uint64_t count, bool secure) override {
        uint64_t before = total_ / divisor_;
        total_ += count;
        emit(total_ / divisor_ - before, secure);
    }

private:
    std::shared_ptr<reference_source> base_;
    uint64_t divisor_;
    uint64_t total_ = 0;
};

class reference_gate : public reference_source, reference_sink {
public:
    explicit reference_gate(std::shared_ptr<reference_source> base);
    ~reference_gate() override;
    void set_open(bool open, fs_t now);
    void receive(uint64_t count, bool secure) override {
        if (open_) emit(count, secure);
    }

private:
    std::shared_ptr<reference_source> base_;
    bool open_ = false;
};

class reference_injected : public reference_source, public std::enable_shared_from_this<reference_injected> {
public:
    // `count` events at `now` (over == 0) or spread over (now, now + over].
    void add(uint64_t count, fs_t now, fs_t over);
    // Delivers the spread events due at or before `now`; returns the instant of the next one (fs_never: none).
    fs_t deliver_until(fs_t now);

private:
    struct ramp {
        fs_t start, duration;
        uint64_t count, delivered;
        // floor(k * duration / count) for the next k, as quotient and remainder.
        uint64_t quotient, remainder;
        fs_t next() const { return start + quotient + (remainder ? 1 : 0); }
        void step();
    };
    std::vector<ramp> ramps_;
};

} // namespace pmusim
