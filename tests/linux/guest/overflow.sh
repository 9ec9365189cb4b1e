# bus_cycles (0x1D) on a 32-bit DSU event counter (the test runs the `original` DSU variant: 32-bit
# event counters, as Linux 6.1's arm_dsu_pmu.c assumes), which the driver starts at 0x7fffffff
# (dsu_pmu_set_event_period: half its range): at 1 GHz it overflows after 2^31 + 1 cycles, 2.15 s:
# the driver's interrupt handler runs within the 2.5 s.
perf stat -x, -a -e arm_dsu_0/bus_cycles/ -- sleep 2.5
echo "pmusim-test: dsu irqs $(awk '/arm_dsu/ {s=0; for (i=2; i<=NF && $i ~ /^[0-9]+$/; i++) s+=$i; print s}' /proc/interrupts)"
