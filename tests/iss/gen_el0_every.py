#!/usr/bin/env python3
"""Generates tests/iss/el0_every.S: every AArch64 system register and system instruction that
Linux's own list names, executed at EL0 one after another, each with the exception the Arm ARM
says it takes there (issue 28: "an EL0 access to each EL1-only register and instruction traps as
the architecture says"; docs/firmware.md "EL0 and EL1 in the engine, partly").

The list: Debian's linux-source-6.1 and linux-source-6.12 (scripts/install-deps.sh), their
arch/arm64/tools/sysreg ("Sysreg NAME op0 op1 CRn CRm op2") and arch/arm64/include/asm/sysreg.h
(`#define SYS_x sys_reg(op0, op1, CRn, CRm, op2)`, OP_x / SYS_x `sys_insn(...)` for TLBI, AT, DC,
IC and the other SYS instructions; indexed families expanded over their architectural range), and
the DSU cluster PMU registers of arch/arm64/include/asm/arm_dsu_pmu.h (IMPLEMENTATION DEFINED, op1 0). The
union of both, one entry per encoding. AArch32 encodings and op0 = 0 (MSR immediate) forms of
Linux's list are left out; the MSR immediate forms, ERET, HVC, SMC, DRPS, WFI and the few
registers Linux never names (CurrentEL, SPSel, SP_EL0, DAIF) are added here from the Arm ARM.

The rule (Arm ARM DDI 0487, C5.2 "System instructions" / D18 "the System register encoding
space", the op1 field: op1 = 3 is the class EL0 may access, any other op1 is EL1 or higher; and
every register's Accessibility pseudocode): at EL0 an MRS, MSR or SYS with op1 != 3 is UNDEFINED:
EC 0x00, IL 1, ELR = the instruction, nothing changed, whether or not the CPU implements the
register (an unimplemented encoding is UNDEFINED at every EL, so the rule holds either way and
all of them are kept). One exception: with FEAT_IDST (ID_AA64MMFR2_EL1.IDS >= 1) an EL0 MRS of the
feature ID space (op0 3, op1 0, CRn 0, CRm 0-7) is EC 0x18 instead; the test reads IDS at EL1.
The op1 = 3 class: the table OP1_3 below, each with the control that disables it (the test runs
EL0 with SCTLR_EL1.UMA = UCT = DZE = UCI = EnRCTX = 0, CNTKCTL_EL1 = 0, PMUSERENR_EL0 = 0,
AMUSERENR_EL0 = 0): a disabled access is EC 0x18 with the instruction's ISS (D24.2.47: Op0 [21:20]
Op2 [19:17] Op1 [16:14] CRn [13:10] Rt [9:5] CRm [4:1] Direction [0], 1 = read); a direction the
register does not have (MSR of a read-only one, MRS of a write-only one) is UNDEFINED; an access
EL0 may make anyway is not run. An op1 = 3 register whose feature the CPU lacks is UNDEFINED: the
test decides "lacks" by reading (or executing) it at EL1 first, where an unimplemented encoding is
UNDEFINED too. Indexed PMU and AMU counters at or above PMCR_EL0.N / AMCGCR_EL0.CG0NC / CG1NC are
UNDEFINED (their Accessibility pseudocode tests the index before the EL0 enable).

Usage: gen_el0_every.py [--linux TARBALL] [--linux-later TARBALL] [-o OUT | --check FILE]
--check exits 0 when FILE is what the generator produces, 1 when not, 77 (ctest SKIP) when a
linux-source tarball is missing.
"""
import argparse
import os
import re
import sys
import tarfile

WANT = ("arch/arm64/tools/sysreg", "arch/arm64/include/asm/sysreg.h", "arch/arm64/include/asm/arm_dsu_pmu.h")


