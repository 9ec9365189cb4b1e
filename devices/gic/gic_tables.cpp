// The GICv2 register tables: the Distributor frame and the CPU interface frame, for the docs
// (docs/registers/gicv2_distributor.md, gicv2_cpu_interface.md), the C header and sequences'
// INSTANCE.REG names. The model decodes accesses itself (gic.cpp): banked registers and byte
// accesses do not fit a plain register bank. A bank of registers (one bit, byte or two bits per
// INTID) is one row named ...n at its first word's offset.
#include "devices/gic/gic.h"

namespace pmusim {

namespace {

using fa = field_access;
using namespace gic_field;

const char* const spec = "Arm IHI 0048B (GICv2) 4.3";
const char* const cpu_spec = "Arm IHI 0048B (GICv2) 4.4";
const char* const linux_header = "Linux include/linux/irqchip/arm-gic.h@v6.1.192";

register_def mreg(const std::string& name, uint64_t offset, uint64_t reset, std::vector<field_def> fields,
                  const std::string& description) {
    return register_def(name, std::nullopt, offset, 32, reset, std::move(fields), description);
}

register_table make_distributor() {
    register_table t;
    t.unit = "gicv2_distributor";
    t.title = "GICv2 Distributor (GIC-400 layout, base + 0x1000)";
    t.summary = "The Distributor of the gicv2 model, without the Security Extensions: offsets in its 4 KB frame at "
                "the unit's base + 0x1000. Registers of SGIs and PPIs (INTIDs 0..31) are banked per CPU interface by "
                "the accessing CPU. A bank row covers INTIDs 0..(32 + spis - 1); words beyond read as zero.";
    auto bank = [](const std::string& what, unsigned bits) {
        return std::vector<field_def>{{"bits", 0, 32, fa::rw,
                                       bits == 1 ? "one bit per INTID (INTID = 32n + bit): " + what
                                                 : bits == 8 ? "one byte per INTID (INTID = 4n + byte): " + what
                                                             : "two bits per INTID (INTID = 16n + field): " + what}};
    };
    t.registers = {
        mreg("GICD_CTLR", dist::ctlr, 0,
             {{"EnableGrp0", ctlr_enable_grp0, fa::rw, "forward Group 0 interrupts to the CPU interfaces"},
              {"EnableGrp1", ctlr_enable_grp1, fa::rw, "forward Group 1 interrupts to the CPU interfaces"}},
             "Distributor Control Register"),
        mreg("GICD_TYPER", dist::typer, 0,
             {{"ITLinesNumber", typer_itlines, fa::ro, "(32 + spis) / 32 - 1"},
              {"CPUNumber", typer_cpus, fa::ro, "CPU interfaces - 1"},
              {"SecurityExtn", typer_security, fa::ro, "0: no Security Extensions"},
              {"LSPI", typer_lspi, fa::ro, "0: no lockable SPIs"}},
             "Interrupt Controller Type Register (reset column: the platform's configuration sets it)"),
        mreg("GICD_IIDR", dist::iidr, 0x0200143B, {{"IIDR", 0, 32, fa::ro, "the iidr parameter (GIC-400 r0p1 by default)"}},
             "Distributor Implementer Identification Register"),
        mreg("GICD_IGROUPRn", dist::igroupr, 0, bank("1 = Group 1", 1), "Interrupt Group Registers, n = 0..31"),
        mreg("GICD_ISENABLERn", dist::isenabler, 0, bank("write 1 enables forwarding, read 1 = enabled", 1),
             "Interrupt Set-Enable Registers"),
        mreg("GICD_ICENABLERn", dist::icenabler, 0, bank("write 1 disables forwarding, read 1 = enabled", 1),
             "Interrupt Clear-Enable Registers"),
        mreg("GICD_ISPENDRn", dist::ispendr, 0,
             bank("write 1 sets pending (SGIs: WI), read 1 = pending", 1), "Interrupt Set-Pending Registers"),
        mreg("GICD_ICPENDRn", dist::icpendr, 0,
             bank("write 1 clears the pending latch (SGIs: WI), read 1 = pending", 1),
             "Interrupt Clear-Pending Registers"),
        mreg("GICD_ISACTIVERn", dist::isactiver, 0, bank("write 1 sets active, read 1 = active", 1),
             "Interrupt Set-Active Registers"),
        mreg("GICD_ICACTIVERn", dist::icactiver, 0, bank("write 1 clears active, read 1 = active", 1),
             "Interrupt Clear-Active Registers"),
        mreg("GICD_IPRIORITYRn", dist::ipriorityr, 0,
             bank("priority; the low 8 - priority_bits bits RAZ/WI; byte-accessible", 8),
             "Interrupt Priority Registers, n = 0..254"),
        mreg("GICD_ITARGETSRn", dist::itargetsr, 0,
             bank("CPU targets of an SPI; n = 0..7 (SGIs, PPIs) read the accessing interface's bit, read-only; "
                  "byte-accessible", 8),
             "Interrupt Processor Targets Registers, n = 0..254"),
        mreg("GICD_ICFGRn", dist::icfgr, 0xAAAAAAAA,
             bank("Int_config[1]: 1 edge-triggered, 0 level-sensitive; Int_config[0] reserved; n = 0 (SGIs) "
                  "read-only 0xAAAAAAAA",
                  2),
             "Interrupt Configuration Registers, n = 0..63 (reset column: ICFGR0; the others reset to 0)"),
        mreg("GICD_SGIR", dist::sgir, 0,
             {{"TargetListFilter", sgir_filter, fa::wo, "0 the list, 1 all but the requester, 2 the requester only"},
              {"CPUTargetList", sgir_targets, fa::wo, "target CPU interfaces (filter 0)"},
              {"NSATT", sgir_nsatt, fa::wo, "ignored (no Security Extensions)"},
              {"SGIINTID", sgir_intid, fa::wo, "the SGI's INTID"}},
             "Software Generated Interrupt Register"),
        mreg("GICD_CPENDSGIRn", dist::cpendsgir, 0,
             bank("SGI pending per source CPU interface (bit = source); write 1 clears; byte-accessible", 8),
             "SGI Clear-Pending Registers, n = 0..3"),
        mreg("GICD_SPENDSGIRn", dist::spendsgir, 0,
             bank("SGI pending per source CPU interface (bit = source); write 1 sets; byte-accessible", 8),
             "SGI Set-Pending Registers, n = 0..3"),
    };
    for (auto& r : t.registers) cite(r, std::string(spec) + "; offsets as " + linux_header);
    cite(t, "GICD_IIDR", "UNVERIFIED: GIC-400 r0p1's value, DDI 0471B 3.2 (a parameter)");
    return t;
}

register_table make_cpu_interface() {
    register_table t;
    t.unit = "gicv2_cpu_interface";
    t.title = "GICv2 CPU interface (GIC-400 layout, base + 0x2000)";
    t.summary = "The CPU interface of the gicv2 model, banked by the accessing CPU: offsets in its 8 KB frame at "
                "the unit's base + 0x2000 (GICC_DIR at 0x1000, so Linux may use EOImode 1). GICC_AIAR reads 1023, "
                "GICC_AEOIR and GICC_APRn writes are ignored, GICC_APRn read as zero (docs/devices.md).";
    t.registers = {
        mreg("GICC_CTLR", cpuif::ctlr, 0,
             {{"EnableGrp0", gicc_enable_grp0, fa::rw, "signal Group 0 interrupts"},
              {"EnableGrp1", gicc_enable_grp1, fa::rw, "signal Group 1 interrupts"},
              {"AckCtl", gicc_ackctl, fa::rw, "GICC_IAR may acknowledge Group 1 interrupts"},
              {"FIQEn", gicc_fiqen, fa::rw, "Group 0 as FIQ (no FIQ output is modelled: not signalled)"},
              {"CBPR", gicc_cbpr, fa::rw, "GICC_BPR for both groups"},
              {"BypassDisable", gicc_bypass, fa::rw, "FIQBypDisGrp0, IRQBypDisGrp0, FIQBypDisGrp1, IRQBypDisGrp1: stored"},
              {"EOImode", gicc_eoimode, fa::rw, "1: GICC_EOIR drops priority only, GICC_DIR deactivates"}},
             "CPU Interface Control Register"),
        mreg("GICC_PMR", cpuif::pmr, 0, {{"Priority", 0, 8, fa::rw, "priority mask; low 8 - priority_bits bits RAZ/WI"}},
             "Interrupt Priority Mask Register"),
        mreg("GICC_BPR", cpuif::bpr, 2, {{"Binary_Point", bpr_binary_point, fa::rw, "group priority [7:n+1]; minimum 7 - priority_bits"}},
             "Binary Point Register (reset column: priority_bits 5)"),
        mreg("GICC_IAR", cpuif::iar, 0x3FF,
             {{"CPUID", iar_cpuid, fa::ro, "an SGI's source CPU interface"},
              {"InterruptID", iar_intid, fa::ro, "acknowledged INTID; 1023 none, 1022 Group 1 without AckCtl"}},
             "Interrupt Acknowledge Register (reading acknowledges)"),
        mreg("GICC_EOIR", cpuif::eoir, 0,
             {{"CPUID", iar_cpuid, fa::wo, "the SGI's source, as GICC_IAR returned it"},
              {"EOIINTID", iar_intid, fa::wo, "the INTID whose priority drops (EOImode 0: and is deactivated)"}},
             "End of Interrupt Register"),
        mreg("GICC_RPR", cpuif::rpr, 0xFF, {{"Priority", 0, 8, fa::ro, "running priority; 0xFF when idle"}},
             "Running Priority Register"),
        mreg("GICC_HPPIR", cpuif::hppir, 0x3FF,
             {{"CPUID", iar_cpuid, fa::ro, "an SGI's source CPU interface"},
              {"PENDINTID", iar_intid, fa::ro, "highest-priority pending INTID, 1023 none"}},
             "Highest Priority Pending Interrupt Register"),
        mreg("GICC_ABPR", cpuif::abpr, 3, {{"Binary_Point", bpr_binary_point, fa::rw, "Group 1 binary point: group priority [7:n]"}},
             "Aliased Binary Point Register (reset column: priority_bits 5)"),
        mreg("GICC_AIAR", cpuif::aiar, 0x3FF, {{"InterruptID", iar_intid, fa::ro, "reads 1023 (not modelled)"}},
             "Aliased Interrupt Acknowledge Register"),
        mreg("GICC_AEOIR", cpuif::aeoir, 0, {{"EOIINTID", iar_intid, fa::wo, "ignored (not modelled)"}},
             "Aliased End of Interrupt Register"),
        mreg("GICC_AHPPIR", cpuif::ahppir, 0x3FF, {{"PENDINTID", iar_intid, fa::ro, "reads 1023 (not modelled)"}},
             "Aliased Highest Priority Pending Interrupt Register"),
        mreg("GICC_APRn", cpuif::apr0, 0, {{"bits", 0, 32, fa::raz_wi, "active priorities: RAZ/WI (Linux writes 0)"}},
             "Active Priorities Registers, n = 0..3"),
        mreg("GICC_IIDR", cpuif::iidr, 0x0202143B,
             {{"IIDR", 0, 32, fa::ro, "the gicc_iidr parameter; Linux requires & 0xff0fff == 0x02043B"}},
             "CPU Interface Identification Register"),
        mreg("GICC_DIR", cpuif::dir, 0, {{"CPUID", iar_cpuid, fa::wo, "the SGI's source"},
                                          {"InterruptID", iar_intid, fa::wo, "the INTID to deactivate (EOImode 1)"}},
             "Deactivate Interrupt Register"),
    };
    for (auto& r : t.registers) cite(r, std::string(cpu_spec) + "; offsets as " + linux_header);
    cite(t, "GICC_IIDR", "Linux drivers/irqchip/irq-gic.c@v6.1.192 gic_check_gicv2 (the value: UNVERIFIED GIC-400 r0p1, DDI 0471B 3.3)");
    return t;
}

} // namespace

const register_table& gic_distributor_table() {
    static const register_table t = make_distributor();
    return t;
}

const register_table& gic_cpu_interface_table() {
    static const register_table t = make_cpu_interface();
    return t;
}

} // namespace pmusim
