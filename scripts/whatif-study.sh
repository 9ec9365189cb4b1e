#!/usr/bin/env bash
# One command per what-if study (docs/whatif.md): runs the study's sweep, prints its
# table(s) and draws its figures (SVG and PNG) into the output folder.
#   scripts/whatif-study.sh fie [OUT]            # Linux AMU frequency invariance: constant clock x step timing
#   scripts/whatif-study.sh dsu-multiplex [OUT]  # 8 DSU events time-sliced on 6 counters
#   scripts/whatif-study.sh imc-nest [OUT]       # POWER9 nest IMC reader bandwidth vs OCC collection speed
# PMUSIM (default build/pmusim) and JOBS (default 2) may be set in the environment.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
study=${1:?usage: whatif-study.sh fie|dsu-multiplex|imc-nest [OUT]}
out=${2:-out/$study}
pmusim=${PMUSIM:-$root/build/pmusim}
extra=()      # a third figure: KIND CSV(relative to OUT) OPTIONS...
pivots=""     # ROW,COLUMN,VALUE[;ROW,COLUMN,VALUE...]: results.csv as pivot tables too
case $study in
  fie)
    sweep=$root/scenarios/studies/fie/sweep.yaml
    sweep_plot=(--opt x=step_offset_pct --opt y=max_abs_err_now_1024 --opt group=const_clock
                --opt "title=Linux AMU FIE: worst |scale - true ratio| (1/1024) vs step offset in the tick (%)")
    detail_csv=points/p00016/fie.csv   # const 25MHz, step at 15ms (75 % of the tick)
    detail=(sweep --opt x=time_ms --opt y=scale,true_avg_1024,true_now_1024
            --opt "title=25 MHz constant clock, step at 15 ms: Linux scale vs true ratio per tick")
    extra=(sweep results.csv --opt x=const_clock --opt logx=true --opt y=max_abs_err_avg_1024 --opt group=step_offset_pct
           --opt "title=Linux AMU FIE: worst |scale - average ratio| (1/1024) vs constant clock")
    columns="const_clock,step_at,step_offset_pct,max_freq_scale,first_tick_scale,max_abs_err_avg_1024,max_abs_err_now_1024,mean_abs_err_now_1024"
    pivots="step_offset_pct,const_clock,max_abs_err_now_1024;step_offset_pct,const_clock,max_abs_err_avg_1024"
    ;;
  dsu-multiplex)
    sweep=$root/scenarios/studies/dsu-multiplex/sweep.yaml
    sweep_plot=(--opt x=slice --opt y=max_abs_err_pct,mean_abs_err_pct
                --opt "title=DSU multiplexing: |estimate - truth| / truth (%) vs slice length")
    detail_csv=points/p00003/estimates.csv   # slice 4ms
    detail=(truth --opt "title=slice 4 ms: perf-style estimates vs ground truth")
    columns="slice,max_abs_err_pct,mean_abs_err_pct,err_pct_l3d_cache,err_pct_l3d_cache_refill,err_pct_bus_access,err_pct_l3d_cache_wb"
    ;;
  imc-nest)
    sweep=$root/scenarios/studies/imc-nest/sweep.yaml
    sweep_plot=(--opt x=posting_period_ms --opt y=rd_max_abs_err_pct,rd_mean_abs_err_pct --opt group=read_every
                --opt "title=POWER9 nest IMC: reader's read bandwidth error (%) vs OCC posting period (ms)")
    detail_csv=points/p00006/nest.csv   # read every 10ms, speed 7 (postings every 8 ms)
    detail=(sweep --opt x=time_ms --opt y=true_rd_GBps,reader_rd_GBps
            --opt "title=speed 7 (8 ms postings), reads every 10 ms: read bandwidth (GB/s)")
    columns="read_every,speed,posting_period_ms,rd_max_abs_err_pct,rd_mean_abs_err_pct,rd_max_abs_err_GBps,rd_zero_reads,wr_max_abs_err_pct,rd_total_err_pct,mba_posting_period_ms,mba_max_abs_err_pct"
    ;;
  *) echo "whatif-study.sh: unknown study '$study' (fie, dsu-multiplex, imc-nest)" >&2; exit 2 ;;
esac
"$pmusim" sweep "$sweep" -o "$out" -j "${JOBS:-2}"
for ext in svg png; do
  "$pmusim" plot sweep "$out/results.csv" -o "$out/sweep.$ext" "${sweep_plot[@]}"
  "$pmusim" plot "${detail[0]}" "$out/$detail_csv" -o "$out/detail.$ext" "${detail[@]:1}"
  if ((${#extra[@]})); then
    "$pmusim" plot "${extra[0]}" "$out/${extra[1]}" -o "$out/extra.$ext" "${extra[@]:2}"
  fi
done
# The table: the chosen columns of results.csv as Markdown; then any pivot tables
# (one row per value of ROW, one column per value of COLUMN, in results.csv order).
python3 - "$out/results.csv" "$columns" "$pivots" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = sys.argv[2].split(",")
print("| " + " | ".join(cols) + " |")
print("|" + "---|" * len(cols))
for r in rows:
    print("| " + " | ".join(r.get(c, "") for c in cols) + " |")
for spec in filter(None, sys.argv[3].split(";")):
    rk, ck, vk = spec.split(",")
    keys = lambda k: list(dict.fromkeys(r[k] for r in rows))
    cell = {(r[rk], r[ck]): r.get(vk, "") for r in rows}
    print(f"\n{vk}:\n")
    print(f"| {rk} \\ {ck} | " + " | ".join(keys(ck)) + " |")
    print("|" + "---|" * (len(keys(ck)) + 1))
    for rv in keys(rk):
        print(f"| {rv} | " + " | ".join(cell.get((rv, cv), "") for cv in keys(ck)) + " |")
PY
figures="$out/sweep.svg $out/sweep.png $out/detail.svg $out/detail.png"
((${#extra[@]})) && figures+=" $out/extra.svg $out/extra.png"
echo "figures: $figures" >&2
