#!/usr/bin/python3
"""Figures for pmusim what-if runs (`pmusim plot`, docs/whatif.md).

Kinds and their input CSVs:
  rates    samples.csv of `pmusim simulate`: delta / interval per counter over time
           (opt counters=GLOB over INSTANCE.COUNTER, default every counter that is not a clock).
           A counter whose event changed during the run is one series per event; clock rows
           (their frequency) get a panel of their own with a Hz axis.
  truth    CSV with columns name,measured,true: measured against true values, bars
  sweep    results.csv of `pmusim sweep`: y metric(s) against x parameter
           (opt x=PARAM, y=METRIC[,METRIC...], group=PARAM to draw one line per value,
           logx=true for a logarithmic x axis, e.g. frequencies from 19.2MHz to 1GHz).
           Metrics of different units (by their name's suffix: _pct, _GBps, _ms, ...) get a
           panel each.
  heatmap  CSV with columns x,y,value[,label]: a mesh's per-crosspoint values (CMN per-XP traffic),
           at most 256 x 256 crosspoints (opt label=colour bar label)
Common opt: title=TEXT; any other key is refused. The output format follows the file's extension
(.svg or .png). Every series has its own colour, marker and line style; a series that coincides
with one drawn before it says so in the legend. Bad input (a missing or malformed CSV, an
unwritable output) is reported as `pmusim plot: FILE[:LINE]: what was expected` with exit 2.
Uses Debian's python3-matplotlib; SVG output is byte-stable (no date, fixed hash salt).
"""
import argparse
import csv
import fnmatch
import math
import os
import re
import sys

plt = None  # matplotlib.pyplot, imported once the arguments are checked (it takes a second to load)

UNITS = {
    "fs": 1e-15, "ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0,
    "hz": 1.0, "khz": 1e3, "mhz": 1e6, "ghz": 1e9,
}
OPTIONS = {
    "rates": {"counters", "title"},
    "truth": {"title"},
    "sweep": {"x", "y", "group", "logx", "title"},
    "heatmap": {"label", "title"},
}
MAX_HEATMAP_SIDE = 256   # crosspoints per side (CMN-600 meshes are at most 8 x 8)
MAX_CELL_TEXTS = 1024    # above, cells carry no value text (it would be unreadable)
MAX_TICK_LABELS = 16
# matplotlib's axis arithmetic (limits with margins, tick steps) overflows a double for values
# near 1e308 and fails with a traceback; at most 1e300 in magnitude leaves it ample headroom.
MAX_MAGNITUDE = 1e300


class BadInput(Exception):
    """Bad input: reported as 'pmusim plot: MESSAGE', exit 2."""


def fail(message):
    raise BadInput(message)


def numeric(text):
    """'25MHz' -> 25e6, '12ms' -> 0.012, '3' -> 3.0, '1/4' -> 0.25 (a rational, as the scenario
    language writes rates); None when not a number."""
    q = re.fullmatch(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*", text or "")
    if q:
        return int(q.group(1)) / int(q.group(2)) if int(q.group(2)) else None
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]*)\s*", text or "")
    if not m:
        try:
            v = float(text)
        except (TypeError, ValueError):
            return None
        return v if math.isfinite(v) else None
    unit = m.group(2).lower()
    if unit and unit not in UNITS:
        return None
    return float(m.group(1)) * (UNITS[unit] if unit else 1.0)


class Row(dict):
    """A CSV row that knows where it came from, for messages."""
    where = ""


