// The AArch64 target description GDB reads with qXfer:features:read:target.xml: the features
// and register names GDB's AArch64 support requires (GDB manual, "AArch64 Features":
// org.gnu.gdb.aarch64.core with x0-x30, sp, pc, cpsr; org.gnu.gdb.aarch64.fpu with v0-v31,
// fpsr, fpcr), in the numbering of debug_target.h (aarch64_regs). The format is GDB's
// gdb-target.dtd ("Target Description Format").
#include <fmt/format.h>

#include "debug/gdb_stub.h"

namespace pmusim::debug {

namespace {

std::string build() {
    std::string x = "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n"
                    "  <architecture>aarch64</architecture>\n  <feature name=\"org.gnu.gdb.aarch64.core\">\n";
    // PSTATE as SPSR_ELx lays it out (Arm ARM C5.2.18): M[3:0] (EL [3:2], SP [0]), nRW, DAIF, IL, SS, NZCV.
    x += "    <flags id=\"cpsr_flags\" size=\"4\">\n"
         "      <field name=\"SP\" start=\"0\" end=\"0\"/>\n      <field name=\"EL\" start=\"2\" end=\"3\"/>\n"
         "      <field name=\"nRW\" start=\"4\" end=\"4\"/>\n      <field name=\"F\" start=\"6\" end=\"6\"/>\n"
         "      <field name=\"I\" start=\"7\" end=\"7\"/>\n      <field name=\"A\" start=\"8\" end=\"8\"/>\n"
         "      <field name=\"D\" start=\"9\" end=\"9\"/>\n      <field name=\"IL\" start=\"20\" end=\"20\"/>\n"
         "      <field name=\"SS\" start=\"21\" end=\"21\"/>\n      <field name=\"V\" start=\"28\" end=\"28\"/>\n"
         "      <field name=\"C\" start=\"29\" end=\"29\"/>\n      <field name=\"Z\" start=\"30\" end=\"30\"/>\n"
         "      <field name=\"N\" start=\"31\" end=\"31\"/>\n    </flags>\n";
    for (unsigned r = 0; r <= 30; ++r)
        x += fmt::format("    <reg name=\"x{}\" bitsize=\"64\" type=\"int\" regnum=\"{}\"/>\n", r, r);
    x += "    <reg name=\"sp\" bitsize=\"64\" type=\"data_ptr\" regnum=\"31\"/>\n"
         "    <reg name=\"pc\" bitsize=\"64\" type=\"code_ptr\" regnum=\"32\"/>\n"
         "    <reg name=\"cpsr\" bitsize=\"32\" type=\"cpsr_flags\" regnum=\"33\"/>\n  </feature>\n";
    x += "  <feature name=\"org.gnu.gdb.aarch64.fpu\">\n";
    struct lanes { const char* id; const char* f; const char* u; const char* s; unsigned count; };
    const lanes views[] = {{"vnd", "ieee_double", "uint64", "int64", 2}, {"vns", "ieee_single", "uint32", "int32", 4},
                           {"vnh", nullptr, "uint16", "int16", 8},       {"vnb", nullptr, "uint8", "int8", 16},
                           {"vnq", nullptr, "uint128", "int128", 1}};
    for (const auto& v : views) {
        if (v.f) x += fmt::format("    <vector id=\"{}f\" type=\"{}\" count=\"{}\"/>\n", v.id, v.f, v.count);
        x += fmt::format("    <vector id=\"{}u\" type=\"{}\" count=\"{}\"/>\n", v.id, v.u, v.count);
        x += fmt::format("    <vector id=\"{}s\" type=\"{}\" count=\"{}\"/>\n", v.id, v.s, v.count);
        x += fmt::format("    <union id=\"{}\">\n", v.id);
        if (v.f) x += fmt::format("      <field name=\"f\" type=\"{}f\"/>\n", v.id);
        x += fmt::format("      <field name=\"u\" type=\"{}u\"/>\n      <field name=\"s\" type=\"{}s\"/>\n    </union>\n", v.id, v.id);
    }
    x += "    <union id=\"aarch64v\">\n      <field name=\"d\" type=\"vnd\"/>\n      <field name=\"s\" type=\"vns\"/>\n"
         "      <field name=\"h\" type=\"vnh\"/>\n      <field name=\"b\" type=\"vnb\"/>\n      <field name=\"q\" type=\"vnq\"/>\n"
         "    </union>\n";
    for (unsigned r = 0; r <= 31; ++r)
        x += fmt::format("    <reg name=\"v{}\" bitsize=\"128\" type=\"aarch64v\" regnum=\"{}\"/>\n", r, 34 + r);
    x += "    <reg name=\"fpsr\" bitsize=\"32\" type=\"int\" regnum=\"66\"/>\n"
         "    <reg name=\"fpcr\" bitsize=\"32\" type=\"int\" regnum=\"67\"/>\n  </feature>\n</target>\n";
    return x;
}

} // namespace

const std::string& aarch64_target_xml() {
    static const std::string xml = build();
    return xml;
}

} // namespace pmusim::debug
