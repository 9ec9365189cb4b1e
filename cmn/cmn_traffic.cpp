#include "cmn/cmn_traffic.h"

#include <algorithm>
#include <fmt/format.h>
#include <regex>
#include <sstream>

#include "tb/sequence_parser.h"

namespace pmusim {

// ---------------------------------------------------------------------------
// Flits
// ---------------------------------------------------------------------------

namespace {
uint64_t put(uint64_t v, unsigned lsb, unsigned width) {
    return (v & (width >= 64 ? ~0ull : ((1ull << width) - 1))) << lsb;
}
} // namespace

uint64_t cmn_flit::match_value(unsigned group, bool upload) const {
    // CMN-600 match-group layouts (reference cmn.md §2.5, from Arm's cmn-tools). The node-ID
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
    case cmn_channel::snp: return 0;
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

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}
} // namespace

// ---------------------------------------------------------------------------
// The `traffic` text
// ---------------------------------------------------------------------------

std::vector<cmn_generator_config> parse_cmn_traffic(const cmn_mesh& mesh, const std::string& text,
                                                    const cmn_text_origin& o) {
    std::vector<cmn_generator_config> out;
    const bool block = text.find('\n') != std::string::npos;
    std::istringstream in(text);
    std::string raw;
    unsigned row = 0;
    const std::string form = "'X,Y pP[.D] rate=R range=LO-HI mix=Op:W,... [seed=N] [start=C] [count=N]'";
    while (std::getline(in, raw)) {
        const unsigned line = block ? o.param_line + 1 + row : o.param_line;
        ++row;
        std::istringstream entries(raw.substr(0, raw.find('#')));
        std::string entry;
        while (std::getline(entries, entry, ';')) {
            entry = trim(entry);
            if (entry.empty()) continue;
            auto fail = [&](const std::string& what) { return input_error(o.file, line, o.param_path + ": " + what); };
            std::istringstream tok(entry);
            std::vector<std::string> t;
            for (std::string w; tok >> w;) t.push_back(w);
            if (t.size() < 2) throw fail(fmt::format("expected {}, found '{}'", form, entry));
            cmn_generator_config g;
            g.line = line;
            static const std::regex xy_form(R"(([0-7]),([0-7]))"), port_form(R"(p([01])(\.([0-3]))?)");
            std::smatch m;
            if (!std::regex_match(t[0], m, xy_form) || unsigned(std::stoi(m[1])) >= mesh.mesh_x ||
                unsigned(std::stoi(m[2])) >= mesh.mesh_y)
                throw fail(fmt::format("expected a crosspoint X,Y of the {}x{} mesh, found '{}'", mesh.mesh_x,
                                       mesh.mesh_y, t[0]));
            const unsigned x = unsigned(std::stoi(m[1])), y = unsigned(std::stoi(m[2]));
            g.xp = y * mesh.mesh_x + x;
            if (!std::regex_match(t[1], m, port_form))
                throw fail(fmt::format("expected a port p0 or p1 (p1.1 for device 1), found '{}'", t[1]));
            const unsigned p = unsigned(std::stoi(m[1])), d = m[3].matched ? unsigned(std::stoi(m[3])) : 0;
            char extra = 0;
            g.port = p, g.device = d;
            const cmn_port& port = mesh.xps[g.xp].ports[p];
            if (port.kind != cmn_port_kind::rnf && port.kind != cmn_port_kind::rni && port.kind != cmn_port_kind::rnd)
                throw fail(fmt::format("traffic comes from requesters: port {} of crosspoint {},{} is {}, not rn-f, "
                                       "rn-i or rn-d",
                                       t[1], x, y, port.kind == cmn_port_kind::none ? "empty" : port_kind_name(port.kind)));
            if (d >= port.devices)
                throw fail(fmt::format("port {} of crosspoint {},{} has {} device(s), found device {}", t[1].substr(0, 2),
                                       x, y, port.devices, d));
            bool have_rate = false, have_range = false, have_mix = false;
            for (size_t i = 2; i < t.size(); ++i) {
                auto eq = t[i].find('=');
                const std::string key = t[i].substr(0, eq), value = eq == std::string::npos ? "" : t[i].substr(eq + 1);
                if (key == "rate") {
                    g.rate = seq::parse_rate(value, o.file, line, "as the request rate");
                    have_rate = true;
                } else if (key == "range") {
                    auto dash = value.find('-');
                    try {
                        if (dash == std::string::npos) throw std::invalid_argument("");
                        g.lo = std::stoull(value.substr(0, dash), nullptr, 0);
                        g.hi = std::stoull(value.substr(dash + 1), nullptr, 0);
                    } catch (const std::exception&) {
                        throw fail(fmt::format("expected range=LO-HI like range=0x80000000-0x807fffff, found '{}'", t[i]));
                    }
                    if (g.hi < g.lo) throw fail(fmt::format("range {:#x}-{:#x} ends before it starts", g.lo, g.hi));
                    have_range = true;
                } else if (key == "mix") {
                    std::istringstream ms(value);
                    std::string item;
                    while (std::getline(ms, item, ',')) {
                        auto colon = item.find(':');
                        const std::string name = item.substr(0, colon);
                        const int op = chi_request_opcode(name);
                        if (op < 0)
                            throw fail(fmt::format("unknown request '{}': expected ReadNoSnp, ReadOnce, ReadShared, "
                                                   "ReadUnique, WriteNoSnpFull or WriteBackFull",
                                                   name));
                        unsigned w = 1;
                        if (colon != std::string::npos &&
                            (std::sscanf(item.c_str() + colon + 1, "%u%c", &w, &extra) != 1 || w == 0))
                            throw fail(fmt::format("expected a weight like {}:3, found '{}'", name, item));
                        g.mix.emplace_back(uint8_t(op), w);
                    }
                    have_mix = !g.mix.empty();
                } else if (key == "seed" || key == "start" || key == "count") {
                    uint64_t v = 0;
                    size_t used = 0;
                    try {
                        v = std::stoull(value, &used, 0);
                    } catch (const std::exception&) {
                        used = 0;
                    }
                    if (value.empty() || used != value.size() || value[0] == '-')
                        throw fail(fmt::format("expected {}=N (a number), found '{}'", key, t[i]));
                    (key == "seed" ? g.seed : key == "start" ? g.start_cycle : g.count) = v;
                } else {
                    throw fail(fmt::format("unknown key '{}': expected rate=, range=, mix=, seed=, start= or count=",
                                           key));
                }
            }
            if (!have_rate || !have_range || !have_mix)
                throw fail(fmt::format("a generator needs rate=, range= and mix=: expected {}", form));
            if (mesh.node_count_of(cmn_node_type::hnf) == 0)
                throw fail("traffic needs at least one hn-f (the home of every request)");
            bool memory = false;
            for (const auto& xp : mesh.xps)
                for (const auto& port_ : xp.ports) memory = memory || port_.kind == cmn_port_kind::snf;
            if (!memory) throw fail("traffic needs at least one sn-f (the memory behind the HN-Fs)");
            out.push_back(g);
        }
    }
    return out;
}

