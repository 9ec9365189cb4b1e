# The kernel reads the AMU where Debian's kernel does (the access log has the values): when it
# enables the AMU on each CPU (cpu_amu_enable), and, with cpufreq-dt's policies (loaded by /init;
# the device tree gives each CPU a clock and an OPP table), at every scheduler tick for the AMU's
# frequency invariance (arch/arm64/kernel/topology.c amu_scale_freq_tick).
for p in /sys/devices/system/cpu/cpufreq/policy*; do
  [ -e "$p" ] || continue
  echo "pmusim-test: cpufreq ${p##*/} $(cat $p/scaling_driver) $(cat $p/cpuinfo_max_freq) kHz cpus $(cat $p/related_cpus)"
done
# One busy loop per CPU for a few ticks (CONFIG_HZ=250: 4 ms; an idle CPU stops its tick).
n=$(grep -c ^processor /proc/cpuinfo)
for c in $(seq $n); do (i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done) & done
wait
