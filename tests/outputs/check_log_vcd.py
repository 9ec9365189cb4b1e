#!/usr/bin/env python3
"""The JSON-lines log's schema and causal order, and the VCD's scopes, control registers,
values and pulse widths (docs/logs.md), on tests/outputs/reports.seq: a DSU cycle counter set
16 cycles before its wrap. Expected values follow from the sequence's semantics (the DSU TRM's
counter, overflow and interrupt rules), not from a previous run. Usage: check_log_vcd.py PMUSIM"""
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
SEQ = "tests/outputs/reports.seq"


def parse_vcd(text):
    """A small VCD reader (IEEE 1364 §18.2): returns ({path: (id, width)}, {id: [(time, value)]}).
    Checks the structure it reads: balanced scopes, unique ids, strictly increasing timestamps,
    values that fit their variable's width."""
    tokens = text.split()
    i, scopes, variables, times = 0, [], {}, []
    assert tokens[:4] == ["$timescale", "1", "fs", "$end"], tokens[:4]
    i = 4
    while tokens[i] != "$enddefinitions":
        t = tokens[i]
        if t == "$scope":
            assert tokens[i + 1] == "module" and tokens[i + 3] == "$end", tokens[i:i + 4]
            scopes.append(tokens[i + 2])
            i += 4
        elif t == "$upscope":
            assert tokens[i + 1] == "$end"
            scopes.pop()
            i += 2
        elif t == "$var":
            kind, width, ident, name, end = tokens[i + 1:i + 6]
            assert kind == "wire" and end == "$end", tokens[i:i + 6]
            assert ident not in [v[0] for v in variables.values()], f"id {ident} used twice"
            variables[".".join(scopes[1:] + [name])] = (ident, int(width))
            i += 6
        else:
            raise AssertionError(f"unexpected {t}")
    assert not scopes, f"unclosed scopes {scopes}"
    assert tokens[i + 1] == "$end"
    i += 2
    widths = {ident: w for ident, w in variables.values()}
    changes = {ident: [] for ident in widths}
    now = None
    while i < len(tokens):
        t = tokens[i]
        if t.startswith("#"):
            time = int(t[1:])
            assert now is None or time > now, f"timestamp {time} after {now}"
            now = time
            i += 1
        elif t.startswith("b"):
            value, ident = int(t[1:], 2), tokens[i + 1]
            assert len(t) - 1 <= widths[ident], (t, ident)
            changes[ident].append((now, value))
            i += 2
        else:
            assert widths[t[1:]] == 1 and t[0] in "01", t
            changes[t[1:]].append((now, int(t[0])))
            i += 1
    return variables, changes


def settled(changes, time, records):
    """The value a variable settles on at simulated instant `time`: its last change before the
    next instant the log shows (changes repeated at one instant are drawn up to a few fs
    later, docs/logs.md)."""
    later = [r["time_fs"] for r in records if r["time_fs"] > time]
    end = min(later) if later else float("inf")
    v = None
    for t, x in changes:
        if t < end:
            v = x
    return v


