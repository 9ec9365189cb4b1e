#!/usr/bin/env bash
# One command per what-if study (docs/whatif.md): runs the study's sweep, prints its
# table and draws its figures (SVG and PNG) into the output folder.
#   scripts/whatif-study.sh fie [OUT]            # Linux AMU frequency invariance, 25 MHz vs 1 GHz
#   scripts/whatif-study.sh dsu-multiplex [OUT]  # 8 DSU events time-sliced on 6 counters
# PMUSIM (default build/pmusim) and JOBS (default 2) may be set in the environment.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
study=${1:?usage: whatif-study.sh fie|dsu-multiplex [OUT]}
out=${2:-out/$study}
pmusim=${PMUSIM:-$root/build/pmusim}
case $study in
  fie)
    sweep=$root/scenarios/studies/fie/sweep.yaml
    sweep_plot=(--opt x=step_at --opt y=max_abs_err_now_1024 --opt group=const_clock
                --opt "title=Linux AMU FIE: worst |scale - true ratio| (1/1024) vs DVFS step instant")
    detail_csv=points/p00003/fie.csv   # const 25MHz, step at 15ms
    detail=(sweep --opt x=time_ms --opt y=scale,true_avg_1024,true_now_1024
            --opt "title=25 MHz constant clock, step at 15 ms: Linux scale vs true ratio per tick")
    columns="const_clock,step_at,max_freq_scale,max_abs_err_avg_1024,max_abs_err_now_1024,mean_abs_err_now_1024,ticks_off_by_more_than_1"
    ;;
  dsu-multiplex)
    sweep=$root/scenarios/studies/dsu-multiplex/sweep.yaml
    sweep_plot=(--opt x=slice --opt y=max_abs_err_pct,mean_abs_err_pct
                --opt "title=DSU multiplexing: |estimate - truth| / truth (%) vs slice length")
    detail_csv=points/p00003/multiplex.csv   # slice 4ms
    detail=(truth --opt "title=slice 4 ms: perf-style estimates vs ground truth")
    columns="slice,max_abs_err_pct,mean_abs_err_pct,err_pct_l3d_cache,err_pct_l3d_cache_refill,err_pct_bus_access,err_pct_l3d_cache_wb"
    ;;
  *) echo "whatif-study.sh: unknown study '$study' (fie, dsu-multiplex)" >&2; exit 2 ;;
esac
"$pmusim" sweep "$sweep" -o "$out" -j "${JOBS:-2}"
for ext in svg png; do
  "$pmusim" plot sweep "$out/results.csv" -o "$out/sweep.$ext" "${sweep_plot[@]}"
  "$pmusim" plot "${detail[0]}" "$out/$detail_csv" -o "$out/detail.$ext" "${detail[@]:1}"
done
# The table: the chosen columns of results.csv as Markdown.
python3 - "$out/results.csv" "$columns" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = sys.argv[2].split(",")
print("| " + " | ".join(cols) + " |")
print("|" + "---|" * len(cols))
for r in rows:
    print("| " + " | ".join(r.get(c, "") for c in cols) + " |")
PY
echo "figures: $out/sweep.svg $out/sweep.png $out/detail.svg $out/detail.png" >&2