def read_csv(path):
    """Rows of a CSV with a header; every row must have the header's number of fields."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if not header:
                fail(f"{path}: empty file: expected a header line")
            rows = []
            for fields in reader:
                if not fields:
                    continue
                if len(fields) != len(header):
                    fail(f"{path}:{reader.line_num}: expected {len(header)} fields as in the header, found {len(fields)}")
                r = Row(zip(header, fields))
                r.where = f"{path}:{reader.line_num}"
                rows.append(r)
            return rows
    except UnicodeDecodeError as e:
        fail(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})")
    except csv.Error as e:
        fail(f"{path}: malformed CSV: {e}")
    except OSError as e:
        fail(f"{path}: cannot read: {e.strerror}")


def number(row, column, integer=False):
    text = row[column]
    try:
        v = int(text) if integer else float(text)
    except ValueError:
        fail(f"{row.where}: {column}: expected {'an integer' if integer else 'a number'}, found {text!r}")
    if not integer and not math.isfinite(v):
        fail(f"{row.where}: {column}: expected a finite number, found {text!r}")
    return drawable(v, row, column, text)


def drawable(v, row, column, text):
    if abs(v) > MAX_MAGNITUDE:
        fail(f"{row.where}: {column}: expected a number of magnitude at most {MAX_MAGNITUDE:g} (a figure's "
             f"axes cannot span more), found {text!r}")
    return v


def need_columns(rows, path, columns):
    if not rows:
        fail(f"{path}: no rows")
    missing = [c for c in columns if c not in rows[0]]
    if missing:
        fail(f"{path}: expected columns {', '.join(columns)}; missing {', '.join(missing)}")


# --- styles: every series distinguishable ------------------------------------------------------
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*"]
DASHES = ["-", "--", ":", "-."]


def palette(n):
    """Colours: tab10 up to 10 series, tab20 up to 20, then tab20 again (markers and dashes differ)."""
    if n <= 10:
        cmap = plt.get_cmap("tab10")
        return [cmap(i) for i in range(max(n, 1))]
    cmap = plt.get_cmap("tab20")  # its strong shades first, then the light ones
    order = list(range(0, 20, 2)) + list(range(1, 20, 2))
    return [cmap(order[i % 20]) for i in range(n)]


def style(i, n):
    """Colour, marker and dash of series i of n: no two series share all three; later series get
    smaller markers so a series drawn over an earlier one leaves the earlier one's marker visible."""
    dash = DASHES[(i // 10) % len(DASHES)] if n > 10 else DASHES[i % len(DASHES)]
    return dict(color=palette(n)[i], marker=MARKERS[i % len(MARKERS)], linestyle=dash,
                markersize=max(3.0, 8.0 - 4.0 * i / max(n - 1, 1)), markerfacecolor="none" if i % 2 else None)


def draw_series(ax, series, step=False):
    """series: list of (label, xs, ys) in drawing order. A series equal to an earlier one (same
    points) is still drawn, and its legend entry names the one it coincides with."""
    drawn = {}
    n = len(series)
    for i, (label, xs, ys) in enumerate(series):
        key = (tuple(xs), tuple(ys))
        if key in drawn:
            label = f"{label} = {drawn[key]}"  # drawn under it: say so rather than hide it
        else:
            drawn[key] = label.split(" (")[0]
        kw = style(i, n)
        if step:
            ax.step(xs, ys, where="pre", label=label, **kw)
        else:
            ax.plot(xs, ys, label=label, **kw)
    # Outside the axes, on the right: a legend inside would hide the lines it names.
    ax.legend(fontsize="small" if n <= 12 else "x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0.0, ncol=2 if n > 24 else 1)


def readable_ticks(ax, positions, labels, log=False, categories=False):
    """Ticks at every position. Numeric values: labels only where they do not collide (at most
    MAX_TICK_LABELS, each far enough from the previous one for its text: on a log axis, close
    values such as 19.2MHz, 24MHz and 25MHz would print over each other), rotated when long or
    many. Categories (counter names, bars): every label, since a bar without its name cannot be
    read off any other tick; rotated further, up to vertical, as they get longer and more."""
    where = [math.log10(p) for p in positions] if log else list(positions)
    span = (max(where) - min(where)) if len(where) > 1 else 1.0
    # A label is about 0.08 inch per character wide on an axis of about 6 inches.
    shown, last, last_len = [], None, 0
    for w, label in zip(where, labels):
        keep = categories or last is None or (w - last) >= span * max(1 / MAX_TICK_LABELS, (last_len + 1) * 0.08 / 6)
        shown.append(label if keep else "")
        if keep:
            last, last_len = w, len(label)
    ax.set_xticks(list(positions))
    ax.set_xticklabels(shown)
    visible = [s for s in shown if s]
    longest = max((len(s) for s in visible), default=0)
    if categories and len(visible) * (longest + 1) * 0.08 > 6 * 1.5:
        ax.tick_params(axis="x", labelrotation=90 if len(visible) > 16 else 60)
    elif len(visible) > 6 or longest > 8:
        ax.tick_params(axis="x", labelrotation=30)
    if any(t.get_rotation() for t in ax.get_xticklabels()):
        for t in ax.get_xticklabels():
            t.set_horizontalalignment("right")
            t.set_rotation_mode("anchor")


# --- kinds ---------------------------------------------------------------------------------------
def plot_rates(fig, paths, opts):
    rows = read_csv(paths[0])
    need_columns(rows, paths[0], ["time_fs", "unit", "instance", "counter", "delta"])
    pattern = opts.get("counters")
    has_event = "event" in rows[0]
    counters, clocks = {}, {}
    last_time = {}
    for r in rows:
        name = f"{r['instance']}.{r['counter']}"
        is_clock = r["unit"] == "clock"
        if pattern is None and is_clock:
            continue
        if pattern is not None and not any(fnmatch.fnmatchcase(name, p) for p in pattern.split(",")):
            continue
        t = number(r, "time_fs", integer=True)
        prev = last_time.get(name, 0)
        last_time[name] = t
        if t < prev:
            fail(f"{r.where}: time_fs: {t} is before the previous sample of {name} ({prev})")
        if t == prev:
            continue
        if is_clock:
            if "value" not in r:
                fail(f"{r.where}: a clock row needs the value column (its frequency)")
            y = number(r, "value", integer=True)  # a clock row's value is its frequency in Hz
            key = name
        else:
            y = number(r, "delta", integer=True) / ((t - prev) * 1e-15)  # events per second over the interval
            # The legend follows what the counter counted: one series per (counter, event), an
            # interval belonging to the event the row names (the event counted at its end).
            key = f"{name} ({r['event']})" if has_event and r["event"] else name
        target = clocks if is_clock else counters
        xs, ys = target.setdefault(key, ([], []))
        xs.append(t * 1e-12)  # ms
        ys.append(y)
    if not counters and not clocks:
        fail(f"{paths[0]}: no counter matches {pattern!r}")
    panels = [p for p in ((counters, "events per second (interval average)", True), (clocks, "frequency (Hz)", True)) if p[0]]
    axes = fig.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0]
    from matplotlib.ticker import EngFormatter
    for ax, (series, ylabel, step) in zip(axes, panels):
        draw_series(ax, [(k, *series[k]) for k in sorted(series)], step=step)
        ax.set_ylabel(ylabel)
        ax.yaxis.set_major_formatter(EngFormatter(unit="Hz" if series is clocks else "/s"))
    axes[-1].set_xlabel("simulated time (ms)")
    return axes


def plot_truth(fig, paths, opts):
    ax = fig.subplots()
    rows = read_csv(paths[0])
    need_columns(rows, paths[0], ["name", "measured", "true"])
    names = [r["name"] for r in rows]
    measured = [number(r, "measured") for r in rows]
    true = [number(r, "true") for r in rows]
    xs = list(range(len(names)))
    colours = palette(2)
    ax.bar([x - 0.2 for x in xs], true, width=0.4, label="true", color=colours[0])
    ax.bar([x + 0.2 for x in xs], measured, width=0.4, label="measured", color=colours[1], hatch="//", edgecolor="white")
    for x, m, t in zip(xs, measured, true):
        if t:
            ax.annotate(f"{(m - t) / t * 100:+.2f}%", (x, max(m, t)), ha="center", va="bottom", fontsize="x-small")
    readable_ticks(ax, xs, names, categories=True)
    from matplotlib.ticker import EngFormatter
    ax.yaxis.set_major_formatter(EngFormatter())
    ax.set_ylabel("count")
    ax.legend(fontsize="small")
    return [ax]


# A metric's unit from its name's suffix (max_abs_err_pct -> %); metrics of one unit share a panel.
SUFFIX_UNITS = {"pct": "%", "gbps": "GB/s", "mbps": "MB/s", "ms": "ms", "us": "us", "ns": "ns", "s": "s",
                "hz": "Hz", "mhz": "MHz", "ghz": "GHz", "1024": "1/1024", "cycles": "cycles", "bytes": "bytes"}


def unit_of(column):
    # A rate: l3_access_per_s is events per second (1/s), not a time in seconds.
    per = re.search(r"_per_([A-Za-z0-9]+)$", column)
    if per:
        unit = SUFFIX_UNITS.get(per.group(1).lower(), per.group(1))
        return "1/" + unit if unit in ("s", "ms", "us", "ns", "cycles") else "/" + unit
    suffix = column.rsplit("_", 1)[-1].lower() if "_" in column else ""
    return SUFFIX_UNITS.get(suffix, "")


def plot_sweep(fig, paths, opts):
    rows = []
    for p in paths:
        rows += read_csv(p)
    x = opts.get("x")
    ys = [y for y in opts.get("y", "").split(",") if y]
    if not x or not ys:
        fail("sweep needs --opt x=PARAM --opt y=METRIC[,METRIC]")
    group = opts.get("group")
    need_columns(rows, paths[0], [x] + ys + ([group] if group else []))
    groups = {}
    for r in rows:
        groups.setdefault(r[group] if group else "", []).append(r)
    categorical = any(numeric(r[x]) is None for r in rows)
    if not categorical:
        for r in rows:
            drawable(numeric(r[x]), r, x, r[x])
    cats = sorted({r[x] for r in rows}) if categorical else None
    if opts.get("logx", "false") not in ("true", "false"):
        fail(f"--opt logx={opts['logx']}: expected true or false")
    logx = opts.get("logx") == "true"
    if logx and (categorical or any(numeric(r[x]) <= 0 for r in rows)):
        fail(f"--opt logx=true: column {x} needs positive numbers")
    # One panel per recognised unit when metrics of two or more units are drawn (a % beside GB/s
    # would share one meaningless axis); metrics without a recognised unit join the first panel.
    units = list(dict.fromkeys(unit_of(y) for y in ys if unit_of(y)))
    panel_of = {y: (units.index(unit_of(y)) if unit_of(y) in units and len(units) > 1 else 0) for y in ys}
    axes = fig.subplots(max(len(units), 1), 1, sharex=True, squeeze=False)[:, 0]
    for panel, ax in enumerate(axes):
        series = []
        mine = [y for y in ys if panel_of[y] == panel]
        for g in sorted(groups, key=lambda v: (numeric(v) is None, numeric(v) or 0, v)):
            for y in mine:
                pts = []
                for r in groups[g]:
                    if r[y] == "":
                        continue
                    xv = cats.index(r[x]) if categorical else numeric(r[x])
                    pts.append((xv, number(r, y)))
                pts.sort()
                label = " ".join(s for s in [f"{group}={g}" if group else "", y if len(ys) > 1 or not group else ""] if s)
                series.append((label or y, [p[0] for p in pts], [p[1] for p in pts]))
        draw_series(ax, series)
        names = ", ".join(mine)
        common = {unit_of(y) for y in mine}
        unit = common.pop() if len(common) == 1 else ""
        ax.set_ylabel(f"{names} ({unit})" if unit else names, fontsize="small" if len(names) > 40 else None)
        if logx:
            ax.set_xscale("log")
            ax.minorticks_off()
    bottom = axes[-1]
    if categorical:
        readable_ticks(bottom, list(range(len(cats))), cats, categories=True)
    elif any(re.search(r"[a-zA-Z/]", r[x]) for r in rows):
        # Values written with units (25MHz, 12ms) or as rationals (1/4): ticks at the values,
        # labelled as written, in numeric order.
        written = {numeric(r[x]): r[x] for r in rows}
        readable_ticks(bottom, sorted(written), [written[v] for v in sorted(written)], log=logx)
    bottom.set_xlabel(x)
    return axes


def cell_text(v):
    """A heat-map cell's value as a reader wants it: whole counts with thousands separators
    (15,000, not 1.5e+04), other values with 4 significant digits."""
    if float(v).is_integer() and abs(v) < 1e15:
        return f"{int(v):,}"
    return f"{v:,.4g}" if abs(v) < 1e6 else f"{v:.4g}"


def text_colour_on(rgba):
    """Black or white, whichever contrasts more with the cell colour (WCAG relative luminance:
    the colour map's lightness is not linear in the value, so half the maximum is no threshold)."""
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    lum = 0.2126 * linear(rgba[0]) + 0.7152 * linear(rgba[1]) + 0.0722 * linear(rgba[2])
    # Contrast ratio against white (1.05 / (lum + 0.05)) and against black ((lum + 0.05) / 0.05).
    return "black" if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else "white"


def plot_heatmap(fig, paths, opts):
    ax = fig.subplots()
    rows = read_csv(paths[0])
    need_columns(rows, paths[0], ["x", "y", "value"])
    cells = {}
    labels = {}
    for r in rows:
        xx, yy = number(r, "x", integer=True), number(r, "y", integer=True)
        for name, v in (("x", xx), ("y", yy)):
            if not 0 <= v < MAX_HEATMAP_SIDE:
                fail(f"{r.where}: {name}: expected a crosspoint coordinate 0..{MAX_HEATMAP_SIDE - 1}, found {v}")
        cells[(xx, yy)] = cells.get((xx, yy), 0.0) + number(r, "value")
        if r.get("label"):
            labels[(xx, yy)] = r["label"]
    w = max(k[0] for k in cells) + 1
    h = max(k[1] for k in cells) + 1
    grid = [[cells.get((xx, yy), 0.0) for xx in range(w)] for yy in range(h)]
    im = ax.imshow(grid, origin="lower", cmap="inferno")
    if w * h <= MAX_CELL_TEXTS:
        for yy in range(h):
            for xx in range(w):
                text = cell_text(grid[yy][xx])
                if (xx, yy) in labels:
                    text = labels[(xx, yy)] + "\n" + text
                ax.text(xx, yy, text, ha="center", va="center", fontsize="small",
                        color=text_colour_on(im.cmap(im.norm(grid[yy][xx]))))
    step_x, step_y = max(1, math.ceil(w / MAX_TICK_LABELS)), max(1, math.ceil(h / MAX_TICK_LABELS))
    ax.set_xticks(range(0, w, step_x))
    ax.set_yticks(range(0, h, step_y))
    ax.set_xlabel("XP x")
    ax.set_ylabel("XP y")
    plt.colorbar(im, ax=ax, label=opts.get("label", "value"))
    return [ax]


def check_output(path, inputs):
    """The output: .svg/.png, not one of the inputs, in a folder that exists. Returns where to
    write: a regular file is written beside it and renamed (an interrupted run leaves the old one);
    a special file (/dev/null, a FIFO) is written in place; a symlink is followed."""
    if not path.endswith((".svg", ".png")):
        fail(f"{path}: expected a .svg or .png file name")
    real = os.path.realpath(path)
    for i in inputs:
        if os.path.realpath(i) == real:
            fail(f"{path}: the output is one of the inputs; refusing to overwrite it")
    folder = os.path.dirname(real) or "."
    if not os.path.isdir(folder):
        fail(f"{path}: cannot write: no folder {folder}")
    if os.path.isdir(real):
        fail(f"{path}: cannot write: is a folder")
    if os.path.exists(real) and not os.path.isfile(real):
        return real, None
    return real, os.path.join(folder, f".{os.path.basename(real)}.tmp-{os.getpid()}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=sorted(OPTIONS))
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--opt", action="append", default=[], help="KEY=VALUE")
    a = ap.parse_args()
    opts = {}
    for o in a.opt:
        if "=" not in o:
            fail(f"--opt {o}: expected KEY=VALUE")
        k, v = o.split("=", 1)
        if k not in OPTIONS[a.kind]:
            fail(f"--opt {o}: unknown option '{k}' for {a.kind} (allowed: {', '.join(sorted(OPTIONS[a.kind]))})")
        if k in opts:
            fail(f"--opt {o}: '{k}' given twice")
        opts[k] = v
    for p in a.inputs:
        if os.path.isdir(p):
            fail(f"{p}: is a folder: expected a CSV file")
        try:
            open(p).close()
        except OSError as e:
            fail(f"{p}: {e.strerror}")
    final, temp = check_output(a.output, a.inputs)
    global plt
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "pmusim"
    import matplotlib.pyplot
    plt = matplotlib.pyplot
    fig = plt.figure(figsize=(9, 4.5), layout="constrained")  # room for the legends beside the axes
    axes = {"rates": plot_rates, "truth": plot_truth, "sweep": plot_sweep, "heatmap": plot_heatmap}[a.kind](fig, a.inputs, opts)
    if len(axes) > 1:
        fig.set_size_inches(fig.get_figwidth(), 2.2 + 2.3 * len(axes))
    # Wide enough for the legend beside the axes and a plot area of about 6 inches.
    longest = max((len(t.get_text()) for ax in axes if ax.get_legend() for t in ax.get_legend().get_texts()), default=0)
    fig.set_size_inches(max(fig.get_figwidth(), 6.5 + 0.065 * longest), fig.get_figheight())
    axes[0].set_title(opts.get("title", f"pmusim {a.kind}: {a.inputs[0]}"), fontsize="medium")
    for ax in axes:
        ax.grid(True, alpha=0.3)
    meta = {"Date": None} if a.output.endswith(".svg") else {}
    fmt = "svg" if a.output.endswith(".svg") else "png"
    try:
        fig.savefig(temp or final, metadata=meta, dpi=100, format=fmt)
        if temp:
            os.replace(temp, final)
    except OSError as e:
        if temp and os.path.exists(temp):
            os.remove(temp)
        fail(f"{a.output}: cannot write: {e.strerror}")


if __name__ == "__main__":
    try:
        main()
    except BadInput as e:
        print(f"pmusim plot: {e}", file=sys.stderr)
        sys.exit(2)
    except MemoryError:
        print("pmusim plot: out of memory drawing the figure", file=sys.stderr)
        sys.exit(2)
