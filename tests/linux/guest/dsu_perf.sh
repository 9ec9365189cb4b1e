# perf stat on the DSU's cycle counter over a known interval, system-wide (an uncore PMU).
perf stat -x, -a -e arm_dsu_0/cycles/,arm_dsu_0/bus_access/ -- sleep 0.01
