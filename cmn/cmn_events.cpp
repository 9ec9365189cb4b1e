#include "cmn/cmn_events.h"

#include "models/values.h"

#include <algorithm>
#include <fmt/format.h>

namespace pmusim {

const std::vector<cmn_event_def>& cmn_node_events() {
    using t = cmn_node_type;
    static const std::vector<cmn_event_def> e = {
        // DN (DVM), CMN-600 numbering as Linux uses it for every CMN-600 revision.
        {"dn_rxreq_dvmop", t::dvm, 0x01, -1},
        {"dn_rxreq_dvmsync", t::dvm, 0x02, -1},
        {"dn_rxreq_dvmop_vmid_filtered", t::dvm, 0x03, -1},
        {"dn_rxreq_retried", t::dvm, 0x04, -1},
        {"dn_rxreq_trk_occupancy_all", t::dvm, 0x05, 0},
        {"dn_rxreq_trk_occupancy_dvmop", t::dvm, 0x05, 1},
        {"dn_rxreq_trk_occupancy_dvmsync", t::dvm, 0x05, 2},
        // HN-F
        {"hnf_cache_miss", t::hnf, 0x01, -1},
        {"hnf_slc_sf_cache_access", t::hnf, 0x02, -1},
        {"hnf_cache_fill", t::hnf, 0x03, -1},
        {"hnf_pocq_retry", t::hnf, 0x04, -1},
        {"hnf_pocq_reqs_recvd", t::hnf, 0x05, -1},
        {"hnf_sf_hit", t::hnf, 0x06, -1},
        {"hnf_sf_evictions", t::hnf, 0x07, -1},
        {"hnf_dir_snoops_sent", t::hnf, 0x08, -1},
        {"hnf_brd_snoops_sent", t::hnf, 0x09, -1},
        {"hnf_slc_eviction", t::hnf, 0x0a, -1},
        {"hnf_slc_fill_invalid_way", t::hnf, 0x0b, -1},
        {"hnf_mc_retries", t::hnf, 0x0c, -1},
        {"hnf_mc_reqs", t::hnf, 0x0d, -1},
        {"hnf_qos_hh_retry", t::hnf, 0x0e, -1},
        {"hnf_qos_pocq_occupancy_all", t::hnf, 0x0f, 0},
        {"hnf_qos_pocq_occupancy_read", t::hnf, 0x0f, 1},
        {"hnf_qos_pocq_occupancy_write", t::hnf, 0x0f, 2},
        {"hnf_qos_pocq_occupancy_atomic", t::hnf, 0x0f, 3},
        {"hnf_qos_pocq_occupancy_stash", t::hnf, 0x0f, 4},
        {"hnf_pocq_addrhaz", t::hnf, 0x10, -1},
        {"hnf_pocq_atomic_addrhaz", t::hnf, 0x11, -1},
        {"hnf_ld_st_swp_adq_full", t::hnf, 0x12, -1},
        {"hnf_cmp_adq_full", t::hnf, 0x13, -1},
        {"hnf_txdat_stall", t::hnf, 0x14, -1},
        {"hnf_txrsp_stall", t::hnf, 0x15, -1},
        {"hnf_seq_full", t::hnf, 0x16, -1},
        {"hnf_seq_hit", t::hnf, 0x17, -1},
        {"hnf_snp_sent", t::hnf, 0x18, -1},
        {"hnf_sfbi_dir_snp_sent", t::hnf, 0x19, -1},
        {"hnf_sfbi_brd_snp_sent", t::hnf, 0x1a, -1},
        {"hnf_snp_sent_untrk", t::hnf, 0x1b, -1},
        {"hnf_intv_dirty", t::hnf, 0x1c, -1},
        {"hnf_stash_snp_sent", t::hnf, 0x1d, -1},
        {"hnf_stash_data_pull", t::hnf, 0x1e, -1},
        {"hnf_snp_fwded", t::hnf, 0x1f, -1},
        // HN-I
        {"hni_rrt_rd_occ_cnt_ovfl", t::hni, 0x20, -1},
        {"hni_rrt_wr_occ_cnt_ovfl", t::hni, 0x21, -1},
        {"hni_rdt_rd_occ_cnt_ovfl", t::hni, 0x22, -1},
        {"hni_rdt_wr_occ_cnt_ovfl", t::hni, 0x23, -1},
        {"hni_wdb_occ_cnt_ovfl", t::hni, 0x24, -1},
        {"hni_rrt_rd_alloc", t::hni, 0x25, -1},
        {"hni_rrt_wr_alloc", t::hni, 0x26, -1},
        {"hni_rdt_rd_alloc", t::hni, 0x27, -1},
        {"hni_rdt_wr_alloc", t::hni, 0x28, -1},
        {"hni_wdb_alloc", t::hni, 0x29, -1},
        {"hni_txrsp_retryack", t::hni, 0x2a, -1},
        {"hni_arvalid_no_arready", t::hni, 0x2b, -1},
        {"hni_arready_no_arvalid", t::hni, 0x2c, -1},
        {"hni_awvalid_no_awready", t::hni, 0x2d, -1},
        {"hni_awready_no_awvalid", t::hni, 0x2e, -1},
        {"hni_wvalid_no_wready", t::hni, 0x2f, -1},
        {"hni_txdat_stall", t::hni, 0x30, -1},
        {"hni_nonpcie_serialization", t::hni, 0x31, -1},
        {"hni_pcie_serialization", t::hni, 0x32, -1},
        // RN-I / RN-D
        {"rnid_s0_rdata_beats", t::rni, 0x01, -1},
        {"rnid_s1_rdata_beats", t::rni, 0x02, -1},
        {"rnid_s2_rdata_beats", t::rni, 0x03, -1},
        {"rnid_rxdat_flits", t::rni, 0x04, -1},
        {"rnid_txdat_flits", t::rni, 0x05, -1},
        {"rnid_txreq_flits_total", t::rni, 0x06, -1},
        {"rnid_txreq_flits_retried", t::rni, 0x07, -1},
        {"rnid_rrt_occ_ovfl", t::rni, 0x08, -1},
        {"rnid_wrt_occ_ovfl", t::rni, 0x09, -1},
        {"rnid_txreq_flits_replayed", t::rni, 0x0a, -1},
        {"rnid_wrcancel_sent", t::rni, 0x0b, -1},
        {"rnid_s0_wdata_beats", t::rni, 0x0c, -1},
        {"rnid_s1_wdata_beats", t::rni, 0x0d, -1},
        {"rnid_s2_wdata_beats", t::rni, 0x0e, -1},
        {"rnid_rrt_alloc", t::rni, 0x0f, -1},
        {"rnid_wrt_alloc", t::rni, 0x10, -1},
        {"rnid_rdb_unord", t::rni, 0x11, -1},
        {"rnid_rdb_replay", t::rni, 0x12, -1},
        {"rnid_rdb_hybrid", t::rni, 0x13, -1},
        {"rnid_rdb_ord", t::rni, 0x14, -1},
        // SBSX
        {"sbsx_rd_req", t::sbsx, 0x01, -1},
        {"sbsx_wr_req", t::sbsx, 0x02, -1},
        {"sbsx_cmo_req", t::sbsx, 0x03, -1},
        {"sbsx_txrsp_retryack", t::sbsx, 0x04, -1},
        {"sbsx_txdat_flitv", t::sbsx, 0x05, -1},
        {"sbsx_txrsp_flitv", t::sbsx, 0x06, -1},
        {"sbsx_rd_req_trkr_occ_cnt_ovfl", t::sbsx, 0x11, -1},
        {"sbsx_wr_req_trkr_occ_cnt_ovfl", t::sbsx, 0x12, -1},
        {"sbsx_cmo_req_trkr_occ_cnt_ovfl", t::sbsx, 0x13, -1},
        {"sbsx_wdb_occ_cnt_ovfl", t::sbsx, 0x14, -1},
        {"sbsx_rd_axi_trkr_occ_cnt_ovfl", t::sbsx, 0x15, -1},
        {"sbsx_cmo_axi_trkr_occ_cnt_ovfl", t::sbsx, 0x16, -1},
        {"sbsx_arvalid_no_arready", t::sbsx, 0x21, -1},
        {"sbsx_awvalid_no_awready", t::sbsx, 0x22, -1},
        {"sbsx_wvalid_no_wready", t::sbsx, 0x23, -1},
        {"sbsx_txdat_stall", t::sbsx, 0x24, -1},
        {"sbsx_txrsp_stall", t::sbsx, 0x25, -1},
    };
    return e;
}

std::string cmn_xp_event_name(uint8_t eventid) {
    static const char* const interfaces[] = {"e", "w", "n", "s", "p0", "p1"};
    static const char* const channels[] = {"req", "rsp", "snp", "dat"};
    static const char* const kinds[] = {"", "txflit_valid", "txflit_stall", "partial_dat_flit"};
    using namespace cmn_field;
    const unsigned kind = unsigned(xp_event_kind.get(eventid)), iface = unsigned(xp_event_interface.get(eventid)),
                   chan = unsigned(xp_event_channel.get(eventid));
    if (kind == 0 || iface > 5 || chan > 3) return {};
    return fmt::format("mxp_{}_{}_{}", interfaces[iface], channels[chan], kinds[kind]);
}

bool cmn_event_uses_occupid(cmn_node_type t, uint8_t eventid) {
    // Asked per flit: the few filtered events, gathered from the table once.
    static const std::vector<std::pair<cmn_node_type, uint8_t>> filtered = [] {
        std::vector<std::pair<cmn_node_type, uint8_t>> v;
        for (const auto& e : cmn_node_events())
            if (e.occupid >= 0 && std::find(v.begin(), v.end(), std::make_pair(e.type, e.eventid)) == v.end())
                v.emplace_back(e.type, e.eventid);
        return v;
    }();
    for (const auto& f : filtered)
        if (f.first == t && f.second == eventid) return true;
    return false;
}

std::optional<cmn_event_ref> resolve_cmn_event(cmn_node_type t, const std::string& word, std::string& error) {
    if (t == cmn_node_type::rnd) t = cmn_node_type::rni;
    cmn_event_ref r;
    if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0]))) {
        const auto id = values::scan_integer(word);
        if (id && *id >= 1 && *id <= 0xFF) {
            r.eventid = uint8_t(*id);
            if (t == cmn_node_type::xp && cmn_xp_event_name(r.eventid).empty()) {
                error = fmt::format("{:#x} is not an XP event ID ([1:0] kind 1..3, [4:2] interface 0..5, "
                                    "[7:5] channel 0..3)",
                                    *id);
                return std::nullopt;
            }
            return r;
        }
        error = fmt::format("expected an event ID 0x01..0xff, found '{}'", word);
        return std::nullopt;
    }
    if (t == cmn_node_type::xp) {
        if (word.size() == 3 && word.compare(0, 2, "wp") == 0 && word[2] >= '0' && word[2] <= '3') {
            r.watchpoint = word[2] - '0';
            return r;
        }
        for (unsigned id = 1; id < 0x80; ++id)
            if (cmn_xp_event_name(uint8_t(id)) == word) {
                r.eventid = uint8_t(id);
                return r;
            }
        error = fmt::format("unknown XP event '{}': expected mxp_<e|w|n|s|p0|p1>_<req|rsp|snp|dat>_"
                            "<txflit_valid|txflit_stall|partial_dat_flit>, wp0..wp3 or an event ID",
                            word);
        return std::nullopt;
    }
    std::string names;
    for (const auto& e : cmn_node_events()) {
        if (e.type != t) continue;
        if (word == e.name) {
            r.eventid = e.eventid;
            r.occupid = uint8_t(e.occupid < 0 ? 0 : e.occupid);
            return r;
        }
        names += (names.empty() ? "" : ", ") + std::string(e.name);
    }
    error = names.empty() ? fmt::format("{} nodes take event IDs only (like 0x01), found '{}'", to_string(t), word)
                          : fmt::format("unknown {} event '{}': expected one of {} or an event ID", to_string(t),
                                        word, names);
    return std::nullopt;
}

} // namespace pmusim
