// Registers this folder's unit type with the platform builder: the `amu` descriptor, with the
// `cpus[N].features` keys that give each CPU its AMU.
#include <fmt/format.h>

#include "amu/amu.h"
#include "models/unit_descriptor.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {

// Each CPU's AMU from its features (the keys declared below); version 0 on POWER CPUs.
std::vector<amu_cpu_config> amu_cpus(const platform_view& p) {
    std::vector<amu_cpu_config> out;
    for (const auto& c : p.cpus) {
        amu_cpu_config a;
        a.version = p.power_arch ? 0 : unsigned(c.features.choice_index("amu"));
        a.aux_counters = unsigned(c.features.integer("amu_aux_counters"));
        a.external_view = c.features.boolean("amu_external_view");
        a.fgt = c.features.boolean("fgt");
        out.push_back(a);
    }
    return out;
}

bool any_amu(const std::vector<amu_cpu_config>& cpus) {
    for (const auto& c : cpus)
        if (c.version > 0) return true;
    return false;
}

// The `units:` entry of type amu: the address map of the external view (docs/amu.md).
std::unique_ptr<unit> make_amu_with_external_view(soc& system, const unit_entry& u, const platform_view& p) {
    if (u.name != "amu")
        throw u.key_error("name", fmt::format("expected 'amu' (the one AMU unit serves every CPU; sequences name it "
                                              "amu.cpuN), found '{}'",
                                              u.name));
    for (const char* key : {"clock", "cpus", "irq"})
        if (u.key_written(key))
            throw u.key_error(key, fmt::format("an amu unit takes no '{}': its clocks are the CPUs', and its CPUs are "
                                               "those with features.amu_external_view: true",
                                               key));
    if (!u.has_mmio)
        throw u.error("an amu unit describes the AMU's external view: it needs base and size (the frames of "
                      "cpuN at base + N * frame_stride)");
    const std::vector<amu_cpu_config> cpus = amu_cpus(p);
    if (!any_amu(cpus)) throw u.error("an amu unit needs CPUs with features.amu: v1 or v1p1");
    amu_external_options o;
    o.enabled = true;
    o.base = u.base;
    o.size = u.size;
    o.frame_stride = u.params.integer("frame_stride");
    o.format = u.params.choice("format") == "ext32" ? amu_ext_format::ext32 : amu_ext_format::ext64;
    o.amiidr = u.params.integer("amiidr");
    if (o.base % amu_frame_size)
        throw u.key_error("base", fmt::format("expected a 4 KB aligned address (ARMARM I4.1), found {:#x}", o.base));
    if (o.frame_stride % amu_frame_size)
        throw u.param_error("frame_stride",
                            fmt::format("expected a multiple of 0x1000 (each frame is 4 KB aligned), found {:#x}",
                                        o.frame_stride));
    if ((o.amiidr >> amu_field::iidr_implementer_res0) & 1) throw u.param_error("amiidr", "bit 7 (AMIIDR.Implementer[7]) is RES0");
    unsigned frames = 0;
    for (const auto& c : p.cpus) {
        if (!cpus[c.index].external_view) continue;
        ++frames;
        const uint64_t end = uint64_t(c.index) * o.frame_stride + amu_frame_size; // relative to base
        if (end > u.size)
            throw u.key_error("size", fmt::format("the frame of {} ends at base + {:#x}, past the window's size {:#x}",
                                                  c.name, end, u.size));
    }
    if (!frames) throw u.error("no CPU has features.amu_external_view: true, so the amu unit has no frame to map");
    return std::make_unique<amu_unit>("amu", system, cpus, o);
}

// Without a `units:` entry of type amu: one `amu` unit serves every CPU whose features.amu is v1
// or v1p1; none when no CPU has it.
std::unique_ptr<unit> make_amu_from_features(soc& system, const platform_view& p) {
    for (const auto& c : p.cpus)
        if (c.features.boolean("amu_external_view"))
            throw p.error_at(c.line, fmt::format("cpus[{}].features.amu_external_view: the external view needs "
                                                 "its frame addresses: add a `units:` entry {{name: amu, type: "
                                                 "amu, base, size}} (docs/amu.md)",
                                                 c.index));
    std::vector<amu_cpu_config> cpus = amu_cpus(p);
    if (!any_amu(cpus)) return nullptr;
    return std::make_unique<amu_unit>("amu", system, std::move(cpus));
}

} // namespace

PMUSIM_REGISTER_UNITS(register_amu_units, 10) {
    using pt = param_type;
    const std::string needs_amu = " (amu is none; set amu: v1 or v1p1)";
    register_unit({
        "amu",
        "Activity Monitors external view: the AMU frame of each CPU with features.amu_external_view at "
        "base + N * frame_stride (the AMU itself comes with the CPUs' features.amu)",
        {
            {"frame_stride", pt::integer, "0x10000", "distance between the frames of cpuN and cpuN+1 (4 KB multiple)",
             {}, 0x1000, UINT64_MAX},
            {"format", pt::choice, "ext64",
             "external register layout: ext32 (FEAT_AMU_EXT32) or ext64 (FEAT_AMU_EXT64)", {"ext32", "ext64"}},
            {"amiidr", pt::integer, "0x43B", "AMIIDR (IMP DEF; AMPIDRn follow from it): 0x43B = Arm, part 0", {}, 0,
             0xFFFFFFFF},
        },
        {
            {{"amu", pt::choice, "none", "Activity Monitors extension version", {"none", "v1", "v1p1"}},
             true, "none for arch power (the AMU is an Arm feature)", "", "", "AMU", true},
            {{"amu_aux_counters", pt::integer, "0", "auxiliary AMU counters (group 1)", {}, 0, 16},
             true, "", "amu", "auxiliary AMU counters need an AMU" + needs_amu, ""},
            {{"amu_external_view", pt::boolean, "false", "memory-mapped (external) view of the AMU"},
             true, "", "amu", "the external AMU view needs an AMU" + needs_amu, ""},
            // FEAT_FGT is a CPU feature; the AMU is what it changes here (HAFGRTR_EL2 read traps).
            {{"fgt", pt::boolean, "false", "FEAT_FGT fine-grained traps (with an AMU: HAFGRTR_EL2)"},
             true, "false for arch power (FEAT_FGT is an Arm feature)", "", "", ""},
        },
        {&amu_table(), &amu_external_table(amu_ext_format::ext32), &amu_external_table(amu_ext_format::ext64)},
        make_amu_with_external_view,
        make_amu_from_features,
    });
}

} // namespace pmusim
