// CMN-600 register tables, per kind of node region. Offsets are from the node's
// base; the PMU registers are the node's third 4 KB page (+0x2000). Sources: CMN-600 TRM
// 100180, Linux drivers/perf/arm-cmn.c, FreeBSD cmn600_reg.h, SCP-firmware cmn600.h, AMD AM012
// (each register's own citation below; tests/facts/cmn.tsv checks the numbers).
#include <fmt/format.h>

#include "cmn/cmn600.h"
#include "models/input_error.h"

namespace pmusim {

namespace {

using fa = field_access;

register_def ro64(std::string name, uint64_t offset, std::vector<field_def> fields, std::string description) {
    return {std::move(name), std::nullopt, offset, 64, 0, std::move(fields), std::move(description)};
}

field_def node_type_field() { return {"node_type", cmn_field::node_type, fa::ro, "node type (0x1 DN, 0x2 CFG, 0x3 DTC, 0x4 HN-I, 0x5 HN-F, 0x6 XP, 0x7 SBSX, 0xA RN-I, 0xD RN-D, 0x100 CXRA, 0x101 CXHA)"}; }

std::vector<field_def> node_info_fields() {
    return {node_type_field(),
            {"node_id", cmn_field::node_id, fa::ro, "node ID: X << (3+bits) | Y << 3 | port << 2 | device (bits = 3 if the mesh is wider or taller than 4, else 2)"},
            {"logical_id", cmn_field::logical_id, fa::ro, "logical ID: per node type; XPs row-major (y * mesh_x + x); a DTC's domain"},
            {"res0", 48, 16, fa::res0, ""}};
}

std::vector<field_def> child_info_fields() {
    return {{"child_count", cmn_field::child_count, fa::ro, "number of child pointers"},
            {"child_ptr_offset", cmn_field::child_ptr_offset, fa::ro, "offset of child pointer 0 from the node base (0x100)"},
            {"res0", 32, 32, fa::res0, ""}};
}

std::vector<field_def> child_pointer_fields() {
    return {{"child_offset", cmn_field::child_offset, fa::ro, "child node's offset from PERIPHBASE (external child: [27:14] node pointer, [13:0] register offset)"},
            {"res0_28", 28, 3, fa::res0, ""},
            {"external", cmn_field::child_external, fa::ro, "1: the child is outside the CMN-600 (RN-SAM of an RN-F port, CXLA); Linux skips it"},
            {"res0_hi", 32, 32, fa::res0, ""}};
}

const std::string arm_cmn_c = "Linux drivers/perf/arm-cmn.c";

void cite_identity(register_table& t) {
    cite(t, "node_info$", arm_cmn_c + " (CMN_NODE_INFO 0x0, CMN_NI_NODE_TYPE, CMN_NI_NODE_ID, CMN_NI_LOGICAL_ID)");
    cite(t, "child_info$", arm_cmn_c + " (CMN_CHILD_INFO 0x80, CMN_CI_CHILD_COUNT, CMN_CI_CHILD_PTR_OFFSET)");
    for (const auto& r : t.registers)
        if (r.name.rfind("child_pointer_", 0) == 0) {
            cite(t, "child_pointer_", arm_cmn_c + " (child pointers at CMN_CI_CHILD_PTR_OFFSET + 8n; CMN_CHILD_NODE_ADDR, CMN_CHILD_NODE_EXTERNAL)");
            break;
        }
}

void add_identity(register_table& t, unsigned child_pointers) {
    t.registers.push_back(ro64("node_info", 0x000, node_info_fields(), "Node information (all nodes)"));
    t.registers.push_back(ro64("child_info", 0x080, child_info_fields(), "Child information"));
    for (unsigned i = 0; i < child_pointers; ++i)
        t.registers.push_back(ro64(fmt::format("child_pointer_{}", i), cmn_field::child_pointers_at + 8 * i, child_pointer_fields(),
                                   fmt::format("Child pointer {}", i)));
}

register_table make_cfg() {
    register_table t;
    t.unit = "cmn600_cfg";
    t.title = "CMN-600 root configuration node (CFG)";
    t.summary = "The root node of the CMN-600 configuration space, at PERIPHBASE + ROOTNODEBASE (slot 0 of the HN-D's "
                "port). Its child pointers list every XP (row-major). Registers not listed read as zero and ignore "
                "writes. See docs/cmn.md.";
    add_identity(t, 64);
    t.registers.push_back(ro64("periph_id_01", 0x008,
                               {{"part_0", cmn_field::periph_part_0, fa::ro, "part number [7:0]: 0x34"},
                                {"res0_lo", 8, 24, fa::res0, ""},
                                {"part_1", cmn_field::periph_part_1, fa::ro, "part number [11:8]: 0x4 (CMN-600 is part 0x434)"},
                                {"jep106_id_3_0", cmn_field::periph_jep106_id_3_0, fa::ro, "JEP106 identity [3:0] (Arm: 0xB)"},
                                {"res0_hi", 40, 24, fa::res0, ""}},
                               "Peripheral ID 0 and 1"));
    t.registers.push_back(ro64("periph_id_23", 0x010,
                               {{"jep106_id_6_4", cmn_field::periph_jep106_id_6_4, fa::ro, "JEP106 identity [6:4] (Arm: 0x3)"},
                                {"jedec", cmn_field::periph_jedec, fa::ro, "1: JEDEC-assigned identity"},
                                {"revision", cmn_field::periph_revision, fa::ro, "0 r1p0, 1 r1p1, 2 r1p2, 3 r1p3, 4 r2p0, 5 r3p0, 6 r3p1 (platform parameter revision)"},
                                {"res0", 8, 56, fa::res0, ""}},
                               "Peripheral ID 2 and 3"));
    t.registers.push_back(ro64("component_id_01", 0x028, {}, "Component ID 0 and 1 (CoreSight: 0x0D, 0xF0)"));
    t.registers.push_back(ro64("component_id_23", 0x030, {}, "Component ID 2 and 3 (CoreSight: 0x05, 0xB1)"));
    t.registers.push_back(ro64("por_info_global", 0x900,
                               // CMN-600 fields: cmn-tools data/regdefs/cmn600.regdefs por_info_global,
                               // FreeBSD cmn600_reg.h. The values are the modelled configuration's.
                               {{"chi_req_rsvdc_width", 0, 8, fa::ro, "0"},
                                {"chi_req_addr_width", cmn_field::info_chi_req_addr_width, fa::ro, "REQ address width: 48"},
                                {"physical_address_width", cmn_field::info_physical_address_width, fa::ro, "48"},
                                {"datacheck_en", 24, 1, fa::ro, "0: no DataCheck"},
                                {"flit_parity_en", 25, 1, fa::ro, "0: no flit parity"},
                                {"res0_26", 26, 2, fa::res0, ""},
                                {"num_remote_rnf", 28, 8, fa::ro, "0: remote (CCIX) RN-Fs are not modelled"},
                                {"rnsam_num_add_hashed_tgt", 36, 6, fa::ro, "0: no additional hashed targets"},
                                {"res0_42", 42, 6, fa::res0, ""},
                                {"r2_enable", 48, 1, fa::ro, "0: r2 features off"},
                                {"chic_mode_en", 49, 1, fa::ro, "0: CHI-B mode"},
                                {"res0", 50, 14, fa::res0, "later parts' fields (multiple_dtm_en, VC counts) read 0 on CMN-600"}},
                               "Global configuration information"));
    t.registers.push_back({"secure_access", std::nullopt, 0x980, 64, 0, {}, "Secure access control (storage only)"});
    // Identification registers without fields are read-only too.
    for (auto& r : t.registers)
        if (r.fields.empty() && r.name != "secure_access") r.fields = {{"value", 0, 64, fa::ro, ""}};
    cite_identity(t);
    cite(t, "periph_id_", "CMN-600 TRM 100180 por_cfgm_periph_id_0_periph_id_1 / _2_3; Linux drivers/perf/arm-cmn.c CMN_CFGM_PERIPH_ID_23");
    cite(t, "component_id_", "CMN-600 TRM 100180 por_cfgm_component_id_0_1 / _2_3 (CoreSight preamble)");
    cite(t, "por_info_global$", "CMN-600 TRM 100180 por_info_global; Linux drivers/perf/arm-cmn.c@v6.1 CMN_INFO_*");
    cite(t, "secure_access$", "CMN-600 TRM 100180 por_cfgm_secure_access (storage only)");
    return t;
}

register_table make_xp() {
    register_table t;
    t.unit = "cmn600_xp";
    t.title = "CMN-600 crosspoint (XP) and its DTM";
    t.summary = "An XP's region (16 KB at X << (20+bits) | Y << 20 | 0x8000): identity, device port connect info, "
                "child pointers to the device nodes on its ports, the XP's own PMU event selector and its Debug/Trace "
                "Monitor (DTM): four 16-bit local counters whose overflows, when paired, increment a DTC global "
                "counter; four watchpoints (WP0/WP1 upload, WP2/WP3 download). See docs/cmn.md.";
    add_identity(t, 16);
    for (unsigned p = 0; p < 2; ++p)
        t.registers.push_back(ro64(fmt::format("device_port_connect_info_p{}", p), 0x008 + 8 * p,
                                   {{"device_type", 0, 5, fa::ro, "0 none, 0x01 RN-I, 0x02 RN-D, 0x04 RN-F_B, 0x09 HN-I, 0x0A HN-D, 0x0C SN-F, 0x0D SBSX, 0x0E HN-F, 0x12 CXRA"},
                                    {"res0", 5, 59, fa::res0, ""}},
                                   fmt::format("Device port {} connect information", p)));
    t.registers.push_back({"pmu_event_sel", std::nullopt, 0x2000, 64, 0,
                           {{"event0_id", cmn_field::xp_event_id(0), fa::rw, "XP event for DTM input_sel 4: [1:0] 1 txflit_valid, 2 txflit_stall, 3 partial_dat_flit; [4:2] interface 0 E, 1 W, 2 N, 3 S, 4 P0, 5 P1; [7:5] channel 0 REQ, 1 RSP, 2 SNP, 3 DAT"},
                            {"event1_id", cmn_field::xp_event_id(1), fa::rw, "XP event for input_sel 5"},
                            {"event2_id", cmn_field::xp_event_id(2), fa::rw, "XP event for input_sel 6"},
                            {"event3_id", cmn_field::xp_event_id(3), fa::rw, "XP event for input_sel 7"},
                            {"res0", 32, 32, fa::res0, ""}},
                           "XP PMU event selection (por_mxp_pmu_event_sel)"});
    t.registers.push_back({"por_dtm_control", std::nullopt, 0x2100, 64, 0,
                           {{"dtm_enable", 0, 1, fa::rw, "watchpoint/trace enable; PMU counting does not need it (Linux never sets it)"},
                            {"trace_tag_enable", 1, 1, fa::rw, "storage only"},
                            {"sample_profile_enable", 2, 1, fa::rw, "storage only"},
                            {"trace_no_atb", 3, 1, fa::rw, "storage only"},
                            {"res0", 4, 60, fa::res0, ""}},
                           "DTM control"});
    for (unsigned n = 0; n < 4; ++n) {
        const uint64_t base = 0x21A0 + 0x18 * n;
        t.registers.push_back({fmt::format("por_dtm_wp{}_config", n), std::nullopt, base, 64, 0,
                               {{"wp_dev_sel", cmn_field::wp_dev_sel, fa::rw, "device port watched (P0/P1)"},
                                {"wp_chn_sel", cmn_field::wp_chn_sel, fa::rw, "channel: 0 REQ, 1 RSP, 2 SNP, 3 DAT"},
                                {"wp_grp", cmn_field::wp_grp, fa::rw, "match group: 0 primary, 1 secondary"},
                                {"wp_exclusive", cmn_field::wp_exclusive, fa::rw, "exclusive match"},
                                // wp_combine exists in WP0 and WP2 only (cmn-tools cmn600.regdefs: wp1/wp3
                                // mask 0x7f3f; arm-cmn.c "wp_combine is available only on WP0 and WP2").
                                n % 2 == 0 ? field_def{"wp_combine", cmn_field::wp_combine, fa::rw, "combine with WP n+1"}
                                           : field_def{"res0_6", cmn_field::wp_combine, fa::res0, "wp_combine is in WP0 and WP2 only"},
                                {"res0_7", 7, 1, fa::res0, ""},
                                {"wp_pkt_gen", 8, 1, fa::rw, "trace packet on match (storage only)"},
                                {"wp_pkt_type", 9, 3, fa::rw, "trace packet type (storage only)"},
                                {"wp_cc_en", 12, 1, fa::rw, "cycle count in trace packets (storage only)"},
                                {"wp_ctrig_en", 13, 1, fa::rw, "cross trigger on match (storage only)"},
                                {"wp_dbgtrig_en", 14, 1, fa::rw, "debug trigger on match (storage only)"},
                                {"res0", 15, 49, fa::res0, ""}},
                               fmt::format("Watchpoint {} configuration ({})", n, n < 2 ? "upload" : "download")});
        t.registers.push_back({fmt::format("por_dtm_wp{}_val", n), std::nullopt, base + 8, 64, 0, {},
                               fmt::format("Watchpoint {} match value", n)});
        t.registers.push_back({fmt::format("por_dtm_wp{}_mask", n), std::nullopt, base + 16, 64, 0, {},
                               fmt::format("Watchpoint {} mask: 1 = ignore that bit", n)});
    }
    std::vector<field_def> cfg = {
        {"pmu_en", cmn_field::dtm_pmu_en, fa::rw, "DTM PMU enable: the local counters count while set (and the DTC PMU is enabled)"},
        {"pmevcnt01_combined", cmn_field::dtm_pmevcnt01_combined, fa::rw, "counters 0 (low half) and 1 (high half) form one 32-bit counter fed by input_sel 0; its wrap carries through counter 1's pairing"},
        {"pmevcnt23_combined", cmn_field::dtm_pmevcnt23_combined, fa::rw, "counters 2 and 3 form one 32-bit counter fed by input_sel 2; its wrap carries through counter 3's pairing"},
        {"pmevcntall_combined", 3, 1, fa::rw, "all four form one counter (not modelled: storage only)"},
        {"pmevcnt_paired", cmn_field::dtm_pmevcnt_paired, fa::rw, "bit n: counter n's overflow increments DTC global counter global_num[n]"},
        {"cntr_rst", cmn_field::dtm_cntr_rst, fa::rw, "a snapshot also clears the local counters"},
        {"res0_9", 9, 7, fa::res0, ""}};
    for (unsigned n = 0; n < 4; ++n) {
        cfg.push_back({fmt::format("pmevcnt{}_global_num", n), cmn_field::dtm_global_num(n), fa::rw,
                       fmt::format("DTC global counter (0..7) paired with local counter {}", n)});
        cfg.push_back({fmt::format("res0_{}", 19 + 4 * n), 19 + 4 * n, 1, fa::res0, ""});
    }
    // input_sel is 6 bits per counter (Linux arm-cmn.c CMN__PMEVCNT0_INPUT_SEL GENMASK_ULL(37, 32);
    // cmn-tools data/regdefs/cmn600.regdefs por_dtm_pmu_config F 32 6 ... F 56 6).
    for (unsigned n = 0; n < 4; ++n) {
        cfg.push_back({fmt::format("pmevcnt{}_input_sel", n), cmn_field::dtm_input_sel(n), fa::rw,
                       n == 0 ? "counter input: 0x00-0x03 watchpoint 0-3, 0x04-0x07 XP pmu_event_sel event 0-3, "
                                "0x10 + (port << 4) + (device << 2) + k: event k of the device node(s) at (port, device)"
                              : fmt::format("counter {} input (as pmevcnt0_input_sel)", n)});
        cfg.push_back({fmt::format("res0_{}", 38 + 8 * n), 38 + 8 * n, 2, fa::res0, ""});
    }
    t.registers.push_back({"por_dtm_pmu_config", std::nullopt, 0x2210, 64, 0, cfg, "DTM PMU configuration"});
    t.registers.push_back({"por_dtm_pmevcnt", std::nullopt, 0x2220, 64, 0,
                           {{"pmevcnt0", cmn_field::dtm_pmevcnt(0), fa::rw, "local counter 0"},
                            {"pmevcnt1", cmn_field::dtm_pmevcnt(1), fa::rw, "local counter 1"},
                            {"pmevcnt2", cmn_field::dtm_pmevcnt(2), fa::rw, "local counter 2"},
                            {"pmevcnt3", cmn_field::dtm_pmevcnt(3), fa::rw, "local counter 3"}},
                           "DTM local event counters"});
    t.registers.push_back({"por_dtm_pmevcntsr", std::nullopt, 0x2240, 64, 0,
                           {{"pmevcntsr0", 0, 16, fa::rw, "counter 0 at the last snapshot"},
                            {"pmevcntsr1", 16, 16, fa::rw, "counter 1 at the last snapshot"},
                            {"pmevcntsr2", 32, 16, fa::rw, "counter 2 at the last snapshot"},
                            {"pmevcntsr3", 48, 16, fa::rw, "counter 3 at the last snapshot"}},
                           "DTM local event counter shadow (snapshot) register"});
    cite_identity(t);
    cite(t, "device_port_connect_info_p", arm_cmn_c + " (CMN_MXP__CONNECT_INFO(p), CMN__CONNECT_INFO_DEVICE_TYPE)");
    cite(t, "pmu_event_sel$", arm_cmn_c + " (CMN_PMU_EVENT_SEL 0x000 in the PMU page +0x2000, CMN__PMU_EVENTn_ID_SHIFT)");
    cite(t, "por_dtm_control$", arm_cmn_c + " (CMN_DTM_CONTROL, CMN_DTM_CONTROL_DTM_ENABLE); other bits: FreeBSD cmn600_reg.h");
    cite(t, "por_dtm_wp", arm_cmn_c + " (CMN_DTM_WPn(n) = 0x1A0 + 0x18n, CMN_DTM_WPn_CONFIG/VAL/MASK, CMN_DTM_WPn_CONFIG_WP_*)");
    cite(t, "por_dtm_pmu_config$", arm_cmn_c + " (CMN_DTM_PMU_CONFIG and its PMEVCNT* fields)");
    cite(t, "por_dtm_pmevcnt$", arm_cmn_c + " (CMN_DTM_PMEVCNT)");
    cite(t, "por_dtm_pmevcntsr$", arm_cmn_c + " (CMN_DTM_PMEVCNTSR)");
    return t;
}

register_table make_dtc() {
    register_table t;
    t.unit = "cmn600_dtc";
    t.title = "CMN-600 Debug/Trace Controller (DTC)";
    t.summary = "DTC0, in the HN-D: eight 32-bit global counters fed by the overflows of paired DTM local counters, the "
                "40-bit cycle counter of the mesh clock, overflow status (clearing is ignored while pmcr.pmu_en is 0), "
                "snapshot and the overflow interrupt. Global counter n is at 0x2000 + ((n/2)*4 + n%2)*4: the "
                "registers below hold two counters each and take 32-bit accesses to either half. See docs/cmn.md.";
    add_identity(t, 0);
    t.registers.push_back({"por_dt_dtc_ctl", std::nullopt, 0xA00, 64, 0,
                           {{"dt_en", cmn_field::dtc_dt_en, fa::rw, "debug/trace enable: the PMU counts only while set"},
                            {"dbgtrigger_en", 1, 1, fa::rw, "storage only"},
                            {"atbtrigger_en", 2, 1, fa::rw, "storage only"},
                            {"dt_wait_for_trigger", 3, 1, fa::rw, "storage only"},
                            {"cross_trigger_count", 4, 6, fa::rw, "storage only (cmn-tools cmn600.regdefs; sdfirm cmn600.h)"},
                            {"cg_disable", 10, 1, fa::rw, "disable DT clock gating (the model never gates the cycle counter)"},
                            {"res0", 11, 53, fa::res0, ""}},
                           "DTC control"});
    t.registers.push_back({"por_dt_trace_control", std::nullopt, 0xA30, 64, 0, {}, "Trace control (storage only; the cycle counter does not need cc_enable)"});
    const char* pairs[] = {"ab", "cd", "ef", "gh"};
    for (unsigned i = 0; i < 4; ++i)
        t.registers.push_back({fmt::format("por_dt_pmevcnt{}", pairs[i]), std::nullopt, 0x2000 + 0x10 * i, 64, 0,
                               {{fmt::format("pmevcnt{}", 2 * i), cmn_field::dtc_pmevcnt_even, fa::rw, fmt::format("global counter {}", 2 * i)},
                                {fmt::format("pmevcnt{}", 2 * i + 1), cmn_field::dtc_pmevcnt_odd, fa::rw, fmt::format("global counter {}", 2 * i + 1)}},
                               fmt::format("Global counters {} and {}", 2 * i, 2 * i + 1)});
    t.registers.push_back({"por_dt_pmccntr", std::nullopt, 0x2040, 64, 0,
                           {{"pmccntr", 0, 40, fa::rw, "cycle counter (mesh clock)"}, {"res0", 40, 24, fa::res0, ""}},
                           "Cycle counter"});
    for (unsigned i = 0; i < 4; ++i)
        t.registers.push_back({fmt::format("por_dt_pmevcntsr{}", pairs[i]), std::nullopt, 0x2050 + 0x10 * i, 64, 0,
                               // RW (cmn-tools regdefs, SCP-firmware cmn600_dt_reg PMEVCNTSR: FWK_RW)
                               {{fmt::format("pmevcntsr{}", 2 * i), cmn_field::dtc_pmevcnt_even, fa::rw, "at the last snapshot"},
                                {fmt::format("pmevcntsr{}", 2 * i + 1), cmn_field::dtc_pmevcnt_odd, fa::rw, "at the last snapshot"}},
                               fmt::format("Global counters {} and {} shadow", 2 * i, 2 * i + 1)});
    t.registers.push_back({"por_dt_pmccntrsr", std::nullopt, 0x2090, 64, 0,
                           {{"pmccntrsr", 0, 40, fa::rw, "at the last snapshot"}, {"res0", 40, 24, fa::res0, ""}},
                           "Cycle counter shadow"});
    t.registers.push_back({"por_dt_pmcr", std::nullopt, 0x2100, 64, 0,
                           {{"pmu_en", cmn_field::pmcr_pmu_en, fa::rw, "PMU enable: DTM and DTC counters count while set (with dtc_ctl.dt_en)"},
                            {"cntcfg", 1, 4, fa::rw, "global counter grouping: 0 = eight 32-bit counters (others not modelled)"},
                            {"cntr_rst", cmn_field::pmcr_cntr_rst, fa::rw, "a snapshot also clears the global and cycle counters"},
                            {"ovfl_intr_en", cmn_field::pmcr_ovfl_intr_en, fa::rw, "overflow interrupt enable"},
                            {"res0", 7, 57, fa::res0, ""}},
                           "PMU control"});
    t.registers.push_back({"por_dt_pmovsr", std::nullopt, 0x2118, 64, 0,
                           {{"event_counters", 0, 8, fa::ro, "global counter n wrapped"},
                            {"cycle_counter", cmn_field::pmovsr_cycle_counter, fa::ro, "the cycle counter wrapped"},
                            {"res0", 9, 55, fa::res0, ""}},
                           "Overflow status"});
    t.registers.push_back({"por_dt_pmovsr_clr", std::nullopt, 0x2120, 64, 0,
                           {{"clr", 0, 9, fa::wo, "write 1 to clear the status bit; ignored while pmcr.pmu_en is 0"},
                            {"res0", 9, 55, fa::res0, ""}},
                           "Overflow status clear"});
    t.registers.push_back({"por_dt_pmssr", std::nullopt, 0x2128, 64, 0,
                           {{"ss_status", 0, 9, fa::ro, "counters captured by the last snapshot (8: cycle counter)"},
                            {"res0_9", 9, 6, fa::res0, ""},
                            {"ss_cfg_active", 15, 1, fa::ro, "snapshot in progress (always 0: snapshots complete at once)"},
                            {"ss_pin_active", 16, 1, fa::ro, "PMUSNAPSHOTREQ (0)"},
                            {"res0", 17, 47, fa::res0, ""}},
                           "Snapshot status"});
    t.registers.push_back({"por_dt_pmsrr", std::nullopt, 0x2130, 64, 0,
                           {{"ss_req", cmn_field::pmsrr_ss_req, fa::wo, "write 1: snapshot every counter into its shadow register"},
                            {"res0", 1, 63, fa::res0, ""}},
                           "Snapshot request"});
    cite_identity(t);
    cite(t, "por_dt_dtc_ctl$", arm_cmn_c + " (CMN_DT_DTC_CTL 0xA00, CMN_DT_DTC_CTL_DT_EN); other bits: CMN-600 TRM 100180 por_dt_dtc_ctl");
    cite(t, "por_dt_trace_control$", arm_cmn_c + " (CMN_DT_TRACE_CONTROL 0xA30)");
    cite(t, "por_dt_pmevcnt", arm_cmn_c + " (CMN_DT_PMEVCNT(n) = 0x2000 + 0x10 (n / 2) + 4 (n % 2))");
    cite(t, "por_dt_pmccntr$", arm_cmn_c + " (CMN_DT_PMCCNTR 0x2040, 40 bits: CMN_DT_PMCCNTR width)");
    cite(t, "por_dt_pmevcntsr", arm_cmn_c + " (CMN_DT_PMEVCNTSR(n) = CMN_DT_PMEVCNT(n) + 0x50)");
    cite(t, "por_dt_pmccntrsr$", arm_cmn_c + " (CMN_DT_PMCCNTRSR 0x2090)");
    cite(t, "por_dt_pmcr$", arm_cmn_c + " (CMN_DT_PMCR 0x2100, CMN_DT_PMCR_PMU_EN, _CNTR_RST, _OVFL_INTR_EN)");
    cite(t, "por_dt_pmovsr$", arm_cmn_c + " (CMN_DT_PMOVSR 0x2118)");
    cite(t, "por_dt_pmovsr_clr$", arm_cmn_c + " (CMN_DT_PMOVSR_CLR 0x2120)");
    cite(t, "por_dt_pmssr$", arm_cmn_c + " (CMN_DT_PMSSR 0x2128, CMN_DT_PMSSR_SS_STATUS)");
    cite(t, "por_dt_pmsrr$", arm_cmn_c + " (CMN_DT_PMSRR 0x2130, CMN_DT_PMSRR_SS_REQ)");
    return t;
}

// The device nodes' pmu_event_sel differs per node type in the widths of its event IDs and
// its occupancy filter (Arm cmn-tools data/regdefs/cmn600.regdefs, por_*_pmu_event_sel: HN-F
// 0x71f1f1f1f, RN-I/RN-D 0x1f1f1f1f, DN/CXRA/CXHA 0xf3f3f3f3f, HN-I/SBSX 0x3f3f3f3f; HN-F's
// occup1_id [34:32] also in zetalog/sdfirm include/driver/cmn600.h). Bits beyond them are RES0.
struct node_layout {
    const char* unit;
    const char* nodes;
    unsigned event_bits;
    unsigned occup_bits; // 0: no occupancy filter
    const char* occup_description;
};

register_table make_node(const node_layout& l) {
    register_table t;
    t.unit = l.unit;
    t.title = fmt::format("CMN-600 device node ({})", l.nodes);
    t.summary = fmt::format("A device node's region: identity and its PMU event selector, whose four event outputs "
                            "the DTM of the node's XP selects with input_sel 0x10 + (port << 4) + (device << 2) + k. "
                            "On {} the event IDs are {} bits{}. See docs/cmn.md for the events.",
                            l.nodes, l.event_bits,
                            l.occup_bits ? fmt::format(" and occup1_id {} bits", l.occup_bits) : std::string());
    add_identity(t, 0);
    std::vector<field_def> sel;
    for (unsigned k = 0; k < 4; ++k) {
        const reg_field event_id{cmn_field::xp_event_id(k).lsb, l.event_bits}; // this node type's width
        sel.push_back({fmt::format("event{}_id", k), event_id, fa::rw,
                       k == 0 ? "event on output 0 (0: none)" : fmt::format("event on output {}", k)});
        sel.push_back({fmt::format("res0_{}", event_id.lsb + event_id.width), event_id.lsb + event_id.width,
                       cmn_field::xp_event_id(k).width - event_id.width, fa::res0, ""});
    }
    const reg_field occup1_id{cmn_field::node_occup1_id.lsb, l.occup_bits}; // this node type's width
    if (l.occup_bits) sel.push_back({"occup1_id", occup1_id, fa::rw, l.occup_description});
    sel.push_back({"res0", occup1_id.lsb + occup1_id.width, 64 - occup1_id.lsb - occup1_id.width, fa::res0, ""});
    t.registers.push_back({"pmu_event_sel", std::nullopt, 0x2000, 64, 0, sel, "PMU event selection"});
    cite_identity(t);
    cite(t, "pmu_event_sel$", "Arm cmn-tools data/regdefs/cmn600.regdefs por_*_pmu_event_sel (field widths per node type); " +
                                 arm_cmn_c + " (CMN_PMU_EVENT_SEL, CMN__PMU_OCCUP1_ID)");
    return t;
}

const node_layout hnf_layout{"cmn600_hnf", "HN-F", 5, 3,
                             "occupancy filter: 0 all, 1 read, 2 write, 3 atomic, 4 stash"};
const node_layout rn_layout{"cmn600_rn", "RN-I, RN-D", 5, 0, ""};
const node_layout dn_layout{"cmn600_dn", "DN, CXRA, CXHA", 6, cmn_field::node_occup1_id.width,
                            "occupancy filter: DN 0 all, 1 DVMOp, 2 DVMSync (Linux uses 2 of the 4 bits)"};
const node_layout hni_layout{"cmn600_hni", "HN-I, SBSX", 6, 0, ""};

} // namespace

const register_table& cmn600_cfg_table() {
    static const register_table t = make_cfg();
    return t;
}
const register_table& cmn600_xp_table() {
    static const register_table t = make_xp();
    return t;
}
const register_table& cmn600_dtc_table() {
    static const register_table t = make_dtc();
    return t;
}
const register_table& cmn600_node_table(cmn_node_type type) {
    static const register_table hnf = make_node(hnf_layout), rn = make_node(rn_layout), dn = make_node(dn_layout),
                                hni = make_node(hni_layout);
    switch (type) {
    case cmn_node_type::hnf: return hnf;
    case cmn_node_type::rni:
    case cmn_node_type::rnd: return rn;
    case cmn_node_type::dvm:
    case cmn_node_type::cxra:
    case cmn_node_type::cxha: return dn;
    case cmn_node_type::hni:
    case cmn_node_type::sbsx: return hni;
    default: break;
    }
    throw model_error(fmt::format("CMN-600: no register table for a {} device node", to_string(type)));
}

} // namespace pmusim