def read_linux(tarball):
    """The two files of a linux-source tarball (streamed: stops once both are read)."""
    got = {}
    with tarfile.open(tarball, "r|xz") as tf:
        for m in tf:
            rel = m.name.split("/", 1)[1] if "/" in m.name else m.name
            if rel in WANT:
                got[rel] = tf.extractfile(m).read().decode()
                if len(got) == len(WANT):
                    break
    missing = [w for w in WANT if w not in got]
    if missing:
        raise SystemExit(f"{tarball}: no {', '.join(missing)}")
    return got


# Indexed families (one parameter): the Arm ARM's index range; any other family 0-15.
FAMILY_RANGE = {"PMEVCNTRn_EL0": range(31), "PMEVTYPERn_EL0": range(31)}
FAMILY_RANGE_PREFIX = {"BRB": range(32)}
FIELD_MAX = (3, 7, 15, 15, 7)


def parse_sysreg_h(text):
    """NAME -> (op0, op1, CRn, CRm, op2) for every SYS_/OP_ define that evaluates to sys_reg()/sys_insn()."""
    text = re.sub(r"\\\n", " ", text)
    defines = {}
    for m in re.finditer(r"^#define\s+(\w+)(\(([^)]*)\))?[ \t]*(.*)$", text, re.M):
        name, params, body = m.group(1), m.group(3), m.group(4)
        body = re.sub(r"/\*.*?\*/", "", body).strip()
        defines[name] = (None if params is None else [p.strip() for p in params.split(",")], body)

    class Scope(dict):
        def __missing__(self, key):
            if key in ("sys_reg", "sys_insn"):
                return lambda *f: tuple(int(x) for x in f)
            if key in ("UL", "ULL", "_AC"):
                return lambda x, *_: x
            if key not in defines:
                raise KeyError(key)
            params, body = defines[key]
            if params is None:
                return evaluate(body)

            def call(*args, params=params, body=body):
                b = body
                for p, a in zip(params, args):
                    b = re.sub(r"\b%s\b" % re.escape(p), "(%r)" % (a,), b)
                return evaluate(b)
            return call

    def evaluate(expr):
        return eval(expr, {"__builtins__": {}}, Scope())

    out = {}
    for name, (params, body) in defines.items():
        if name.startswith("__") or not (name.startswith("SYS_") or name.startswith("OP_")):
            continue
        if "AARCH32" in name:
            continue
        if params is None:
            values = [(name, None)]
        elif len(params) == 1:
            rng = FAMILY_RANGE.get(name[4:] if name.startswith("SYS_") else name)
            if rng is None:
                rng = next((r for p, r in FAMILY_RANGE_PREFIX.items() if name[4:].startswith(p)), range(16))
            values = [(name, n) for n in rng]
        else:
            continue
        for base, n in values:
            try:
                v = evaluate(body) if n is None else Scope()[base](n)
            except Exception:
                continue
            if not (isinstance(v, tuple) and len(v) == 5):
                continue
            if any(x < 0 or x > mx for x, mx in zip(v, FIELD_MAX)):
                continue
            label = base[4:] if base.startswith("SYS_") else base[3:]
            if n is not None:
                label = label.replace("n_", "%d_" % n) if "n_" in label else "%s(%d)" % (label, n)
            out[label] = (v, n)
    return out


def parse_tools_sysreg(text):
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) == 7 and f[0] == "Sysreg":
            out[f[1]] = (tuple(int(x) for x in f[2:]), None)
    return out


