#!/usr/bin/env python3
"""`pmusim plot` draws every kind as SVG and PNG, byte-stable SVG, clear errors
(docs/whatif.md). Usage: check_plot.py PMUSIM (run from the source tree).
"""
import os
import subprocess
import sys
import tempfile
import xml.dom.minidom

from checklib import PMUSIM, check, finish, run

tmp = tempfile.mkdtemp(prefix="pmusim-plot-")
out = os.path.join(tmp, "tour")
check(run("simulate", "scenarios/examples/tour.yaml", "-o", out).returncode == 0, "tour simulates")
truth = os.path.join(tmp, "truth.csv")
open(truth, "w").write("name,measured,true\nl3d_cache,1050,1000\nbus_access,480,500\n")
results = os.path.join(tmp, "results.csv")
open(results, "w").write("point,const_clock,step_at,exit,err\n0,25MHz,12ms,0,0.4\n1,25MHz,13ms,0,200.5\n"
                         "2,1GHz,12ms,0,0.4\n3,1GHz,13ms,0,200.5\n")
heat = os.path.join(tmp, "xp.csv")
open(heat, "w").write("x,y,value,label\n" + "".join(f"{x},{y},{(x + 1) * (y + 2)},xp{y * 3 + x}\n"
                                                       for y in range(3) for x in range(3)))
cases = {
    "rates": (os.path.join(out, "samples.csv"), ["--opt", "counters=dsu0.PMEVCNTR*,cpu0.amu.AMEVCNTR00"]),
    "truth": (truth, []),
    "sweep": (results, ["--opt", "x=step_at", "--opt", "y=err", "--opt", "group=const_clock"]),
    "heatmap": (heat, ["--opt", "label=flits"]),
}
for kind, (inp, opts) in cases.items():
    for ext in ("svg", "png"):
        fig = os.path.join(tmp, f"{kind}.{ext}")
        r = run("plot", kind, inp, "-o", fig, *opts)
        check(r.returncode == 0 and os.path.getsize(fig) > 1000, f"plot {kind} {ext} ({r.stderr})")
        if ext == "png" and os.path.exists(fig):
            check(open(fig, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"{kind}.png is a PNG")
        if ext == "svg" and os.path.exists(fig):
            first = open(fig, "rb").read()
            xml.dom.minidom.parseString(first)  # well-formed
            if kind == "rates":  # one redraw is enough to show the SVG is byte-stable (CI time)
                run("plot", kind, inp, "-o", fig, *opts)
                check(open(fig, "rb").read() == first, f"{kind}.svg is byte-identical when drawn again")
# The CMN heat-map path: stats.json per-XP truths -> x,y,value,label. No CMN unit publishes them
# yet, so a stats.json of the documented shape stands in: a 3x2 mesh, xpN at (N mod 3, N div 3).
fake = os.path.join(tmp, "cmnrun")
os.makedirs(fake)
open(os.path.join(fake, "config.json"), "w").write('{"platform_params": {"units.cmn0.params.mesh_x": "3"}}')
open(os.path.join(fake, "stats.json"), "w").write(
    '{"events": [' + ",".join(f'{{"unit": "cmn600", "instance": "cmn0.xp{n}", "event": "txflit_valid", "count": {100 * n}}}'
                              for n in range(6)) + ',{"unit": "cmn600", "instance": "cmn0.xp1", "event": "other", "count": 7}]}')
xp = os.path.join(tmp, "xp-from-stats.csv")
h = subprocess.run([sys.executable, "tools/whatif/xp_heatmap.py", fake, "--event", "txflit_valid", "-o", xp],
                   capture_output=True, text=True)
check(h.returncode == 0, f"xp_heatmap converts ({h.stderr})")
check(open(xp).read().splitlines() == ["x,y,value,label", "0,0,0,xp0", "1,0,100,xp1", "2,0,200,xp2",
                                       "0,1,300,xp3", "1,1,400,xp4", "2,1,500,xp5"], "per-XP rows at their mesh positions")
r = run("plot", "heatmap", xp, "-o", os.path.join(tmp, "xp.png"))
check(r.returncode == 0, f"heat map from stats.json ({r.stderr})")
r = run("plot", "truth", results, "-o", os.path.join(tmp, "x.svg"))
check(r.returncode == 2 and "expected columns name, measured, true" in r.stderr, f"missing columns named ({r.stderr})")
r = run("plot", "rates", os.path.join(tmp, "nope.csv"), "-o", os.path.join(tmp, "x.svg"))
check(r.returncode == 2, "a missing input is bad input")
# logx: a logarithmic axis over the clock values; only for positive numbers, only true/false.
r = run("plot", "sweep", results, "-o", os.path.join(tmp, "logx.svg"), "--opt", "x=const_clock", "--opt", "y=err",
        "--opt", "logx=true")
check(r.returncode == 0 and 'id="xtick' in open(os.path.join(tmp, "logx.svg")).read(), f"logx sweep plot ({r.stderr})")
r = run("plot", "sweep", results, "-o", os.path.join(tmp, "x.svg"), "--opt", "x=const_clock", "--opt", "y=err",
        "--opt", "logx=yes")
check(r.returncode == 2 and "logx=yes: expected true or false" in r.stderr, f"logx=yes refused ({r.stderr})")
r = run("plot", "pie", truth, "-o", os.path.join(tmp, "x.svg"))
check(r.returncode == 2, "an unknown kind is refused")
finish()
