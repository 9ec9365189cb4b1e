# perf stat on the CMN's DTC cycle counter and two HN-F events (the traffic of arm-linux's flows); the
# event's id as the driver lists it, for the harness.
for e in hnf_cache_miss hnf_qos_pocq_occupancy_all; do
  echo "pmusim-test: $e $(cat /sys/bus/event_source/devices/arm_cmn_0/events/$e)"
done
perf stat -x, -a -e arm_cmn_0/dtc_cycles/,arm_cmn_0/hnf_cache_miss/,arm_cmn_0/hnf_qos_pocq_occupancy_all/ -- sleep 0.01