# ---- the op1 = 3 class (Arm ARM, each register's Accessibility pseudocode at EL0) ----
# read / write rule at EL0 under the test's controls: "trap" (EC 0x18), "undef", "allowed" (EL0
# may: not run), "skip" (not settled here: not run). probe: the register (or instruction) read at
# EL1 to learn whether the CPU has it (None: the entry's own encoding). limit: the counter bound.
TRAP, UNDEF_, ALLOWED, SKIP = "trap", "undef", "allowed", "skip"
OP1_3 = {
    # SCTLR_EL1.UCT = 0 traps CTR_EL0 reads; read-only.
    "CTR_EL0": (TRAP, UNDEF_), "DCZID_EL0": (ALLOWED, UNDEF_),
    "TPIDR_EL0": (ALLOWED, ALLOWED), "TPIDRRO_EL0": (ALLOWED, UNDEF_),
    # SCTLR_EL1.UMA = 0 traps MRS/MSR DAIF.
    "DAIF": (TRAP, TRAP), "NZCV": (ALLOWED, ALLOWED), "FPCR": (ALLOWED, ALLOWED), "FPSR": (ALLOWED, ALLOWED),
    # Generic timer, CNTKCTL_EL1 = 0 (EL0PCTEN, EL0VCTEN, EL0PTEN, EL0VTEN = 0); counts read-only,
    # CNTFRQ_EL0 writable only at the highest EL.
    "CNTFRQ_EL0": (TRAP, UNDEF_), "CNTPCT_EL0": (TRAP, UNDEF_), "CNTVCT_EL0": (TRAP, UNDEF_),
    "CNTPCTSS_EL0": (TRAP, UNDEF_), "CNTVCTSS_EL0": (TRAP, UNDEF_),
    "CNTP_TVAL_EL0": (TRAP, TRAP), "CNTP_CTL_EL0": (TRAP, TRAP), "CNTP_CVAL_EL0": (TRAP, TRAP),
    "CNTV_TVAL_EL0": (TRAP, TRAP), "CNTV_CTL_EL0": (TRAP, TRAP), "CNTV_CVAL_EL0": (TRAP, TRAP),
    # PMUv3, PMUSERENR_EL0 = 0 (EN, SW, CR, ER = 0).
    "PMCR_EL0": (TRAP, TRAP), "PMCNTENSET_EL0": (TRAP, TRAP), "PMCNTENCLR_EL0": (TRAP, TRAP),
    "PMOVSCLR_EL0": (TRAP, TRAP), "PMOVSSET_EL0": (TRAP, TRAP), "PMSELR_EL0": (TRAP, TRAP),
    "PMSWINC_EL0": (UNDEF_, TRAP), "PMCEID0_EL0": (TRAP, UNDEF_), "PMCEID1_EL0": (TRAP, UNDEF_),
    "PMCCNTR_EL0": (TRAP, TRAP), "PMXEVTYPER_EL0": (TRAP, TRAP), "PMXEVCNTR_EL0": (TRAP, TRAP),
    "PMCCFILTR_EL0": (TRAP, TRAP), "PMUSERENR_EL0": (ALLOWED, UNDEF_),
    # AMUv1, AMUSERENR_EL0 = 0: reads trap; writes at EL0 are not settled here except read-only ones.
    "AMCR_EL0": (TRAP, SKIP), "AMCFGR_EL0": (TRAP, UNDEF_), "AMCGCR_EL0": (TRAP, UNDEF_),
    "AMUSERENR_EL0": (ALLOWED, UNDEF_), "AMCNTENCLR0_EL0": (TRAP, SKIP), "AMCNTENSET0_EL0": (TRAP, SKIP),
    "AMCNTENCLR1_EL0": (TRAP, SKIP), "AMCNTENSET1_EL0": (TRAP, SKIP),
    # DCC: MDSCR_EL1.TDCC = 0 lets EL0 use it.
    "MDCCSR_EL0": (ALLOWED, ALLOWED), "DBGDTR_EL0": (ALLOWED, ALLOWED), "DBGDTRRX_EL0": (ALLOWED, ALLOWED),
}
OP1_3_FAMILY = [  # (name pattern, read, write, probe, limit)
    (r"PMEV(CNT|TYPE)R(\d+)_EL0", TRAP, TRAP, "PMCR_EL0", "pmu"),
    (r"AMEVCNTR0_EL0\((\d+)\)", TRAP, SKIP, "AMCFGR_EL0", "amu0"),
    (r"AMEVTYPER0_EL0\((\d+)\)", TRAP, UNDEF_, "AMCFGR_EL0", "amu0"),
    (r"AMEVCNTR1_EL0\((\d+)\)", TRAP, SKIP, "AMCFGR_EL0", "amu1"),
    (r"AMEVTYPER1_EL0\((\d+)\)", TRAP, SKIP, "AMCFGR_EL0", "amu1"),
]
PROBE_OF = {  # registers that share a feature: one probe
    "PMCNTENSET_EL0": "PMCR_EL0", "PMCNTENCLR_EL0": "PMCR_EL0", "PMOVSCLR_EL0": "PMCR_EL0",
    "PMOVSSET_EL0": "PMCR_EL0", "PMSELR_EL0": "PMCR_EL0", "PMSWINC_EL0": "PMCR_EL0",
    "PMCEID0_EL0": "PMCR_EL0", "PMCEID1_EL0": "PMCR_EL0", "PMCCNTR_EL0": "PMCR_EL0",
    "PMXEVTYPER_EL0": "PMCR_EL0", "PMXEVCNTR_EL0": "PMCR_EL0", "PMCCFILTR_EL0": "PMCR_EL0",
    "PMUSERENR_EL0": "PMCR_EL0",
}
# SYS instructions of op1 = 3 (C5.3 / the SCTLR_EL1 field pages): DC ZVA with DZE; DC CVAU, CVAC,
# CIVAC, CVAP, CVADP and IC IVAU with UCI; CFP/DVP/COSP/CPP RCTX with EnRCTX; all trap at 0 when the
# CPU has them. Any other op1 = 3 SYS instruction (MTE tag, GCS) EL0 may run when implemented.
SYS_OP1_3_TRAP = {"DC_ZVA", "DC_CVAU", "DC_CVAC", "DC_CIVAC", "DC_CVAP", "DC_CVADP", "IC_IVAU",
                  "CFP_RCTX", "DVP_RCTX", "COSP_RCTX", "CPP_RCTX"}
