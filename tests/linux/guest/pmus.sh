# The PMUs the drivers registered, and the events they list (sysfs, Documentation/ABI/testing/
# sysfs-bus-event_source-devices-events).
for p in /sys/bus/event_source/devices/*; do echo "pmusim-test: pmu ${p##*/}"; done
for p in arm_dsu_0 arm_cmn_0; do
  for e in /sys/bus/event_source/devices/$p/events/*; do echo "pmusim-test: $p event ${e##*/}"; done
done
