#pragma once
// CMN-600 PMU event names and encodings as the Linux arm-cmn driver exposes
// them (Linux drivers/perf/arm-cmn.c@v6.1, arm_cmn_event_attrs and its CMN_EVENT_* macros):
// node events by (node type, eventid,
// occupid) and XP events whose eventid encodes interface, channel and kind.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cmn/cmn_mesh.h"
#include "models/register_bank.h"

namespace pmusim {

struct cmn_event_def {
    const char* name;    // Linux sysfs name: "hnf_cache_miss"
    cmn_node_type type;  // RN-D events are the RN-I ones (Linux merges the types)
    uint8_t eventid;
    int occupid;         // -1: no occupancy filter; else the occup1_id value the event needs
};
const std::vector<cmn_event_def>& cmn_node_events();

// XP event IDs (por_mxp_pmu_event_sel byte): [1:0] kind, [4:2] interface, [7:5] channel.
namespace cmn_field {
constexpr reg_field xp_event_kind{0, 2}, xp_event_interface{2, 3}, xp_event_channel{5, 3};
} // namespace cmn_field
enum class cmn_xp_kind : uint8_t { txflit_valid = 1, txflit_stall = 2, partial_dat_flit = 3 };
enum class cmn_xp_interface : uint8_t { east = 0, west = 1, north = 2, south = 3, p0 = 4, p1 = 5 };
enum class cmn_channel : uint8_t { req = 0, rsp = 1, snp = 2, dat = 3 };
constexpr uint8_t cmn_xp_eventid(cmn_xp_kind k, cmn_xp_interface i, cmn_channel c) {
    using namespace cmn_field;
    return uint8_t(xp_event_kind.put(uint8_t(k)) | xp_event_interface.put(uint8_t(i)) | xp_event_channel.put(uint8_t(c)));
}
// "mxp_p0_req_txflit_valid" for eventid 0x11; empty when the id is not a valid XP event.
std::string cmn_xp_event_name(uint8_t eventid);

// An event of one node as the model keys its sources.
struct cmn_event_ref {
    uint8_t eventid = 0;
    uint8_t occupid = 0; // only for events with an occupancy filter
    int watchpoint = -1; // 0..3: a DTM watchpoint match (XP only), eventid unused
};

// Resolves an event word for a node of type `t`: a name ("hnf_cache_miss",
// "hnf_qos_pocq_occupancy_read", "mxp_n_dat_txflit_stall", "wp0"..."wp3" on an
// XP) or a number ("0x01"; occupancy 0). nullopt with `error` set when unknown.
std::optional<cmn_event_ref> resolve_cmn_event(cmn_node_type t, const std::string& word, std::string& error);
// Whether node events of `t` with this eventid use the occup1_id filter.
bool cmn_event_uses_occupid(cmn_node_type t, uint8_t eventid);

} // namespace pmusim