# Added from the Arm ARM (Linux's list does not name them): registers.
EXTRA_REGS = {"CurrentEL": (3, 0, 4, 2, 2), "SPSel": (3, 0, 4, 2, 0), "SP_EL0": (3, 0, 4, 1, 0),
              "DAIF": (3, 3, 4, 2, 1), "NZCV": (3, 3, 4, 2, 0), "FPCR": (3, 3, 4, 4, 0), "FPSR": (3, 3, 4, 4, 1),
              "CNTPCT_EL0": (3, 3, 14, 0, 1), "CNTVCT_EL0": (3, 3, 14, 0, 2), "CNTV_TVAL_EL0": (3, 3, 14, 3, 0)}
# Registers whose value changes without a write, or that each trap itself writes: no read-back.
VOLATILE = re.compile(r"^(ESR_EL1|ELR_EL1|SPSR_EL1|FAR_EL1|SP_EL0|DAIF|NZCV|CurrentEL|SPSel|ISR_EL1|"
                      r"CNT.*CT.*|CNT.*TVAL.*|CNT._CTL.*|PMCCNTR.*|PMEVCNTR.*|PMXEVCNTR.*|PMICNTR.*|AMEVCNTR.*|"
                      r"RNDR.*|CLUSTERPM.*CNTR.*|CLUSTERPMOVS.*|ICC_.*|ICV_.*|DBGDTR.*|OSDTR.*|MDCCSR.*|ERX.*|DISR_EL1|PAR_EL1|TRBSR.*|PMBSR.*)$")
NO_PROBE = re.compile(r"IAR|DBGDTR|OSDTRRX")  # a read at EL1 would change state


def sysreg_word(op0, op1, crn, crm, op2, rt, read):
    """MRS (L = 1) / MSR register (L = 0) / SYS (op0 = 1, L = 0): 1101 0101 00 L op0 op1 CRn CRm op2 Rt."""
    return 0xd5000000 | (int(read) << 21) | (op0 << 19) | (op1 << 16) | (crn << 12) | (crm << 8) | (op2 << 5) | rt


