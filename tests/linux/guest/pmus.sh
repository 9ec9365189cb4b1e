# The PMUs the drivers registered, and the events they list (sysfs, Documentation/ABI/testing/
# sysfs-bus-event_source-devices-events).
for p in /sys/bus/event_source/devices/*; do echo "pmusim-test: pmu ${p##*/}"; done
# The cluster's CPUs the DSU driver attached (the device tree's cpus phandles, linux-6.1
# drivers/perf/arm_dsu_pmu.c dsu_pmu_dt_get_cpus) and the one it counts from (cpumask).
d=/sys/bus/event_source/devices/arm_dsu_0
echo "pmusim-test: arm_dsu_0 associated_cpus $(cat $d/associated_cpus) cpumask $(cat $d/cpumask)"
for p in arm_dsu_0 arm_cmn_0; do
  for e in /sys/bus/event_source/devices/$p/events/*; do echo "pmusim-test: $p event ${e##*/}"; done
done
