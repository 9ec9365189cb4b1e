// Registers this folder's unit types with the platform builder.
#include <fmt/format.h>

#include "amu/amu.h"
#include "tb/platform_config.h"
#include "tb/unit_factory.h"

namespace pmusim {

namespace {

bool any_amu(const soc& system) {
    for (const auto& d : system.cpus)
        if (d.amu_version > 0 && !d.power_arch) return true;
    return false;
}

// The `units:` entry of type amu: the address map of the external view (docs/amu.md).
std::unique_ptr<unit> make_amu_with_external_view(soc& system, const unit_config& u, const platform_config& p) {
    if (u.name != "amu")
        throw u.key_error("name", fmt::format("expected 'amu' (the one AMU unit serves every CPU; sequences name it "
                                              "amu.cpuN), found '{}'",
                                              u.name));
    for (const char* key : {"clock", "cpus", "irq"})
        if (u.key_lines.count(key))
            throw u.key_error(key, fmt::format("an amu unit takes no '{}': its clocks are the CPUs', and its CPUs are "
                                               "those with features.amu_external_view: true",
                                               key));
    if (!u.has_mmio)
        throw u.error("an amu unit describes the AMU's external view: it needs base and size (the frames of "
                      "cpuN at base + N * frame_stride)");
    if (!any_amu(system)) throw u.error("an amu unit needs CPUs with features.amu: v1 or v1p1");
    amu_external_options o;
    o.enabled = true;
    o.base = u.base;
    o.size = u.size;
    o.frame_stride = u.param_int("frame_stride");
    o.format = u.param_choice("format") == "ext32" ? amu_ext_format::ext32 : amu_ext_format::ext64;
    o.amiidr = u.param_int("amiidr");
    if (o.base % amu_frame_size)
        throw u.key_error("base", fmt::format("expected a 4 KB aligned address (ARMARM I4.1), found {:#x}", o.base));
    if (o.frame_stride % amu_frame_size)
        throw u.param_error("frame_stride",
                            fmt::format("expected a multiple of 0x1000 (each frame is 4 KB aligned), found {:#x}",
                                        o.frame_stride));
    if (o.amiidr & 0x80) throw u.param_error("amiidr", "bit 7 (AMIIDR.Implementer[7]) is RES0");
    unsigned frames = 0;
    for (const auto& c : p.cpus) {
        if (!c.features.amu_external_view) continue;
        ++frames;
        const uint64_t end = uint64_t(c.index) * o.frame_stride + amu_frame_size; // relative to base
        if (end > u.size)
            throw u.key_error("size", fmt::format("the frame of {} ends at base + {:#x}, past the window's size {:#x}",
                                                  c.name, end, u.size));
    }
    if (!frames) throw u.error("no CPU has features.amu_external_view: true, so the amu unit has no frame to map");
    return std::make_unique<amu_unit>("amu", system, o);
}

} // namespace

void register_amu_units() {
    register_table_for_docs(amu_table());
    register_table_for_docs(amu_external_table(amu_ext_format::ext32));
    register_table_for_docs(amu_external_table(amu_ext_format::ext64));
    using pt = param_type;
    register_unit_type(
        "amu",
        {
            {"frame_stride", pt::integer, "0x10000", "distance between the frames of cpuN and cpuN+1 (4 KB multiple)",
             {}, 0x1000, UINT64_MAX},
            {"format", pt::choice, "ext64",
             "external register layout: ext32 (FEAT_AMU_EXT32) or ext64 (FEAT_AMU_EXT64)", {"ext32", "ext64"}},
            {"amiidr", pt::integer, "0x43B", "AMIIDR (IMP DEF; AMPIDRn follow from it): 0x43B = Arm, part 0", {}, 0,
             0xFFFFFFFF},
        },
        "Activity Monitors external view: the AMU frame of each CPU with features.amu_external_view at "
        "base + N * frame_stride (the AMU itself comes with the CPUs' features.amu)");
    register_unit_factory("amu", [](soc& s, const unit_config& u, const platform_config& p) {
        return make_amu_with_external_view(s, u, p);
    });
    // One `amu` unit serves every CPU whose features.amu is v1 or v1p1; none when no CPU has it.
    // With a `units:` entry of type amu, that entry builds it (with the external view).
    register_feature_factory("amu", [](soc& system, const platform_config& p) {
        std::vector<std::unique_ptr<unit>> out;
        if (!p.units_of_type("amu").empty()) return out;
        for (const auto& c : p.cpus)
            if (c.features.amu_external_view)
                throw p.error_at(c.line, fmt::format("cpus[{}].features.amu_external_view: the external view needs "
                                                     "its frame addresses: add a `units:` entry {{name: amu, type: "
                                                     "amu, base, size}} (docs/amu.md)",
                                                     c.index));
        if (any_amu(system)) out.push_back(std::make_unique<amu_unit>("amu", system));
        return out;
    });
}

} // namespace pmusim
