#!/usr/bin/env python3
"""`pmusim plot` draws every kind as SVG and PNG, byte-stable SVG, clear errors
(docs/whatif.md). Usage: check_plot.py PMUSIM (run from the source tree).
"""
import os
import re
import resource
import stat
import subprocess
import sys
import tempfile
import time
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


def texts(svg):
    """The texts of an SVG drawn by matplotlib (each glyph run is preceded by a comment of its text)."""
    return re.findall(r"<!-- (.*?) -->", open(svg).read())


# The legend follows the event: the tour moves dsu0 counter 2 from CYCLES (0x11) to L3D_CACHE
# (0x2B) at 1 ms (scenarios/examples/tour.yaml), so that counter is two series.
fig = os.path.join(tmp, "split.svg")
r = run("plot", "rates", os.path.join(out, "samples.csv"), "-o", fig, "--opt",
        "counters=dsu0.PMEVCNTR2,dsu0.PMEVCNTR3,dsu0.PMEVCNTR4,cpu0.frequency_hz")
t = texts(fig) if r.returncode == 0 else []
check("dsu0.PMEVCNTR2 (0x11 cycles)" in t and "dsu0.PMEVCNTR2 (0x2b l3d_cache)" in t, f"one series per event ({r.stderr} {t})")
# Clocks get their own panel and unit: events/s and Hz never share an axis.
check("events per second (interval average)" in t and "frequency (Hz)" in t, f"a panel per unit ({t})")
check(any(x.endswith(" GHz") for x in t) and not any(x.endswith("Hz") and "/s" in x for x in t), f"Hz ticks on the Hz axis only ({t})")
# Coinciding series: the unimplemented counters 3..5 read 0 throughout; the later ones say so.
check("dsu0.PMEVCNTR4 (0x0 unimplemented) = dsu0.PMEVCNTR3" in t, f"a coinciding series is named in the legend ({t})")
# Sweep metrics of different units get a panel each, labelled with the unit.
mixed = os.path.join(tmp, "mixed.csv")
open(mixed, "w").write("point,clk,exit,err_pct,bw_GBps\n0,1GHz,0,1.5,10\n1,2GHz,0,0.5,20\n")
fig = os.path.join(tmp, "mixed.svg")
r = run("plot", "sweep", mixed, "-o", fig, "--opt", "x=clk", "--opt", "y=err_pct,bw_GBps")
t = texts(fig) if r.returncode == 0 else []
check("err_pct (%)" in t and "bw_GBps (GB/s)" in t, f"a panel per metric unit ({r.stderr} {t})")
# Rationals are numbers (the scenario language writes rates as 1/10): a sweep over 1/10, 1/4, 1/2
# is ordered by value, not as text (1/10, 1/2, 1/4 drew a peak that was not there), and ticks keep
# the written form; a metric named *_per_s is a rate (1/s), not a time in seconds.
rat = os.path.join(tmp, "rational.csv")
open(rat, "w").write("point,miss_ratio,exit,l3_access_per_s\n0,1/2,0,9\n1,1/10,0,5\n2,1/4,0,7\n")
fig = os.path.join(tmp, "rational.svg")
r = run("plot", "sweep", rat, "-o", fig, "--opt", "x=miss_ratio", "--opt", "y=l3_access_per_s")
t = texts(fig) if r.returncode == 0 else []
ticks = [x for x in t if x in ("1/10", "1/4", "1/2")]
check(ticks == ["1/10", "1/4", "1/2"], f"rational x values in numeric order ({r.stderr} {ticks})")
check("l3_access_per_s (1/s)" in t and not any(x.endswith("(s)") for x in t), f"a *_per_s metric is labelled 1/s ({t})")
# The heat map writes counts as counts (15,000, not 1.5e+04) and picks the text colour by the
# cell colour's luminance: white on inferno's dark low end and middle, black on its bright top.
hm = os.path.join(tmp, "counts.csv")
open(hm, "w").write("x,y,value\n0,0,3\n1,0,15000\n0,1,7500\n1,1,30001\n")
fig = os.path.join(tmp, "counts.svg")
r = run("plot", "heatmap", hm, "-o", fig)
body = open(fig).read() if r.returncode == 0 else ""


def fill_after(svg, text):
    """The fill of the glyph group drawn for `text` (matplotlib's default, black, has no style)."""
    at = svg.find(f"<!-- {text} -->")
    if at < 0:
        return None
    nxt = svg.find("<!--", at + 4)
    m = re.search(r"fill: (#[0-9a-f]{6})", svg[at:nxt if nxt > 0 else len(svg)])
    return m.group(1) if m else "#000000"


check(all(f"<!-- {v} -->" in body for v in ("15,000", "7,500", "30,001")) and "e+04" not in body,
      f"heat-map cells as whole counts with separators ({r.stderr})")