def build(sources):
    regs, insns, notes = {}, {}, []
    for src in sources:
        h = parse_sysreg_h(src["arch/arm64/include/asm/sysreg.h"])
        t = parse_tools_sysreg(src["arch/arm64/tools/sysreg"])
        # The DSU's cluster PMU registers (IMPLEMENTATION DEFINED space, op1 = 0: EL1 only), as
        # Linux's arm_dsu_pmu driver names them; pmusim's gate owns them.
        d = {m.group(1): (tuple(int(x) for x in m.group(2).split(",")), None) for m in
             re.finditer(r"^#define\s+(\w+)\s+sys_reg\(([\d, ]+)\)", src["arch/arm64/include/asm/arm_dsu_pmu.h"], re.M)}
        for name, (enc, n) in list(t.items()) + list(h.items()) + list(d.items()):
            if enc[0] == 1:
                insns.setdefault(enc, name)
            elif enc[0] in (2, 3):
                regs.setdefault(enc, name)
    for name, enc in EXTRA_REGS.items():
        regs.setdefault(enc, name)
    # Same encoding under several names (DBGDTRRX/TX_EL0, ...): the first name in sorted order.
    entries = []  # dicts
    skipped = []

    def add(name, word, esr, kind, **kw):
        entries.append(dict(name=name, word=word, esr=esr, kind=kind, **kw))

    undef = 0x02000000

    def esr_sys(op0, op1, crn, crm, op2, rt, read):
        return (0x18 << 26) | (1 << 25) | (op0 << 20) | (op2 << 17) | (op1 << 14) | (crn << 10) | (rt << 5) | (crm << 1) | int(read)

    names_by_enc = {}
    for enc, name in regs.items():
        names_by_enc[enc] = name
    for enc in sorted(regs):
        op0, op1, crn, crm, op2 = enc
        name = regs[enc]
        for read in (True, False):
            rt = 1 if read else 2
            word = sysreg_word(op0, op1, crn, crm, op2, rt, read)
            access = ("MRS x1, " if read else "MSR ") + name + ("" if read else ", x2")
            probe = None if NO_PROBE.search(name) or op1 >= 4 else enc
            readback = (not read) and probe is not None and not VOLATILE.match(name)
            if op1 != 3 and not readback:
                probe = None  # an EL1 read only where it serves the read-back
            if op1 != 3:
                ids = read and op0 == 3 and op1 == 0 and crn == 0 and crm <= 7
                add(access, word, undef, "undef", probe=probe, readback=readback,
                    ids_esr=esr_sys(*enc, rt, read) if ids else 0)
                continue
            rule, probe_name, limit, index = None, None, None, 0
            if name in OP1_3:
                rule = OP1_3[name][0 if read else 1]
                probe_name = PROBE_OF.get(name)
            else:
                for pat, r, w, pn, lim in OP1_3_FAMILY:
                    m = re.fullmatch(pat, name)
                    if m:
                        rule, probe_name, limit, index = (r if read else w), pn, lim, int(m.groups()[-1])
                        break
            if probe_name:
                probe = next(e for e, nm in regs.items() if nm == probe_name)
            if rule is None:
                # A register of a feature this table does not settle: UNDEFINED when the CPU lacks it,
                # else not run.
                add(access, word, 0, "absent-undef", probe=enc, readback=False, ids_esr=0)
                continue
            if rule in (ALLOWED, SKIP):
                skipped.append((access, "EL0 may access it" if rule == ALLOWED else "EL0 write rule not settled here"))
                continue
            esr = undef if rule == UNDEF_ else esr_sys(*enc, rt, read)
            add(access, word, esr, "op1=3", probe=probe, readback=readback, ids_esr=0,
                limit=limit, index=index, absent_undef=probe is not None)
    for enc in sorted(insns):
        op0, op1, crn, crm, op2 = enc
        name = insns[enc]
        rt = 31 if "ALL" in name else 19
        word = sysreg_word(op0, op1, crn, crm, op2, rt, False)
        text = name.replace("_", " ", 1)
        if op1 != 3:
            add(text, word, undef, "undef", probe=None, readback=False, ids_esr=0)
        elif name in SYS_OP1_3_TRAP:
            add(text, word, esr_sys(*enc, rt, False), "op1=3", probe=enc, readback=False, ids_esr=0, sys=True,
                absent_undef=True)
        else:
            add(text, word, 0, "absent-undef", probe=enc, readback=False, ids_esr=0, sys=True)
    # MSR (immediate) PSTATE fields (C6.2.229: 1101 0101 0000 0 op1 0100 CRm op2 11111): SPSel,
    # PAN, UAO, ALLINT are EL1 fields (UNDEFINED at EL0); DAIFSet/DAIFClr trap with UMA = 0.
    for name, op1, crm, op2 in (("SPSel, #1", 0, 1, 5), ("PAN, #0", 0, 0, 4), ("UAO, #0", 0, 0, 3),
                                ("ALLINT, #0", 1, 0, 0), ("DAIFSet, #2", 3, 2, 6), ("DAIFClr, #2", 3, 2, 7)):
        word = 0xd500401f | (op1 << 16) | (crm << 8) | (op2 << 5)
        esr = esr_sys(0, op1, 4, crm, op2, 31, False) if op1 == 3 else undef
        add("MSR " + name, word, esr, "op1=3" if op1 == 3 else "undef", probe=None, readback=False, ids_esr=0)
    # Exception-generating and exception-return instructions at EL0 (C6.2 ERET, ERETAA, DRPS, HVC,
    # SMC: UNDEFINED at EL0), WFI with SCTLR_EL1.nTWI = 0 and no interrupt pending: EC 0x01, CV 1,
    # COND 0b1110, TI 0 (D24.2.47, "ISS encoding for an exception from a WFI or WFE instruction").
    for name, word, esr in (("ERET", 0xd69f03e0, undef), ("ERETAA", 0xd69f0bff, undef), ("DRPS", 0xd6bf03e0, undef),
                            ("HVC #0", 0xd4000002, undef), ("SMC #0", 0xd4000003, undef),
                            ("WFI", 0xd503207f, (0x01 << 26) | (1 << 25) | (1 << 24) | (0xe << 20))):
        add(name, word, esr, "insn", probe=None, readback=False, ids_esr=0)
    return entries, skipped