def main():
    exe = os.path.abspath(sys.argv[1])
    root = os.path.dirname(os.path.dirname(here))
    with tempfile.TemporaryDirectory() as tmp:
        log, vcd = os.path.join(tmp, "log.jsonl"), os.path.join(tmp, "w.vcd")
        rc = subprocess.call([exe, "run", SEQ, "-q", "--log-json", log, "--vcd", vcd], cwd=root,
                             env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"), timeout=60)
        assert rc == 0, rc
        records = [json.loads(l) for l in open(log)]
        variables, changes = parse_vcd(open(vcd).read())

    # --- the JSON-lines log: one schema per record kind ---
    access_keys = {"time_fs", "time", "file", "line", "context", "op", "target", "outcome"}
    for r in records:
        if r["op"] == "irq":
            assert set(r) == {"time_fs", "time", "op", "irq", "level"}, r
            assert r["level"] in ("high", "low")
        else:
            assert r["op"] in ("read", "write") and access_keys <= set(r), r
            assert isinstance(r["line"], int) and ("encoding" in r) != ("address" in r), r
    user = [r for r in records if r.get("file") == SEQ or r["op"] == "irq"]
    by_line = {}
    for r in user:
        if r["op"] != "irq":
            by_line.setdefault(r["line"], r)
    # Causal order: the wrap's edge before the handler's write; the write that lowers the line
    # before the edge it causes (at the same instant).
    edges = [(k, r) for k, r in enumerate(user) if r["op"] == "irq" and r["irq"] == "dsu0_pmu_irq"]
    assert [r["level"] for _, r in edges] == ["high", "low", "high", "low"], edges
    (k_high, high), (k_low, low) = edges[0], edges[1]
    clear = by_line[15]
    assert clear["target"] == "CLUSTERPMOVSCLR_EL1" and user.index(clear) == k_low - 1, (clear, user[k_low - 1])
    # The run of 6 cycles ends on the 16th edge, where the counter wraps: the handler's write
    # and both edges are at that instant.
    assert high["time_fs"] == clear["time_fs"] == low["time_fs"], (high, clear, low)
    # The pulse of lines 20-21 (OVSSET then OVSCLR at one instant): write, high, write, low.
    set_w, clr_w = by_line[20], by_line[21]
    ks, kc = user.index(set_w), user.index(clr_w)
    assert user[ks + 1]["op"] == "irq" and user[ks + 1]["level"] == "high" and user[kc + 1]["level"] == "low", user[ks:kc + 2]

    # --- the VCD: scopes per unit, control registers, values at accesses and edges ---
    for name in ("dsu0.PMCR", "dsu0.PMCNTENSET", "dsu0.PMINTENSET", "dsu0.PMOVS", "dsu0.PMEVCNTR3",
                 "cpu0.amu.AMEVCNTR00", "cmn0.dtc0.por_dt_pmcr", "irq.dsu0_pmu_irq"):
        assert name in variables, f"{name} not in the VCD ({sorted(variables)[:8]}...)"
    ch = {n: changes[variables[n][0]] for n in variables}
    t_enable = by_line[10]["time_fs"]           # write CLUSTERPMCR_EL1 1
    assert settled(ch["dsu0.PMCR"], t_enable, records) & 1 == 1
    assert settled(ch["dsu0.PMCNTENSET"], t_enable, records) & 0x8 == 0x8
    assert settled(ch["dsu0.PMINTENSET"], t_enable, records) & 0x8 == 0x8
    t_read = by_line[12]["time_fs"]             # read after 10 edges
    assert by_line[12]["value"] == "0xfffffffffffffffa", by_line[12]
    assert settled(ch["dsu0.PMEVCNTR3"], t_read, records) == 0xFFFF_FFFF_FFFF_FFFA, ch["dsu0.PMEVCNTR3"]
    t_wrap = high["time_fs"]
    assert (t_wrap, 0) in ch["dsu0.PMEVCNTR3"], "the wrap is sampled at its edge"
    # At the wrap instant: PMOVS bit 3 and the line go high; the handler's write at the same
    # instant lowers both, drawn 1 fs later (no zero-width pulse).
    irq = ch["irq.dsu0_pmu_irq"]
    assert (t_wrap, 1) in irq and (t_wrap + 1, 0) in irq, [c for c in irq if abs(c[0] - t_wrap) < 10]
    assert (t_wrap, 0x8) in ch["dsu0.PMOVS"], ch["dsu0.PMOVS"]
    t_pulse = set_w["time_fs"]
    assert clr_w["time_fs"] == t_pulse
    pulse = [c for c in irq if t_pulse <= c[0] <= t_pulse + 10]
    assert pulse[0] == (t_pulse, 1) and pulse[1][1] == 0 and pulse[1][0] > t_pulse, pulse
    for ident, cs in changes.items():
        times = [t for t, _ in cs]
        assert len(times) == len(set(times)), f"{ident} changes twice at one timestamp"
    print("log and vcd: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
