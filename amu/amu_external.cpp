// The AMU's memory-mapped external view (docs/amu.md "External view"): one
// read-only 4 KB frame per CPU with features.amu_external_view, whose registers
// read the same lazy counters and enables as the system registers at the same
// instant (DDI0487 M.a.a I4.1, I5.4, I5.5).
#include <cstring>
#include <fmt/format.h>

#include "amu/amu.h"

namespace pmusim {

void amu_unit::build_frame(cpu_amu& c, unsigned cluster, unsigned core_in_cluster) {
    const bool x64 = external_.format == amu_ext_format::ext64;
    c.frame = std::make_unique<register_bank>(fmt::format("cpu{}.amu frame", c.cpu), amu_external_table(external_.format));
    cpu_amu* cp = &c;
    register_bank& f = *c.frame;
    register_bank& sys = *c.bank;
    // The frame has no state of its own: every register reads the system-register view's state.
    auto mirror = [&](const std::string& frame_reg, const std::string& sys_reg) {
        const register_bank::reg* r = &sys[sys_reg];
        f[frame_reg].on_read([r] { return r->value; });
    };
    for (unsigned n = 0; n < 4; ++n) {
        f[fmt::format("AMEVCNTR0{}", n)].on_read([cp, n] { return cp->g0[n].read(now_fs()); });
        mirror(fmt::format("AMEVTYPER0{}", n), fmt::format("AMEVTYPER0{}_EL0", n));
    }
    for (unsigned n = 0; n < 16; ++n) {
        f[fmt::format("AMEVCNTR1{}", n)].on_read([cp, n] { return n < cp->aux ? cp->g1[n].read(now_fs()) : 0; });
        const register_bank::reg* type = &sys[fmt::format("AMEVTYPER1{}_EL0", n)];
        f[fmt::format("AMEVTYPER1{}", n)].on_read([cp, n, type] { return n < cp->aux ? uint64_t(type->value) : 0; });
    }
    if (x64) {
        for (const char* name : {"AMCNTENSET", "AMCNTEN", "AMCNTENCLR"})
            f[name].on_read([cp] { return amu_field::ext_cnten_p0.put(cp->en0) | amu_field::ext_cnten_p1.put(cp->en1); });
    } else {
        for (const char* name : {"AMCNTENSET0", "AMCNTENCLR0"}) f[name].on_read([cp] { return uint64_t(cp->en0); });
        for (const char* name : {"AMCNTENSET1", "AMCNTENCLR1"}) f[name].on_read([cp] { return uint64_t(cp->en1); });
    }
    mirror("AMCGCR", "AMCGCR_EL0");
    mirror("AMCFGR", "AMCFGR_EL0");
    mirror("AMCR", "AMCR_EL0");
    const uint64_t iidr = external_.amiidr;
    f["AMIIDR"].on_read([iidr] { return iidr; });
    const uint64_t mpidr = amu_external_devaff(cluster, core_in_cluster);
    f[x64 ? "AMDEVAFF" : "AMDEVAFF0"].on_read([mpidr] { return mpidr; });
    // AMPIDRn repeat AMIIDR's fields (I5.5.24).
    for (unsigned n = 0; n < 5; ++n) {
        const uint64_t v = amu_external_pidr(iidr, n);
        f[fmt::format("AMPIDR{}", n)].on_read([v] { return v; });
    }
}

std::vector<address_window> amu_unit::mmio_windows() const {
    // The whole window of the `units:` entry, so that an access between or past the frames
    // gets a message naming the CPU slot rather than a bare "no target".
    if (!external_.enabled) return {};
    return {{"amu", external_.base, external_.size}};
}

std::optional<mmio_register> amu_unit::find_mmio_register(const std::string& name) const {
    // `amu.cpuN.REG`: REG of cpuN's frame.
    auto dot = name.find('.');
    if (dot == std::string::npos || dot < 4 || name.rfind("cpu", 0) != 0 ||
        name.find_first_not_of("0123456789", 3) != dot)
        return std::nullopt;
    unsigned cpu = unsigned(std::stoul(name.substr(3, dot - 3)));
    if (!has_frame(cpu)) return std::nullopt;
    const register_def* def = amu_external_table(external_.format).find(name.substr(dot + 1));
    if (!def) return std::nullopt;
    return mmio_register{def, frame_base(cpu) + *def->offset};
}

void amu_unit::frame_access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    const uint64_t address = trans.get_address();
    const unsigned len = trans.get_data_length();
    cpu_amu* c = nullptr;
    for (auto& cp : cpus_)
        if (cp && cp->frame && address >= frame_base(cp->cpu) && address - frame_base(cp->cpu) < amu_frame_size)
            c = cp.get();
    auto fail = [&](tlm::tlm_response_status status, std::string why) {
        trans.set_response_status(status);
        ctx.outcome = access_outcome::error;
        ctx.detail = std::move(why);
    };
    if (!c) {
        const uint64_t slot = (address - external_.base) / external_.frame_stride;
        const uint64_t in_slot = (address - external_.base) % external_.frame_stride;
        return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE,
                    in_slot >= amu_frame_size || slot >= cpus_.size()
                        ? fmt::format("{:#x} is in the amu window but in no CPU's 4 KB AMU frame", address)
                        : fmt::format("{:#x} is where cpu{}'s AMU frame would be, but cpu{} has {}", address, slot,
                                      slot, has_amu(unsigned(slot)) ? "no features.amu_external_view" : "no AMU"));
    }
    const uint64_t offset = address - frame_base(c->cpu);
    register_bank& f = *c->frame;
    const std::string where = fmt::format("cpu{} AMU frame (FEAT_AMU_EXT{}) offset {:#05x}", c->cpu,
                                          external_.format == amu_ext_format::ext64 ? 64 : 32, offset);
    // ARMARM I4.1.1: word-aligned 32-bit accesses (to a 32-bit register or either half of a
    // 64-bit one) and doubleword-aligned 64-bit accesses; pmusim refuses everything else
    // with a slave error (PSLVERR) so that a firmware bug shows instead of reading garbage.
    if ((len != 4 && len != 8) || offset % len != 0 || trans.get_byte_enable_ptr())
        return fail(tlm::TLM_GENERIC_ERROR_RESPONSE,
                    fmt::format("{}: {}-byte access{}: the AMU frame takes naturally aligned 32-bit accesses, and "
                                "64-bit accesses to its 64-bit registers",
                                where, len, trans.get_byte_enable_ptr() ? " with byte enables" : ""));
    if (len == 8)
        for (uint64_t half : {offset, offset + 4})
            if (const register_bank::reg* r = f.find_offset(half); r && r->def->width == 32)
                return fail(tlm::TLM_GENERIC_ERROR_RESPONSE,
                            fmt::format("{}: 64-bit access to the 32-bit register {}", where, r->def->name));
    const register_bank::reg* r = f.find_offset(offset);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    if (trans.is_write()) {
        ctx.outcome = access_outcome::ignored; // I5.4.1: all implemented registers RO, the rest RAZ/WI
        ctx.detail = r ? fmt::format("{}: {} is read-only in the external view; write ignored", where, r->def->name)
                       : fmt::format("{}: no register here (RAZ/WI); write ignored", where);
        return;
    }
    uint64_t data = 0;
    if (system_.core(c->cpu).power() == power_state::off) {
        // I4.1.3: with the AMU in the core power domain, a powered-down PE's frame reads as
        // zero and the access completes without an error.
        ctx.detail = fmt::format("{}: cpu{} is off, the frame reads as zero", where, c->cpu);
    } else if (!f.read_mmio(offset, len, data)) {
        data = 0; // offsets not in the table are RAZ
    }
    std::memcpy(trans.get_data_ptr(), &data, len);
    ctx.outcome = access_outcome::ok;
}

} // namespace pmusim