// ---------------------------------------------------------------------------
// The traffic model
// ---------------------------------------------------------------------------

cmn_traffic::cmn_traffic(const cmn_mesh& mesh, cmn_traffic_timing timing, std::vector<cmn_generator_config> gens)
    : mesh_(mesh), t_(timing) {
    for (size_t i = 0; i < mesh.nodes.size(); ++i) {
        const cmn_node& n = mesh.nodes[i];
        if (n.type != cmn_node_type::hnf) continue;
        home h;
        h.node = i;
        h.ep = {size_t(n.xp), n.port, n.device, n.node_id};
        h.sets.resize(t_.hnf_sets);
        homes_.push_back(std::move(h));
    }
    for (size_t x = 0; x < mesh.xps.size(); ++x)
        for (unsigned p = 0; p < 2; ++p)
            if (mesh.xps[x].ports[p].kind == cmn_port_kind::snf)
                for (unsigned d = 0; d < mesh.xps[x].ports[p].devices; ++d)
                    memories_.push_back({x, p, d, mesh.node_id(mesh.xps[x].x, mesh.xps[x].y, p, d)});
    for (size_t i = 0; i < gens.size(); ++i) {
        generator g;
        g.cfg = gens[i];
        const cmn_xp& xp = mesh.xps[g.cfg.xp];
        g.ep = {g.cfg.xp, g.cfg.port, g.cfg.device, mesh.node_id(xp.x, xp.y, g.cfg.port, g.cfg.device)};
        for (size_t c : xp.children) {
            const cmn_node& n = mesh.nodes[c];
            if ((n.type == cmn_node_type::rni || n.type == cmn_node_type::rnd) && n.port == g.cfg.port &&
                n.device == g.cfg.device)
                g.rn_node = c;
        }
        gens_.push_back(g);
    }
    reset(0);
}

