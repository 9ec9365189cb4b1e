# perf stat on the DSU over a known interval, system-wide (an uncore PMU): the cycle counter
# (`cycles`) and bus_cycles (0x1D) on a 32-bit event counter, both counting the DSU clock.
perf stat -x, -a -e arm_dsu_0/cycles/,arm_dsu_0/bus_cycles/ -- sleep 0.01
