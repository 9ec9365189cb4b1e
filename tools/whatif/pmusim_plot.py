#!/usr/bin/python3
"""Figures for pmusim what-if runs (`pmusim plot`, docs/whatif.md).

Kinds and their input CSVs:
  rates    samples.csv of `pmusim simulate`: delta / interval per counter over time
           (opt counters=GLOB over INSTANCE.COUNTER, default every counter that is not a clock)
  truth    CSV with columns name,measured,true: measured against true values, bars
  sweep    results.csv of `pmusim sweep`: y metric(s) against x parameter
           (opt x=PARAM, y=METRIC[,METRIC...], group=PARAM to draw one line per value,
           logx=true for a logarithmic x axis, e.g. frequencies from 19.2MHz to 1GHz)
  heatmap  CSV with columns x,y,value[,label]: a mesh's per-crosspoint values (CMN per-XP traffic)
Common opt: title=TEXT. The output format follows the file's extension (.svg or .png).
Uses Debian's python3-matplotlib; SVG output is byte-stable (no date, fixed hash salt).
"""
import argparse
import csv
import fnmatch
import re
import sys

plt = None  # matplotlib.pyplot, imported once the arguments are checked (it takes a second to load)

UNITS = {
    "fs": 1e-15, "ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0,
    "hz": 1.0, "khz": 1e3, "mhz": 1e6, "ghz": 1e9,
}


