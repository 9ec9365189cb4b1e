# Boot to /init: the processors Linux brought up (PSCI CPU_ON for the secondaries).
echo "pmusim-test: processors $(grep -c ^processor /proc/cpuinfo)"