void cmn_traffic::reset(uint64_t start_edge) {
    for (size_t i = 0; i < gens_.size(); ++i) {
        generator& g = gens_[i];
        g.issued = 0;
        g.start_edge = start_edge + g.cfg.start_cycle;
        g.rng = g.cfg.seed ^ (0x9E3779B97F4A7C15ull * (i + 1));
        g.in_flight = {};
        g.next_edge = issue_edge(g, 1);
    }
    for (auto& h : homes_)
        for (auto& s : h.sets) s.tags.clear(), s.dirty.clear();
    links_.assign(mesh_.xps.size() * 6 * 4, {});
    issue_edge_now_ = start_edge;
    transactions_ = 0;
    flit_hops_ = 0;
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
        next->in_flight.push(transaction(*next, next->next_edge, sink));
        next->issued++;
        next->next_edge = next_request_edge(*next);
    }
}

uint64_t cmn_traffic::send(cmn_flit f, const endpoint& from, const endpoint& to, uint64_t edge,
                           cmn_traffic_sink& sink) {
    f.srcid = from.id;
    f.tgtid = to.id;
    sink.port_crossing(from.xp, from.port, true, f, edge);
    uint64_t t = edge + t_.port_cycles;
    unsigned x = mesh_.xps[from.xp].x, y = mesh_.xps[from.xp].y;
    const unsigned tx = mesh_.xps[to.xp].x, ty = mesh_.xps[to.xp].y;
    auto tx_event = [&](cmn_xp_interface i) {
        const size_t xp = y * mesh_.mesh_x + x, node = mesh_.xps[xp].node;
        const uint64_t want = t;
        t = reserve_link(xp, i, f.channel, want);
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
    sink.port_crossing(to.xp, to.port, false, f, t);
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

uint64_t cmn_traffic::transaction(generator& g, uint64_t e0, cmn_traffic_sink& sink) {
    ++transactions_;
    issue_edge_now_ = e0;
    // The request: opcode by weight, a line of the range, its home by address hash.
    unsigned total = 0;
    for (const auto& m : g.cfg.mix) total += m.second;
    uint64_t pick = random(g) % total;
    uint8_t op = g.cfg.mix.front().first;
    for (const auto& m : g.cfg.mix) {
        if (pick < m.second) {
            op = m.first;
            break;
        }
        pick -= m.second;
    }
    const uint64_t first = g.cfg.lo >> 6, last = g.cfg.hi >> 6;
    const uint64_t line = first + random(g) % (last - first + 1);
    const uint64_t hash = line ^ (line >> 6) ^ (line >> 12) ^ (line >> 18) ^ (line >> 24) ^ (line >> 30);
    home& h = homes_[hash % homes_.size()];
    const endpoint& mem = memories_[line % memories_.size()];
    const bool write = is_write(op);
    auto hnf_event = [&](uint8_t id, uint64_t edge) { sink.traffic_event(h.node, id, 0, edge, 1); };
    auto rn_event = [&](uint8_t id, uint64_t edge) {
        if (g.rn_node != SIZE_MAX) sink.traffic_event(g.rn_node, id, 0, edge, 1);
    };

    cmn_flit req;
    req.channel = cmn_channel::req;
    req.opcode = op;
    req.addr = line << 6;
    rn_event(0x06, e0); // rnid_txreq_flits_total
    const uint64_t at_home = send(req, g.ep, h.ep, e0, sink);
    hnf_event(0x05, at_home); // hnf_pocq_reqs_recvd
    hnf_event(0x02, at_home); // hnf_slc_sf_cache_access
    bool dirty_victim = false;
    uint64_t victim = 0;
    const bool hit = lookup(h, line, write, dirty_victim, victim);
    uint64_t respond = at_home + t_.hnf_cycles;
    if (!hit) hnf_event(0x01, at_home); // hnf_cache_miss

    auto writeback = [&](uint64_t edge) { // a dirty victim goes to memory: WriteNoSnpFull, DBIDResp, data
        hnf_event(0x0a, edge);            // hnf_slc_eviction
        hnf_event(0x0d, edge);            // hnf_mc_reqs
        const endpoint& vm = memories_[victim % memories_.size()];
        cmn_flit w;
        w.channel = cmn_channel::req;
        w.opcode = chi::req_write_no_snp_full;
        w.addr = victim << 6;
        const uint64_t at_mem = send(w, h.ep, vm, edge, sink);
        cmn_flit r;
        r.channel = cmn_channel::rsp;
        r.opcode = chi::rsp_dbid_resp;
        const uint64_t back = send(r, vm, h.ep, at_mem + t_.port_cycles, sink);
        for (uint8_t k = 0; k < 2; ++k) {
            cmn_flit d;
            d.channel = cmn_channel::dat;
            d.opcode = chi::dat_non_copy_back_wr_data;
            d.homenid = h.ep.id;
            d.dataid = uint8_t(2 * k);
            send(d, h.ep, vm, back + k, sink);
        }
    };

    uint64_t done;
    uint64_t rn_done; // the requester's part ends: its tracker entry frees
    if (write) {
        if (!hit) hnf_event(0x03, at_home); // hnf_cache_fill: the written line is allocated
        if (dirty_victim) writeback(at_home);
        cmn_flit r;
        r.channel = cmn_channel::rsp;
        r.opcode = chi::rsp_comp_dbid_resp;
        const uint64_t at_rn = send(r, h.ep, g.ep, respond, sink);
        done = at_rn;
        for (uint8_t k = 0; k < 2; ++k) {
            cmn_flit d;
            d.channel = cmn_channel::dat;
            d.opcode = op == chi::req_write_back_full ? chi::dat_copy_back_wr_data : chi::dat_non_copy_back_wr_data;
            d.homenid = h.ep.id;
            d.dataid = uint8_t(2 * k);
            rn_event(0x05, at_rn + k); // rnid_txdat_flits
            done = send(d, g.ep, h.ep, at_rn + k, sink);
        }
        rn_done = at_rn + 1; // its last data flit sent
    } else {
        if (!hit) {
            hnf_event(0x0d, respond); // hnf_mc_reqs
            cmn_flit m;
            m.channel = cmn_channel::req;
            m.opcode = chi::req_read_no_snp;
            m.addr = line << 6;
            const uint64_t at_mem = send(m, h.ep, mem, respond, sink);
            uint64_t filled = 0;
            for (uint8_t k = 0; k < 2; ++k) {
                cmn_flit d;
                d.channel = cmn_channel::dat;
                d.opcode = chi::dat_comp_data;
                d.homenid = h.ep.id;
                d.dataid = uint8_t(2 * k);
                filled = send(d, mem, h.ep, at_mem + t_.snf_cycles + k, sink);
            }
            hnf_event(0x03, filled); // hnf_cache_fill
            if (dirty_victim) writeback(filled);
            respond = filled;
        }
        uint64_t at_rn = respond;
        for (uint8_t k = 0; k < 2; ++k) {
            cmn_flit d;
            d.channel = cmn_channel::dat;
            d.opcode = chi::dat_comp_data;
            d.homenid = h.ep.id;
            d.dataid = uint8_t(2 * k);
            at_rn = send(d, h.ep, g.ep, respond + k, sink);
            rn_event(0x04, at_rn); // rnid_rxdat_flits
        }
        done = respond + 1;
        rn_done = at_rn; // its last data flit received (a CompAck leaves then)
        if (needs_comp_ack(op)) {
            cmn_flit a;
            a.channel = cmn_channel::rsp;
            a.opcode = chi::rsp_comp_ack;
            done = send(a, g.ep, h.ep, at_rn, sink);
        }
    }
    // POCQ occupancy: the request holds an entry from its arrival to its completion.
    sink.traffic_ramp(h.node, 0x0f, 0, at_home, done);
    sink.traffic_ramp(h.node, 0x0f, write ? 2 : 1, at_home, done);
    return rn_done;
}

} // namespace pmusim
