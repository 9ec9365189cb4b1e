# perf stat on the CMN's DTC cycle counter and an HN-F event (the platform's event rates); the
# event's id as the driver lists it, for the harness.
echo "pmusim-test: hnf_cache_miss $(cat /sys/bus/event_source/devices/arm_cmn_0/events/hnf_cache_miss)"
perf stat -x, -a -e arm_cmn_0/dtc_cycles/,arm_cmn_0/hnf_cache_miss/ -- sleep 0.01