LIMIT_KIND = {None: 0, "pmu": 1, "amu0": 2, "amu1": 3}


def render(entries, skipped, source_names):
    n_undef = sum(1 for e in entries if e["esr"] == 0x02000000)
    n_trap = sum(1 for e in entries if e["esr"] and e["esr"] != 0x02000000)
    n_absent = sum(1 for e in entries if e["kind"] == "absent-undef")
    out = []
    w = out.append
    w("// GENERATED by tests/iss/gen_el0_every.py from %s: do not edit." % ", ".join(source_names))
    w("// %d EL0 accesses: %d UNDEFINED by the op1/EL rule, %d EC 0x18/0x01 traps when the CPU has them," % (len(entries), n_undef, n_trap))
    w("// %d UNDEFINED when the CPU lacks them (else not run); not run, EL0 may: %d (listed at the end)." % (n_absent, len(skipped)))
    w("// The rule and the sources: the generator's docstring. What the program does: el0_every_body.inc.")
    w("#define EL0_EVERY_COUNT %d" % len(entries))
    w("#include \"el0_every_body.inc\"")
    w("")
    w("el0_accesses:                      // EL0: each access in turn; run_flags says which run")
    for i, e in enumerate(entries):
        w("    ldrb w3, [x20], #1")
        w("    cbz w3, 1f")
        w("a%d: .inst 0x%08x                // %s" % (i, e["word"], e["name"]))
        w("1:")
    w("    svc #0                         // to EL1: the checks")
    w("    b .")
    w("")
    w("// EL1 routines: the entry's register read (or instruction run) at EL1: does the CPU have it, its value")
    for i, e in enumerate(entries):
        if e.get("probe") is None:
            continue
        op0, op1, crn, crm, op2 = e["probe"]
        if e.get("sys"):
            word = sysreg_word(op0, op1, crn, crm, op2, 19, False)
        else:
            word = sysreg_word(op0, op1, crn, crm, op2, 0, True)
        w("p%d: .inst 0x%08x" % (i, word))
        w("    ret")
    w("")
    w("    .balign 64")
    w("entries:    // 8 quads each: EL0 instruction, ESR when the CPU has it (0: not run unless it lacks it), ESR with")
    w("            // FEAT_IDST, EL1 routine (0: none), flags (bit 0 read back after, bit 1 UNDEFINED when it lacks it,")
    w("            // [15:8] counter limit kind: 1 PMCR_EL0.N, 2 AMCGCR_EL0.CG0NC, 3 CG1NC, [23:16] index), name, 0, 0")
    dynamic = []
    for i, e in enumerate(entries):
        flags = (1 if e.get("readback") else 0) | (2 if e["kind"] == "absent-undef" or e.get("absent_undef") else 0)
        flags |= LIMIT_KIND[e.get("limit")] << 8 | (e.get("index", 0) << 16)
        probe = "p%d" % i if e.get("probe") is not None else "0"
        if flags or e["ids_esr"] or e.get("probe") is not None:
            dynamic.append(i)
        w("    .quad a%d, 0x%08x, 0x%08x, %s, 0x%x, n%d, 0, 0" % (i, e["esr"], e["ids_esr"], probe, flags, i))
    w("entries_end:")
    w("dynamic_entries:   // the entries whose outcome EL1 decides at run time (a probe, a limit, FEAT_IDST)")
    for i in dynamic:
        w("    .quad entries + %d" % (64 * i))
    w("dynamic_entries_end:")
    w("expected_esr:      // per access; the dynamic entries' filled in by EL1")
    for i, e in enumerate(entries):
        w("    .quad 0x%08x" % (0 if i in set(dynamic) else e["esr"]))
    w("run_flags:         // per access: run at EL0")
    for i in range(0, len(entries), 32):
        w("    .byte " + ", ".join("0" if j in set(dynamic) else "1" for j in range(i, min(i + 32, len(entries)))))
    w("names:")
    for i, e in enumerate(entries):
        w("n%d: .asciz \"%s\"" % (i, e["name"]))
    w("    .balign 8")
    w("")
    w("// Not run (EL0 may make these accesses under the test's controls, or the rule is not settled here):")
    for name, why in skipped:
        w("//   %s: %s" % (name, why))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--linux", default="/usr/src/linux-source-6.1.tar.xz")
    ap.add_argument("--linux-later", default="/usr/src/linux-source-6.12.tar.xz")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("-o", dest="out")
    g.add_argument("--check", metavar="FILE")
    a = ap.parse_args()
    for t in (a.linux, a.linux_later):
        if not os.path.isfile(t):
            print(f"gen_el0_every: {t} not found (scripts/install-deps.sh installs linux-source): skipped")
            return 77 if a.check else 2
    sources = [read_linux(a.linux), read_linux(a.linux_later)]
    names = [os.path.basename(t).split(".tar")[0] for t in (a.linux, a.linux_later)]
    text = render(*build(sources), [n + " arch/arm64/{tools/sysreg,include/asm/sysreg.h,include/asm/arm_dsu_pmu.h}" for n in names])
    if a.check:
        with open(a.check) as f:
            if f.read() != text:
                print(f"{a.check}: differs from what tests/iss/gen_el0_every.py produces from {', '.join(names)}: "
                      f"run it with -o {a.check}")
                return 1
        print(f"{a.check}: matches the generator's output from {', '.join(names)}")
        return 0
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