check(fill_after(body, "3") == "#ffffff" and fill_after(body, "15,000") == "#ffffff", "white text on dark cells")
check(fill_after(body, "30,001") == "#000000", "black text on the brightest cell")
# Bars are categories: every bar is named on the axis, none left blank to avoid a collision
# (8 long counter names, as the DSU multiplexing study's detail figure has).
names = ["bus_access", "bus_access_rd", "bus_access_wr", "l3d_cache", "l3d_cache_allocate", "l3d_cache_rd",
         "l3d_cache_refill", "l3d_cache_wb"]
bars = os.path.join(tmp, "bars.csv")
open(bars, "w").write("name,measured,true\n" + "".join(f"{n},{1000 + i},{1010 + i}\n" for i, n in enumerate(names)))
fig = os.path.join(tmp, "bars.svg")
r = run("plot", "truth", bars, "-o", fig)
t = texts(fig) if r.returncode == 0 else []
check(all(n in t for n in names), f"every bar named on the axis ({r.stderr} {[n for n in names if n not in t]})")
# Many series: distinct styles (colour, marker, dash) for 24 groups.
many = os.path.join(tmp, "many.csv")
open(many, "w").write("g,x,y\n" + "".join(f"{g},{x},{g * 10 + x}\n" for g in range(24) for x in range(3)))
fig = os.path.join(tmp, "many.svg")
r = run("plot", "sweep", many, "-o", fig, "--opt", "x=x", "--opt", "y=y", "--opt", "group=g")
check(r.returncode == 0, f"24 series ({r.stderr})")


def refused(label, args, needle):
    r = run("plot", *args)
    check(r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr,
          f"{label}: exit 2, '{needle}', no traceback ({r.returncode}: {r.stderr[-400:]})")


svg = os.path.join(tmp, "bad.svg")
refused("unknown --opt", ["sweep", results, "-o", svg, "--opt", "x=step_at", "--opt", "y=err", "--opt", "colour=red"],
        "--opt colour=red: unknown option 'colour' for sweep (allowed: group, logx, title, x, y)")
refused("an option of another kind", ["truth", truth, "-o", svg, "--opt", "counters=x"], "unknown option 'counters' for truth")
bad = os.path.join(tmp, "bad-delta.csv")
open(bad, "w").write("time_fs,unit,instance,counter,delta\n100,amu,cpu0,C,5\n200,amu,cpu0,C,lots\n")
refused("a non-numeric field", ["rates", bad, "-o", svg], f"{bad}:3: delta: expected an integer, found 'lots'")
ragged = os.path.join(tmp, "ragged.csv")
open(ragged, "w").write("name,measured,true\na,1,2\nb,1\n")
refused("a short row", ["truth", ragged, "-o", svg], f"{ragged}:3: expected 3 fields as in the header, found 2")
binary = os.path.join(tmp, "binary.csv")
open(binary, "wb").write(b"name,measured,true\n\xff\xfe,1,2\n")
refused("not UTF-8", ["truth", binary, "-o", svg], f"{binary}: not UTF-8 text")
empty = os.path.join(tmp, "empty.csv")
open(empty, "w").close()
refused("an empty file", ["truth", empty, "-o", svg], f"{empty}: empty file")
refused("a folder as input", ["truth", tmp, "-o", svg], f"{tmp}: is a folder")
refused("an output folder that does not exist", ["truth", truth, "-o", os.path.join(tmp, "nowhere", "x.svg")], "cannot write: no folder")
os.makedirs(os.path.join(tmp, "adir.svg"))
refused("an output that is a folder", ["truth", truth, "-o", os.path.join(tmp, "adir.svg")], "cannot write: is a folder")
same = os.path.join(tmp, "same-in-out.svg")
open(same, "w").write("name,measured,true\na,1,2\n")
before = open(same).read()
refused("the output is an input", ["truth", same, "-o", same], "the output is one of the inputs")
check(open(same).read() == before, "the input is intact")
# A special file is written in place, not replaced: /dev/null stays a character device.
devnull_link = os.path.join(tmp, "devnull.svg")
os.symlink("/dev/null", devnull_link)
r = run("plot", "truth", truth, "-o", devnull_link)
check(r.returncode == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode) and os.path.islink(devnull_link),
      f"an output linked to /dev/null is written through, /dev/null stays a device ({r.stderr})")
# A heat map claiming x = y = 100000 is refused at once, in bounded memory.
huge = os.path.join(tmp, "huge.csv")
open(huge, "w").write("x,y,value\n0,0,1\n100000,100000,5\n")
start = time.monotonic()
r = subprocess.run([PMUSIM, "plot", "heatmap", huge, "-o", svg], capture_output=True, text=True,
                   # Not under AddressSanitizer, which reserves terabytes of shadow addresses at start.
                   preexec_fn=None if os.environ.get("ASAN_OPTIONS") else
                   lambda: resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30)))
check(r.returncode == 2 and f"{huge}:3: x: expected a crosspoint coordinate 0..255, found 100000" in r.stderr
      and time.monotonic() - start < 30, f"a huge heat map refused ({r.returncode} {r.stderr[-300:]})")
finish()