def numeric(text):
    """'25MHz' -> 25e6, '12ms' -> 0.012, '3' -> 3.0; None when not a number."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]*)\s*", text or "")
    if not m:
        try:
            return float(text)
        except (TypeError, ValueError):
            return None
    unit = m.group(2).lower()
    if unit and unit not in UNITS:
        return None
    return float(m.group(1)) * (UNITS[unit] if unit else 1.0)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fail(message):
    print(f"pmusim plot: {message}", file=sys.stderr)
    sys.exit(2)


def need_columns(rows, path, columns):
    if not rows:
        fail(f"{path}: no rows")
    missing = [c for c in columns if c not in rows[0]]
    if missing:
        fail(f"{path}: expected columns {', '.join(columns)}; missing {', '.join(missing)}")


def plot_rates(ax, paths, opts):
    rows = read_csv(paths[0])
    need_columns(rows, paths[0], ["time_fs", "unit", "instance", "counter", "delta"])
    pattern = opts.get("counters")
    series = {}
    last_time = {}
    for r in rows:
        name = f"{r['instance']}.{r['counter']}"
        if pattern is None and r["unit"] == "clock":
            continue
        if pattern is not None and not any(fnmatch.fnmatchcase(name, p) for p in pattern.split(",")):
            continue
        t = int(r["time_fs"])
        prev = last_time.get(name, 0)
        last_time[name] = t
        if t == prev:
            continue
        rate = int(r["delta"]) / ((t - prev) * 1e-15)  # events per second over the interval
        if r["unit"] == "clock":
            rate = int(r["value"])  # a clock row's value is its frequency
        series.setdefault(name, ([], []))
        series[name][0].append(t * 1e-12)  # ms
        series[name][1].append(rate)
    if not series:
        fail(f"{paths[0]}: no counter matches {pattern!r}")
    for name in sorted(series):
        xs, ys = series[name]
        ax.step(xs, ys, where="pre", label=name)
    ax.set_xlabel("simulated time (ms)")
    ax.set_ylabel("events per second (interval average)")
    ax.legend(fontsize="small")


def plot_truth(ax, paths, opts):
    rows = read_csv(paths[0])
    need_columns(rows, paths[0], ["name", "measured", "true"])
    names = [r["name"] for r in rows]
    measured = [float(r["measured"]) for r in rows]
    true = [float(r["true"]) for r in rows]
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], true, width=0.4, label="true")
    ax.bar([x + 0.2 for x in xs], measured, width=0.4, label="measured")
    for x, m, t in zip(xs, measured, true):
        if t:
            ax.annotate(f"{(m - t) / t * 100:+.2f}%", (x, max(m, t)), ha="center", va="bottom", fontsize="x-small")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names, rotation=30, ha="right", fontsize="small")
    ax.set_ylabel("count")
    ax.legend(fontsize="small")


def plot_sweep(ax, paths, opts):
    rows = []
    for p in paths:
        rows += read_csv(p)
    x = opts.get("x")
    ys = opts.get("y", "").split(",") if opts.get("y") else []
    if not x or not ys:
        fail("sweep needs --opt x=PARAM --opt y=METRIC[,METRIC]")
    need_columns(rows, paths[0], [x] + ys + ([opts["group"]] if "group" in opts else []))
    group = opts.get("group")
    groups = {}
    for r in rows:
        groups.setdefault(r[group] if group else "", []).append(r)
    categorical = any(numeric(r[x]) is None for r in rows)
    cats = sorted({r[x] for r in rows}) if categorical else None
    if opts.get("logx", "false") not in ("true", "false"):
        fail(f"--opt logx={opts['logx']}: expected true or false")
    if opts.get("logx") == "true":
        if categorical or any(numeric(r[x]) <= 0 for r in rows):
            fail(f"--opt logx=true: column {x} needs positive numbers")
        ax.set_xscale("log")
        ax.minorticks_off()
        ax.tick_params(axis="x", labelrotation=30)  # close values (24MHz, 25MHz) stay legible
    for g in sorted(groups, key=lambda v: (numeric(v) is None, numeric(v) or 0, v)):
        for y in ys:
            pts = []
            for r in groups[g]:
                if r[y] == "":
                    continue
                xv = cats.index(r[x]) if categorical else numeric(r[x])
                pts.append((xv, float(r[y])))
            pts.sort()
            label = " ".join(s for s in [f"{group}={g}" if group else "", y if len(ys) > 1 or not group else ""] if s)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label or y)
    if categorical:
        ax.set_xticks(range(len(cats)))
        ax.set_xticklabels(cats)
    elif any(re.search(r"[a-zA-Z]", r[x]) for r in rows):
        # Values written with units (25MHz, 12ms): ticks at the values, labelled as written.
        written = {numeric(r[x]): r[x] for r in rows}
        ax.set_xticks(sorted(written))
        ax.set_xticklabels([written[v] for v in sorted(written)])
    ax.set_xlabel(x)
    ax.set_ylabel(", ".join(ys))
    ax.legend(fontsize="small")


def plot_heatmap(ax, paths, opts):
    rows = read_csv(paths[0])
    need_columns(rows, paths[0], ["x", "y", "value"])
    w = max(int(r["x"]) for r in rows) + 1
    h = max(int(r["y"]) for r in rows) + 1
    grid = [[0.0] * w for _ in range(h)]
    labels = {}
    for r in rows:
        grid[int(r["y"])][int(r["x"])] += float(r["value"])
        if r.get("label"):
            labels[(int(r["x"]), int(r["y"]))] = r["label"]
    im = ax.imshow(grid, origin="lower", cmap="inferno")
    for yy in range(h):
        for xx in range(w):
            text = f"{grid[yy][xx]:.4g}"
            if (xx, yy) in labels:
                text = labels[(xx, yy)] + "\n" + text
            ax.text(xx, yy, text, ha="center", va="center", fontsize="small",
                    color="white" if grid[yy][xx] < max(max(row) for row in grid) / 2 else "black")
    ax.set_xticks(range(w))
    ax.set_yticks(range(h))
    ax.set_xlabel("XP x")
    ax.set_ylabel("XP y")
    plt.colorbar(im, ax=ax, label=opts.get("label", "value"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["rates", "truth", "sweep", "heatmap"])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--opt", action="append", default=[], help="KEY=VALUE")
    a = ap.parse_args()
    opts = {}
    for o in a.opt:
        if "=" not in o:
            fail(f"--opt {o}: expected KEY=VALUE")
        k, v = o.split("=", 1)
        opts[k] = v
    if not a.output.endswith((".svg", ".png")):
        fail(f"{a.output}: expected a .svg or .png file name")
    for p in a.inputs:
        try:
            open(p).close()
        except OSError as e:
            fail(f"{p}: {e.strerror}")
    global plt
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "pmusim"
    import matplotlib.pyplot
    plt = matplotlib.pyplot
    fig, ax = plt.subplots(figsize=(8, 4.5))
    {"rates": plot_rates, "truth": plot_truth, "sweep": plot_sweep, "heatmap": plot_heatmap}[a.kind](ax, a.inputs, opts)
    ax.set_title(opts.get("title", f"pmusim {a.kind}: {a.inputs[0]}"), fontsize="medium")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    meta = {"Date": None} if a.output.endswith(".svg") else {}
    fig.savefig(a.output, metadata=meta, dpi=100)


if __name__ == "__main__":
    main()
