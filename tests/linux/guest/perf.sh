# One boot for CI: the PMUs the drivers registered (pmus.sh), then perf stat on the DSU
# (dsu_perf.sh) and on the CMN (cmn_perf.sh), over 2 ms sleeps (short enough for the reference-mode
# replay of the drivers' accesses, replay_units.py); boot_test.py checks all three.
for p in /sys/bus/event_source/devices/*; do echo "pmusim-test: pmu ${p##*/}"; done
# The cluster's CPUs the DSU driver attached (the device tree's cpus phandles, linux-6.1
# drivers/perf/arm_dsu_pmu.c dsu_pmu_dt_get_cpus) and the one it counts from (cpumask).
d=/sys/bus/event_source/devices/arm_dsu_0
echo "pmusim-test: arm_dsu_0 associated_cpus $(cat $d/associated_cpus) cpumask $(cat $d/cpumask)"
for p in arm_dsu_0 arm_cmn_0; do
  for e in /sys/bus/event_source/devices/$p/events/*; do echo "pmusim-test: $p event ${e##*/}"; done
done
perf stat -x, -a -e arm_dsu_0/cycles/,arm_dsu_0/bus_cycles/ -- sleep 0.002
for e in hnf_cache_miss hnf_qos_pocq_occupancy_all; do
  echo "pmusim-test: $e $(cat /sys/bus/event_source/devices/arm_cmn_0/events/$e)"
done
perf stat -x, -a -e arm_cmn_0/dtc_cycles/,arm_cmn_0/hnf_cache_miss/,arm_cmn_0/hnf_qos_pocq_occupancy_all/ -- sleep 0.002
