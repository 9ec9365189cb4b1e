#!/usr/bin/env python3
"""Study 3 (docs/whatif.md): the nest IMC reader's bandwidth against the truth, checked
against bounds derived from the microcode's documented behaviour, not against model output.

Scenario scenarios/studies/imc-nest/nest.yaml, reads every 10 ms at 30.25 ms + k x 10 ms.
Rates (3.2 GHz cores, events per cycle): reads cpu0 1/32 = 100e6/s or 1/256 = 12.5e6/s,
cpu4 1/64 = 50e6/s, so at most R_rd = 150e6 events/s; writes cpu8 1/128 = R_wr = 25e6/s
constant; all from 10 ms. PM_MBA0_READ_BYTES (scale 1) grows by 1e10 bytes/s from 10 ms (injected).

Theory (docs/imc.md "Nest"): a posting at p writes floor(T(p) / 256), T the events since
collection started; group 1 posts at odd OCC states (ticks at 0.5, 1.5, ... ms) every
P = (speed + 1) ms. A reader at t sees the last posting p(t) <= t, 0 <= t - p(t) < P. Over a
read interval (t0, t1] the reader's events are 256 x (floor(T(p1)/256) - floor(T(p0)/256))
= T(p1) - T(p0) + e, |e| < 256, so
  reader - true = (T(t0) - T(p0)) - (T(t1) - T(p1)) + e,  each bracket in [0, R x P]:
  |reader - true| <= R x P + 256 (+ 1 event per CPU per window end: counts are whole events).
At a constant rate the reader sees exactly the traffic of the n postings in the interval,
n x P worth, n = floor(I / P) or ceil(I / P): its error is n x P / I - 1 (+- e). With P = 1 ms
and 10 ms reads that is 0 (prescale only); with P = 3 ms, -10 % or +20 %; with P = 12 ms,
-100 % (no posting in the interval: the reader sees 0 while traffic flows) or +20 %.
Group 5 (MBA) posts only in state 4 of the 8, every (speed / 8 + 1)-th time: every 4 ms for codes
0..7, 8 ms for 8..0xB, so its constant 1e8 bytes per 10 ms read -20 %/+20 % or -20 %/+60 %.
Usage: check_imc_nest_study.py PMUSIM (run from the source tree).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

from checklib import check, finish, run

SCENARIO = "scenarios/studies/imc-nest/nest.yaml"
RD, WR, MBA = "PM_MCS01_128B_RD_DISP_PORT01", "PM_MCS01_128B_WR_DISP_PORT01", "PM_MBA0_READ_BYTES"
R_RD, R_WR = 150_000_000, 25_000_000
tmp = tempfile.mkdtemp(prefix="pmusim-imc-nest-")


def simulate(speed):
    out = os.path.join(tmp, f"speed{speed}")
    r = run("simulate", SCENARIO, "--set", f"speed={speed}", "--set", "read_every=10ms", "-o", out)
    check(r.returncode == 0, f"speed {speed} simulates ({r.stderr.strip()})")
    a = subprocess.run([sys.executable, "tools/whatif/imc_nest_analysis.py", out], capture_output=True, text=True)
    check(a.returncode == 0, f"speed {speed} analysis ({a.stderr.strip()})")
    reads = {}
    for row in csv.DictReader(open(os.path.join(out, "samples.csv"))):
        s = reads.setdefault(int(row["sample"]), {"t": int(row["time_fs"])})
        s[(row["unit"], row["counter"])] = int(row["value"])
    return out, [reads[k] for k in sorted(reads)], json.loads(a.stdout)


def interval_errors(reads, event, scale=256):
    """(t0_ms, t1_ms, reader events - true events, true events) per read interval."""
    out = []
    for p, c in zip(reads, reads[1:]):
        d_word = c[("power9_imc", event)] - p[("power9_imc", event)]
        d_true = c[("truth", event)] - p[("truth", event)]
        out.append((p["t"] / 1e12, c["t"] / 1e12, d_word * scale - d_true, d_true))
    return out


def constant_rate_errors(reads, period_ms, event=WR, per_ms=25_000, scale=256, slack=2):
    """A constant stream (writes: 25,000 events per ms): each 10 ms interval's error is n x P / 10 - 1
    of the truth, n in {floor(10 / P), ceil(10 / P)}, within the prescale and `slack` whole events."""
    allowed = {(10 // period_ms) * period_ms * per_ms - 10 * per_ms, -(-10 // period_ms) * period_ms * per_ms - 10 * per_ms}
    got = [e[2] for e in interval_errors(reads, event, scale)]
    tol = scale + slack
    bad = [x for x in got if min(abs(x - a) for a in allowed) > tol]
    check(not bad, f"P = {period_ms} ms {event}: errors in {sorted(allowed)} +- {tol} (outside: {bad[:3]})")
    seen = {a for a in allowed if any(abs(x - a) <= tol for x in got)}
    check(seen == allowed, f"P = {period_ms} ms {event}: both {sorted(allowed)} occur ({sorted(seen)})")


def mba_errors(reads, period_ms):
    # 1e10 bytes/s = 1e7 per ms; scale 1; spread evenly over the injection: +-1 byte per window end.
    constant_rate_errors(reads, period_ms, MBA, per_ms=10_000_000, scale=1, slack=2)


# --- speed 0: postings every 1 ms ------------------------------------------------------------
out, reads, m = simulate(0)
# sample.start: the first read at 30.25 ms, then every 10 ms up to 1030.25 ms (101 reads).
check([r["t"] for r in reads[:3]] == [30_250_000_000_000, 40_250_000_000_000, 50_250_000_000_000],
      f"reads at 30.25, 40.25, 50.25 ms ({[r['t'] for r in reads[:3]]})")
check(len(reads) == 101, f"101 reads in 1031 ms ({len(reads)})")
# sample.truth is the ground truth per interval: writes 25e6/s x 10 ms = 250,000 per interval (from
# 10 ms on); reads in (40.25, 50.25]: cpu0 1/32 to 47 ms = 6.75 ms x 100e6/s = 675,000, then
# 1/256 for 3.25 ms = 40,625; cpu4 10 ms x 50e6/s = 500,000: 1,215,625 (+-1 per CPU: whole events).
wr_true = {c[("truth", WR)] - p[("truth", WR)] for p, c in zip(reads, reads[1:])}
check(wr_true == {250_000}, f"true writes per 10 ms interval = 250,000 ({sorted(wr_true)[:3]})")
mba_true = {c[("truth", MBA)] - p[("truth", MBA)] for p, c in zip(reads, reads[1:])}
check(mba_true == {100_000_000}, f"true MBA bytes per 10 ms = 1e10 B/s x 10 ms ({sorted(mba_true)[:3]})")
rd_40_50 = reads[2][("truth", RD)] - reads[1][("truth", RD)]
check(abs(rd_40_50 - 1_215_625) <= 2, f"true reads in (40.25, 50.25] ms = 1,215,625 ({rd_40_50})")
# stats.json counts to the end (1031 ms): the last read (1030.25 ms) plus 0.75 ms of cpu0 at 1/256
# and cpu4: 0.75 ms x 62.5e6/s = 46,875.
stats = json.load(open(os.path.join(out, "stats.json")))
total = [e["count"] for e in stats["events"] if e["instance"] == "imc0.chip0" and e["event"] == RD]
check(len(total) == 1 and abs(total[0] - reads[-1][("truth", RD)] - 46_875) <= 2,
      f"stats.json total = last sampled truth + 46,875 ({total})")
for event, rate in ((RD, R_RD), (WR, R_WR)):
    worst = max(abs(e[2]) for e in interval_errors(reads, event))
    check(worst <= rate // 1000 + 256 + 4, f"speed 0 {event}: |reader - true| {worst} <= R x 1 ms + 256 + 4")
constant_rate_errors(reads, 1)
mba_errors(reads, 4)
check(m["wr_max_abs_err_pct"] <= 100 * 258 / 250_000 + 1e-9, f"speed 0 write error <= 0.1032 % ({m['wr_max_abs_err_pct']})")
check(m["rd_zero_reads"] == 0, "speed 0: every read interval sees a posting")
check(m["posting_period_ms"] == 1, "speed 0 posts every 1 ms")

# --- speed 2: postings every 3 ms, not dividing 10 ms ------------------------------------------
out, reads, m = simulate(2)
for event, rate in ((RD, R_RD), (WR, R_WR)):
    worst = max(abs(e[2]) for e in interval_errors(reads, event))
    check(worst <= rate * 3 // 1000 + 256 + 4, f"speed 2 {event}: |reader - true| {worst} <= R x 3 ms + 256 + 4")
constant_rate_errors(reads, 3)
mba_errors(reads, 4)
check(m["rd_zero_reads"] == 0, "speed 2: every 10 ms interval holds a 3 ms posting")

# --- speed 11: postings every 12 ms, longer than the reads ---------------------------------
out, reads, m = simulate(11)
for event, rate in ((RD, R_RD), (WR, R_WR)):
    worst = max(abs(e[2]) for e in interval_errors(reads, event))
    check(worst <= rate * 12 // 1000 + 256 + 4, f"speed 11 {event}: |reader - true| {worst} <= R x 12 ms + 256 + 4")
constant_rate_errors(reads, 12)
mba_errors(reads, 8)
# 100 intervals of 10 ms in (30.25, 1030.25] ms; postings 12 ms apart: at most 84 of them (1000 / 12
# = 83.3), each in one interval, so at least 16 intervals see no posting while traffic flows.
check(m["rd_zero_reads"] >= 100 - 84, f"speed 11: read intervals without a posting ({m['rd_zero_reads']})")
check(m["rd_max_abs_err_pct"] >= 100, f"speed 11: a read of 0 under traffic is -100 % ({m['rd_max_abs_err_pct']})")

# --- sample.truth with a pattern that matches nothing: bad input at its line -------------------
bad = os.path.join(tmp, "bad.yaml")
with open(bad, "w") as f:
    f.write("platform: power9-default\nduration: 1ms\nsample:\n  every: 100us\n  truth: [imc0.chip0.PM_NOPE]\n")
r = run("simulate", bad, "-o", os.path.join(tmp, "bad"))
check(r.returncode == 2 and "bad.yaml:5: sample.truth: pattern 'imc0.chip0.PM_NOPE' matches no event" in r.stderr,
      f"unmatched truth pattern: exit 2 at line 5 ({r.returncode}: {r.stderr.strip()})")
finish("whatif imc nest study")
