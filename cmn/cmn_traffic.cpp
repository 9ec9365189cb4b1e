#include "cmn/cmn_traffic.h"

#include <algorithm>

namespace pmusim {

// ---------------------------------------------------------------------------
// Flits
// ---------------------------------------------------------------------------

namespace {
constexpr unsigned line_shift = 6; // CHI cache lines are 64 bytes: a line number is address >> 6

uint64_t put(uint64_t v, unsigned lsb, unsigned width) {
    return (v & (width >= 64 ? ~0ull : ((1ull << width) - 1))) << lsb;
}
} // namespace

uint64_t cmn_flit::match_value(unsigned group, bool upload) const {
    // CMN-600 match-group layouts (cmn-tools src/cmnwatch.py@34baf88: the CMN-600 entries of
    // _req_fields, _rsp_fields, _snp_fields and _dat_fields). The node-ID
    // field is the target on upload and the source on download (docs/cmn.md: a choice).
    const uint64_t id = upload ? tgtid : srcid;
    switch (channel) {
    case cmn_channel::req:
        if (group == 0) return put(id, 0, 11) | put(opcode, 31, 6) | put(size, 37, 3) | put(ns, 40, 1);
        return put(addr, 4, 48);
    case cmn_channel::rsp:
        return group == 0 ? put(id, 4, 11) | put(opcode, 15, 4) | put(dbid, 27, 8) : 0;
    case cmn_channel::dat:
        return group == 0 ? put(id, 4, 11) | put(homenid, 15, 11) | put(opcode, 26, 3) | put(dbid, 37, 8) |
                                put(dataid, 47, 2)
                          : 0;
    case cmn_channel::snp: {
        // SNP has no TgtID: the node-ID field is the source (the HN-F) in both directions. The
        // address field holds CHI's SNP Addr (address >> 3): its low 36 bits in group 0, bits [44:13]
        // (address bits [47:16]) in group 1 ("addr13", cmn-tools).
        const uint64_t common = put(srcid, 0, 11) | put(opcode, 19, 5) | put(ns, 24, 1) | put(donotgotosd, 25, 1) |
                                put(rettosrc, 26, 1);
        return group == 0 ? common | put(addr >> 3, 28, 36) : common | put(addr >> 16, 32, 32);
    }
    }
    return 0;
}

int chi_request_opcode(const std::string& name) {
    static const std::pair<const char*, uint8_t> ops[] = {
        {"ReadShared", chi::req_read_shared},       {"ReadOnce", chi::req_read_once},
        {"ReadNoSnp", chi::req_read_no_snp},        {"ReadUnique", chi::req_read_unique},
        {"WriteBackFull", chi::req_write_back_full}, {"WriteNoSnpFull", chi::req_write_no_snp_full}};
    for (const auto& o : ops)
        if (name == o.first) return o.second;
    return -1;
}

namespace {
bool is_write(uint8_t op) { return op == chi::req_write_back_full || op == chi::req_write_no_snp_full; }
bool needs_comp_ack(uint8_t op) { return op == chi::req_read_shared || op == chi::req_read_unique; }

// Beat `beat` (0 or 1: DataID 0 or 2, 32 bytes each) of a line's data, for home `homenid`.
cmn_flit data_flit(uint8_t opcode, uint16_t homenid, uint8_t beat) {
    cmn_flit d;
    d.channel = cmn_channel::dat;
    d.opcode = opcode;
    d.homenid = homenid;
    d.dataid = uint8_t(2 * beat);
    return d;
}

// CopyBackWrData for a write-back, NonCopyBackWrData otherwise.
uint8_t write_data_opcode(uint8_t request) {
    return request == chi::req_write_back_full ? chi::dat_copy_back_wr_data : chi::dat_non_copy_back_wr_data;
}

cmn_flit response_flit(uint8_t opcode) {
    cmn_flit r;
    r.channel = cmn_channel::rsp;
    r.opcode = opcode;
    return r;
}

} // namespace

// ---------------------------------------------------------------------------
// The traffic model
// ---------------------------------------------------------------------------

cmn_traffic::cmn_traffic(const cmn_mesh& mesh, cmn_traffic_timing timing, std::vector<cmn_generator_config> gens)
    : mesh_(mesh), t_(std::move(timing)), platform_gens_(std::move(gens)) {
    for (size_t i = 0; i < mesh.nodes.size(); ++i) {
        const cmn_node& n = mesh.nodes[i];
        if (n.type != cmn_node_type::hnf) continue;
        home h;
        h.node = i;
        h.ep = {size_t(n.xp), n.port, n.device, n.node_id};
        h.sets.resize(t_.hnf_sets);
        homes_.push_back(std::move(h));
    }
    // Memory: SN-F devices and SBSX bridges (to AXI memory), in XP order.
    for (size_t x = 0; x < mesh.xps.size(); ++x)
        for (unsigned p = 0; p < 2; ++p) {
            const cmn_port& port = mesh.xps[x].ports[p];
            if (port.kind == cmn_port_kind::snf)
                for (unsigned d = 0; d < port.devices; ++d)
                    memories_.push_back({{x, p, d, mesh.node_id(mesh.xps[x].x, mesh.xps[x].y, p, d)}, SIZE_MAX});
            if (port.kind == cmn_port_kind::sbsx) {
                memory_target m{{x, p, 0, mesh.node_id(mesh.xps[x].x, mesh.xps[x].y, p, 0)}, SIZE_MAX};
                for (size_t c : mesh.xps[x].children)
                    if (mesh.nodes[c].type == cmn_node_type::sbsx && mesh.nodes[c].port == p) m.sbsx_node = c;
                memories_.push_back(m);
            }
        }
    reset(0);
}

cmn_traffic::generator cmn_traffic::make_generator(const cmn_generator_config& cfg, size_t index) const {
    generator g;
    g.cfg = cfg;
    const cmn_xp& xp = mesh_.xps[cfg.xp];
    g.ep = {cfg.xp, cfg.port, cfg.device, mesh_.node_id(xp.x, xp.y, cfg.port, cfg.device)};
    for (size_t c : xp.children) {
        const cmn_node& n = mesh_.nodes[c];
        if ((n.type == cmn_node_type::rni || n.type == cmn_node_type::rnd) && n.port == cfg.port &&
            n.device == cfg.device)
            g.rn_node = c;
    }
    for (size_t r = 0; r < rnfs_.size(); ++r)
        if (rnfs_[r].ep.id == g.ep.id) g.rnf = int(r);
    g.rng = cfg.seed ^ (0x9E3779B97F4A7C15ull * (index + 1));
    return g;
}

void cmn_traffic::reset(uint64_t start_edge) {
    // RN-F tag stores: one per RN-F device that ever generates traffic (the platform's or a statement's).
    for (auto& r : rnfs_)
        for (auto& set : r.sets) set.clear();
    gens_.clear();
    for (const auto& cfg : platform_gens_) {
        if (mesh_.xps[cfg.xp].ports[cfg.port].kind == cmn_port_kind::rnf) {
            const cmn_xp& xp = mesh_.xps[cfg.xp];
            const uint16_t id = mesh_.node_id(xp.x, xp.y, cfg.port, cfg.device);
            if (std::none_of(rnfs_.begin(), rnfs_.end(), [&](const rnf_store& r) { return r.ep.id == id; }))
                rnfs_.push_back({{cfg.xp, cfg.port, cfg.device, id}, std::vector<std::vector<uint64_t>>(t_.rnf_sets)});
        }
        generator g = make_generator(cfg, gens_.size());
        g.start_edge = start_edge + g.cfg.start_cycle;
        if (cfg.flow.active && start_edge > 0) { // flows keep their lattice: the requests after the reset edge
            g.start_edge = g.cfg.start_cycle;
            if (start_edge > g.start_edge)
                g.issued = uint64_t((unsigned __int128)(start_edge - g.start_edge) * cfg.rate.num / cfg.rate.den);
        }
        g.next_edge = issue_edge(g, g.issued + 1);
        gens_.push_back(g);
    }
    for (auto& h : homes_) {
        for (auto& s : h.sets) s.tags.clear(), s.dirty.clear();
        h.snoop_filter.clear();
    }
    links_.assign(mesh_.xps.size() * 6 * 4, {});
    issue_edge_now_ = start_edge;
    transactions_ = 0;
    flit_hops_ = 0;
}

const cmn_generator_config* cmn_traffic::generator_at(size_t xp, unsigned port, unsigned device) const {
    for (const auto& g : gens_) // flows' streams are not the `traffic` statement's generators
        if (!g.cfg.flow.active && g.cfg.xp == xp && g.cfg.port == port && g.cfg.device == device) return &g.cfg;
    return nullptr;
}

void cmn_traffic::set_generator(size_t xp, unsigned port, unsigned device, const cmn_generator_config* cfg,
                                bool keep_stream, uint64_t now_edge) {
    auto it = std::find_if(gens_.begin(), gens_.end(), [&](const generator& g) {
        return !g.cfg.flow.active && g.cfg.xp == xp && g.cfg.port == port && g.cfg.device == device;
    });
    if (!cfg) {
        if (it != gens_.end()) gens_.erase(it);
        return;
    }
    if (mesh_.xps[xp].ports[port].kind == cmn_port_kind::rnf) {
        const cmn_xp& x = mesh_.xps[xp];
        const uint16_t id = mesh_.node_id(x.x, x.y, port, device);
        if (std::none_of(rnfs_.begin(), rnfs_.end(), [&](const rnf_store& r) { return r.ep.id == id; }))
            rnfs_.push_back({{xp, port, device, id}, std::vector<std::vector<uint64_t>>(t_.rnf_sets)});
    }
    const size_t index = it == gens_.end() ? gens_.size() : size_t(it - gens_.begin());
    generator g = make_generator(*cfg, index);
    if (it != gens_.end() && keep_stream) g.rng = it->rng;
    g.start_edge = now_edge + cfg->start_cycle;
    g.next_edge = issue_edge(g, 1);
    if (it == gens_.end()) gens_.push_back(g);
    else *it = g;
}

uint64_t cmn_traffic::issue_edge(const generator& g, uint64_t k) const {
    // floor(j * p / q) requests by edge j, as for every rate stream: request k issues at ceil(k * q / p).
    if (g.cfg.rate.num == 0 || k > g.cfg.count) return UINT64_MAX;
    const unsigned __int128 n = (unsigned __int128)k * g.cfg.rate.den;
    return g.start_edge + uint64_t((n + g.cfg.rate.num - 1) / g.cfg.rate.num);
}

uint64_t cmn_traffic::next_request_edge(generator& g) const {
    uint64_t e = issue_edge(g, g.issued + 1);
    if (e == UINT64_MAX) return e;
    e = std::max(e, g.next_edge); // requests of one requester issue in order
    if (g.cfg.flow.active) return e; // flows: no tracker limit (the parser checked Little's law)
    while (!g.in_flight.empty() && g.in_flight.top() <= e) g.in_flight.pop();
    if (g.in_flight.size() >= t_.max_outstanding) { // all taken: wait for the first to complete
        e = g.in_flight.top();
        while (!g.in_flight.empty() && g.in_flight.top() <= e) g.in_flight.pop();
    }
    return e;
}

uint64_t cmn_traffic::next_issue_edge() const {
    uint64_t e = UINT64_MAX;
    for (const auto& g : gens_) e = std::min(e, g.next_edge);
    return e;
}

uint64_t cmn_traffic::random(generator& g) {
    // splitmix64: the same sequence on every platform and standard library.
    uint64_t z = (g.rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void cmn_traffic::advance(uint64_t edge, cmn_traffic_sink& sink) {
    for (;;) {
        generator* next = nullptr;
        for (auto& g : gens_)
            if (g.next_edge <= edge && (!next || g.next_edge < next->next_edge)) next = &g;
        if (!next) return;
        const uint64_t done = transaction(*next, next->next_edge, sink);
        if (!next->cfg.flow.active) next->in_flight.push(done);
        next->issued++;
        next->next_edge = next_request_edge(*next);
    }
}

uint64_t cmn_traffic::send(cmn_flit f, const endpoint& from, const endpoint& to, uint64_t edge,
                           cmn_traffic_sink& sink, bool fluid) {
    f.srcid = from.id;
    f.tgtid = to.id;
    if (!fluid) sink.port_crossing(from.xp, from.port, true, f, edge);
    uint64_t t = edge + t_.port_cycles;
    unsigned x = mesh_.xps[from.xp].x, y = mesh_.xps[from.xp].y;
    const unsigned tx = mesh_.xps[to.xp].x, ty = mesh_.xps[to.xp].y;
    auto tx_event = [&](cmn_xp_interface i) {
        const size_t xp = y * mesh_.mesh_x + x, node = mesh_.xps[xp].node;
        const uint64_t want = t;
        if (!fluid) t = reserve_link(xp, i, f.channel, want);
        if (t > want) // stalled at edges want .. t-1
            sink.traffic_ramp(node, cmn_xp_eventid(cmn_xp_kind::txflit_stall, i, f.channel), 0, want - 1, t - 1);
        sink.traffic_event(node, cmn_xp_eventid(cmn_xp_kind::txflit_valid, i, f.channel), 0, t, 1);
        ++flit_hops_;
    };
    // Dimension-ordered routing: X first, then Y. North is +Y, east is +X.
    while (x != tx) {
        tx_event(tx > x ? cmn_xp_interface::east : cmn_xp_interface::west);
        x = tx > x ? x + 1 : x - 1;
        t += t_.hop_cycles;
    }
    while (y != ty) {
        tx_event(ty > y ? cmn_xp_interface::north : cmn_xp_interface::south);
        y = ty > y ? y + 1 : y - 1;
        t += t_.hop_cycles;
    }
    tx_event(to.port ? cmn_xp_interface::p1 : cmn_xp_interface::p0);
    if (!fluid) sink.port_crossing(to.xp, to.port, false, f, t);
    return t + t_.port_cycles;
}

uint64_t cmn_traffic::reserve_link(size_t xp, cmn_xp_interface i, cmn_channel c, uint64_t edge) {
    link& l = links_[(xp * 6 + unsigned(i)) * 4 + unsigned(c)];
    // Edges before the current request's issue edge can no longer be asked for: drop them.
    while (!l.words.empty() && l.base + 64 <= issue_edge_now_) l.words.pop_front(), l.base += 64;
    if (l.words.empty()) l.base = issue_edge_now_ & ~uint64_t(63);
    if (l.full_until < l.base) l.full_until = l.base;
    // The first free edge at or after `edge`. On a saturated link the taken edges form a long
    // run: start past it (full_until) and skip whole taken words, so a grant costs O(1)
    // amortised instead of the length of the backlog.
    if (edge < l.full_until) edge = l.full_until;
    auto taken = [&l](uint64_t e, uint64_t& w, uint64_t& bit) {
        w = (e - l.base) / 64, bit = uint64_t(1) << ((e - l.base) % 64);
        if (w >= l.words.size()) l.words.resize(w + 1, 0);
        return (l.words[w] & bit) != 0;
    };
    uint64_t w = 0, bit = 0;
    while (taken(edge, w, bit)) edge = l.words[w] == ~uint64_t(0) ? l.base + 64 * (w + 1) : edge + 1;
    l.words[w] |= bit;
    if (edge == l.full_until)
        while (taken(l.full_until, w, bit))
            l.full_until = l.words[w] == ~uint64_t(0) ? l.base + 64 * (w + 1) : l.full_until + 1;
    return edge;
}

bool cmn_traffic::lookup(home& h, uint64_t line, bool write, bool& evicted_dirty, uint64_t& victim) {
    cache_set& s = h.sets[line % h.sets.size()];
    const uint64_t tag = line / h.sets.size();
    evicted_dirty = false;
    auto it = std::find(s.tags.begin(), s.tags.end(), tag);
    if (it != s.tags.end()) {
        const size_t i = size_t(it - s.tags.begin());
        const bool dirty = s.dirty[i] || write;
        s.tags.erase(it);
        s.dirty.erase(s.dirty.begin() + long(i));
        s.tags.insert(s.tags.begin(), tag);
        s.dirty.insert(s.dirty.begin(), dirty);
        return true;
    }
    if (s.tags.size() == t_.hnf_ways) { // evict the least recently used way
        evicted_dirty = s.dirty.back();
        victim = s.tags.back() * h.sets.size() + line % h.sets.size();
        s.tags.pop_back();
        s.dirty.pop_back();
    }
    s.tags.insert(s.tags.begin(), tag);
    s.dirty.insert(s.dirty.begin(), write);
    return false;
}

void cmn_traffic::slc_mark_dirty(home& h, uint64_t line) {
    cache_set& s = h.sets[line % h.sets.size()];
    auto it = std::find(s.tags.begin(), s.tags.end(), line / h.sets.size());
    if (it != s.tags.end()) s.dirty[size_t(it - s.tags.begin())] = true;
}

cmn_traffic::home& cmn_traffic::home_of(uint64_t line) {
    const uint64_t hash = line ^ (line >> 6) ^ (line >> 12) ^ (line >> 18) ^ (line >> 24) ^ (line >> 30);
    return homes_[hash % homes_.size()];
}

void cmn_traffic::rnf_forget(int rnf, uint64_t line) {
    auto& set = rnfs_[size_t(rnf)].sets[line % t_.rnf_sets];
    auto it = std::find(set.begin(), set.end(), line / t_.rnf_sets);
    if (it != set.end()) set.erase(it);
}

void cmn_traffic::sf_remove(int rnf, uint64_t line) {
    home& h = home_of(line);
    auto e = h.snoop_filter.find(line);
    if (e == h.snoop_filter.end()) return;
    auto& holders = e->second.holders;
    holders.erase(std::remove(holders.begin(), holders.end(), rnf), holders.end());
    if (holders.empty()) h.snoop_filter.erase(e);
}

void cmn_traffic::rnf_allocate(int rnf, uint64_t line) {
    auto& set = rnfs_[size_t(rnf)].sets[line % t_.rnf_sets];
    const uint64_t tag = line / t_.rnf_sets;
    auto it = std::find(set.begin(), set.end(), tag);
    if (it != set.end()) set.erase(it);
    else if (set.size() == t_.rnf_ways) { // the LRU victim leaves the RN-F (no Evict/WriteBack flits: docs)
        sf_remove(rnf, set.back() * t_.rnf_sets + line % t_.rnf_sets);
        set.pop_back();
    }
    set.insert(set.begin(), tag);
}

uint64_t cmn_traffic::snoop(generator& g, home& h, uint64_t line, uint8_t op, uint64_t edge, bool& dirty_data,
                            cmn_traffic_sink& sink) {
    dirty_data = false;
    auto it = h.snoop_filter.find(line);
    if (it == h.snoop_filter.end()) return edge;
    sf_entry& e = it->second;
    // ReadUnique invalidates every other holder; ReadShared and ReadOnce snoop a unique holder only
    // (sharers hold clean copies: the data comes from the SLC or memory).
    std::vector<int> targets;
    uint8_t snp = 0;
    if (op == chi::req_read_unique) {
        snp = chi::snp_unique;
        for (int r : e.holders)
            if (r != g.rnf) targets.push_back(r);
    } else if ((op == chi::req_read_shared || op == chi::req_read_once) && e.unique && e.holders.front() != g.rnf) {
        snp = op == chi::req_read_shared ? chi::snp_shared : chi::snp_once;
        targets.push_back(e.holders.front());
    }
    uint64_t done = edge;
    const bool dirty = e.unique && e.dirty; // only a unique holder can hold the line dirty
    for (int r : targets) {
        const endpoint& rn = rnfs_[size_t(r)].ep;
        cmn_flit s;
        s.channel = cmn_channel::snp;
        s.opcode = snp;
        s.addr = line << line_shift;
        s.donotgotosd = true; // the model has no SharedDirty state
        sink.traffic_event(h.node, 0x18, 0, edge, 1); // hnf_snp_sent
        sink.traffic_event(h.node, 0x08, 0, edge, 1); // hnf_dir_snoops_sent: the snoop filter names the target
        const uint64_t reply = send(s, h.ep, rn, edge, sink) + t_.rnf_snoop_cycles;
        uint64_t back = 0;
        if (dirty) { // SnpRespData: the dirty line goes to the HN-F in two data flits
            for (uint8_t k = 0; k < 2; ++k) {
                const cmn_flit d = data_flit(chi::dat_snp_resp_data, h.ep.id, k);
                back = send(d, rn, h.ep, reply + k, sink);
            }
            sink.traffic_event(h.node, 0x1c, 0, back, 1); // hnf_intv_dirty
            dirty_data = true;
        } else {
            cmn_flit r = response_flit(chi::rsp_snp_resp);
            back = send(r, rn, h.ep, reply, sink);
        }
        done = std::max(done, back);
    }
    // The holders' states after the snoop: SnpUnique invalidates, SnpShared leaves a clean shared copy,
    // SnpOnce leaves a dirty line shared clean (its data passed to the HN-F) and a clean one as it was.
    if (snp == chi::snp_unique) {
        for (int r : targets) rnf_forget(r, line);
        e.holders.erase(std::remove_if(e.holders.begin(), e.holders.end(), [&](int r) { return r != g.rnf; }),
                        e.holders.end());
        if (e.holders.empty()) h.snoop_filter.erase(it);
    } else if (snp == chi::snp_shared || (snp == chi::snp_once && dirty)) {
        e.unique = false;
        e.dirty = false;
    }
    return done;
}

uint64_t cmn_traffic::io_transaction(generator& g, uint8_t op, uint64_t line, size_t hni, uint64_t e0,
                                 cmn_traffic_sink& sink, bool fluid) {
    const cmn_node& n = mesh_.nodes[hni];
    const endpoint io{size_t(n.xp), n.port, n.device, n.node_id};
    auto rn_event = [&](uint8_t id, uint64_t edge) {
        if (g.rn_node != SIZE_MAX) sink.traffic_event(g.rn_node, id, 0, edge, 1);
    };
    cmn_flit req;
    req.channel = cmn_channel::req;
    req.opcode = op;
    req.addr = line << line_shift;
    const uint64_t at_hni = send(req, g.ep, io, e0, sink, fluid);
    const uint64_t axi_done = at_hni + t_.hni_cycles; // the AXI read data or write response
    if (is_write(op)) {
        sink.traffic_event(hni, 0x26, 0, at_hni, 1); // hni_rrt_wr_alloc
        cmn_flit r = response_flit(chi::rsp_comp_dbid_resp);
        const uint64_t at_rn = send(r, io, g.ep, axi_done, sink, fluid);
        for (uint8_t k = 0; k < 2; ++k) {
            const cmn_flit d = data_flit(write_data_opcode(op), io.id, k);
            rn_event(0x05, at_rn + k); // rnid_txdat_flits
            const uint64_t in = send(d, g.ep, io, at_rn + k, sink, fluid);
            if (k == 0) sink.traffic_event(hni, 0x29, 0, in, 1); // hni_wdb_alloc: the write data buffer
        }
        return at_rn + 1; // its last data flit sent
    }
    sink.traffic_event(hni, 0x25, 0, at_hni, 1);   // hni_rrt_rd_alloc
    sink.traffic_event(hni, 0x27, 0, axi_done, 1); // hni_rdt_rd_alloc: the read data returns
    uint64_t at_rn = axi_done;
    for (uint8_t k = 0; k < 2; ++k) {
        const cmn_flit d = data_flit(chi::dat_comp_data, io.id, k);
        at_rn = send(d, io, g.ep, axi_done + k, sink, fluid);
        rn_event(0x04, at_rn); // rnid_rxdat_flits
    }
    if (needs_comp_ack(op)) {
        cmn_flit a = response_flit(chi::rsp_comp_ack);
        send(a, g.ep, io, at_rn, sink, fluid);
    }
    return at_rn; // its last data flit received
}

uint64_t cmn_traffic::transaction(generator& g, uint64_t e0, cmn_traffic_sink& sink) {
    ++transactions_;
    issue_edge_now_ = e0;
    // A flow's stream (cmn_generator_config::flow) has one opcode, a fixed home and memory, and its
    // hits and misses given: no random draw, no lookup, no snoops (its requests do not cache).
    const auto& flow = g.cfg.flow;
    const bool fluid = flow.active;
    // The request: opcode by weight, a line of the range, its home by address hash.
    uint8_t op = g.cfg.mix.front().first;
    uint64_t line = 0;
    if (!fluid) {
        unsigned total = 0;
        for (const auto& m : g.cfg.mix) total += m.second;
        uint64_t pick = random(g) % total;
        for (const auto& m : g.cfg.mix) {
            if (pick < m.second) {
                op = m.first;
                break;
            }
            pick -= m.second;
        }
        const uint64_t first = g.cfg.lo >> line_shift, last = g.cfg.hi >> line_shift;
        line = first + random(g) % (last - first + 1);
    }
    auto rn_event = [&](uint8_t id, uint64_t edge) {
        if (g.rn_node != SIZE_MAX) sink.traffic_event(g.rn_node, id, 0, edge, 1);
    };
    rn_event(0x06, e0); // rnid_txreq_flits_total
    if (fluid && mesh_.nodes[flow.target].type == cmn_node_type::hni)
        return io_transaction(g, op, line, flow.target, e0, sink, true);
    for (const auto& io : t_.io_ranges)
        if (!fluid && (line << line_shift) >= io.lo && (line << line_shift) <= io.hi)
            return io_transaction(g, op, line, io.hni, e0, sink);

    home& h = fluid ? *std::find_if(homes_.begin(), homes_.end(), [&](const home& x) { return x.node == flow.target; })
                    : home_of(line);
    const memory_target& mem = memories_[fluid ? flow.memory : line % memories_.size()];
    const bool write = is_write(op);
    auto hnf_event = [&](uint8_t id, uint64_t edge) { sink.traffic_event(h.node, id, 0, edge, 1); };
    auto sbsx_event = [&](const memory_target& m, uint8_t id, uint64_t edge) {
        if (m.sbsx_node != SIZE_MAX) sink.traffic_event(m.sbsx_node, id, 0, edge, 1);
    };

    cmn_flit req;
    req.channel = cmn_channel::req;
    req.opcode = op;
    req.addr = line << line_shift;
    const uint64_t at_home = send(req, g.ep, h.ep, e0, sink, fluid);
    hnf_event(0x05, at_home); // hnf_pocq_reqs_recvd
    hnf_event(0x02, at_home); // hnf_slc_sf_cache_access
    if (!fluid && h.snoop_filter.count(line)) hnf_event(0x06, at_home); // hnf_sf_hit
    // Snoops go out after the lookup; their dirty data (if any) fills the SLC instead of memory.
    bool snooped_dirty = false;
    const uint64_t snooped =
        write || fluid ? at_home : snoop(g, h, line, op, at_home + t_.hnf_cycles, snooped_dirty, sink);
    bool dirty_victim = false;
    uint64_t victim = 0;
    const bool hit = fluid ? !flow.miss : lookup(h, line, write || snooped_dirty, dirty_victim, victim);
    uint64_t respond = std::max(at_home + t_.hnf_cycles, snooped);
    if (!hit) hnf_event(0x01, at_home); // hnf_cache_miss

    // The requester's copy (RN-F only): ReadShared shares the line (unique when nobody else holds it),
    // ReadUnique takes it unique and dirty (it is read to be written), WriteBackFull gives it back.
    if (g.rnf >= 0 && !fluid) {
        if (op == chi::req_read_shared || op == chi::req_read_unique) {
            rnf_allocate(g.rnf, line);
            sf_entry& e = h.snoop_filter[line];
            if (std::find(e.holders.begin(), e.holders.end(), g.rnf) == e.holders.end()) {
                e.holders.push_back(g.rnf);
                e.unique = e.holders.size() == 1;
                e.dirty = false;
            }
            if (op == chi::req_read_unique) e.unique = e.dirty = true; // the snoops left it the only holder
        } else if (op == chi::req_write_back_full) {
            rnf_forget(g.rnf, line);
            sf_remove(g.rnf, line);
        }
    }

    auto writeback = [&](uint64_t edge) { // a dirty victim goes to memory: WriteNoSnpFull, DBIDResp, data
        hnf_event(0x0a, edge);            // hnf_slc_eviction
        hnf_event(0x0d, edge);            // hnf_mc_reqs
        const memory_target& vm = memories_[victim % memories_.size()];
        cmn_flit w;
        w.channel = cmn_channel::req;
        w.opcode = chi::req_write_no_snp_full;
        w.addr = victim << line_shift;
        const uint64_t at_mem = send(w, h.ep, vm.ep, edge, sink, fluid);
        sbsx_event(vm, 0x02, at_mem); // sbsx_wr_req
        cmn_flit r = response_flit(chi::rsp_dbid_resp);
        sbsx_event(vm, 0x06, at_mem + t_.port_cycles); // sbsx_txrsp_flitv
        const uint64_t back = send(r, vm.ep, h.ep, at_mem + t_.port_cycles, sink, fluid);
        for (uint8_t k = 0; k < 2; ++k) {
            const cmn_flit d = data_flit(chi::dat_non_copy_back_wr_data, h.ep.id, k);
            send(d, h.ep, vm.ep, back + k, sink, fluid);
        }
    };

    uint64_t done;
    uint64_t rn_done; // the requester's part ends: its tracker entry frees
    if (write) {
        if (!hit) hnf_event(0x03, at_home); // hnf_cache_fill: the written line is allocated
        if (dirty_victim) writeback(at_home);
        cmn_flit r = response_flit(chi::rsp_comp_dbid_resp);
        const uint64_t at_rn = send(r, h.ep, g.ep, respond, sink, fluid);
        done = at_rn;
        for (uint8_t k = 0; k < 2; ++k) {
            const cmn_flit d = data_flit(write_data_opcode(op), h.ep.id, k);
            rn_event(0x05, at_rn + k); // rnid_txdat_flits
            done = send(d, g.ep, h.ep, at_rn + k, sink, fluid);
        }
        rn_done = at_rn + 1; // its last data flit sent
    } else {
        if (!hit && snooped_dirty) { // filled from the snoop data, no memory read
            hnf_event(0x03, respond); // hnf_cache_fill
            if (dirty_victim) writeback(respond);
        } else if (!hit) {
            hnf_event(0x0d, respond); // hnf_mc_reqs
            cmn_flit m;
            m.channel = cmn_channel::req;
            m.opcode = chi::req_read_no_snp;
            m.addr = line << line_shift;
            const uint64_t at_mem = send(m, h.ep, mem.ep, respond, sink, fluid);
            sbsx_event(mem, 0x01, at_mem); // sbsx_rd_req
            uint64_t filled = 0;
            for (uint8_t k = 0; k < 2; ++k) {
                const cmn_flit d = data_flit(chi::dat_comp_data, h.ep.id, k);
                sbsx_event(mem, 0x05, at_mem + t_.snf_cycles + k); // sbsx_txdat_flitv
                filled = send(d, mem.ep, h.ep, at_mem + t_.snf_cycles + k, sink, fluid);
            }
            hnf_event(0x03, filled); // hnf_cache_fill
            if (dirty_victim) writeback(filled);
            respond = filled;
        }
        uint64_t at_rn = respond;
        for (uint8_t k = 0; k < 2; ++k) {
            const cmn_flit d = data_flit(chi::dat_comp_data, h.ep.id, k);
            at_rn = send(d, h.ep, g.ep, respond + k, sink, fluid);
            rn_event(0x04, at_rn); // rnid_rxdat_flits
        }
        done = respond + 1;
        rn_done = at_rn; // its last data flit received (a CompAck leaves then)
        if (needs_comp_ack(op)) {
            cmn_flit a = response_flit(chi::rsp_comp_ack);
            done = send(a, g.ep, h.ep, at_rn, sink, fluid);
        }
    }
    // POCQ occupancy: the request holds an entry from its arrival to its completion.
    sink.traffic_ramp(h.node, 0x0f, 0, at_home, done);
    sink.traffic_ramp(h.node, 0x0f, write ? 2 : 1, at_home, done);
    return rn_done;
}

} // namespace pmusim
