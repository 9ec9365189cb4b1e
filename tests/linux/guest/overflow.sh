# A 32-bit DSU event counter (the driver starts it at half range, 0x80000000) counting DSU cycles
# (event 0x11) overflows after 2^31 cycles, 2.15 s at 1 GHz: the driver's IRQ handler runs.
perf stat -x, -a -e arm_dsu_0/event=0x11/ -- sleep 2.5
echo "pmusim-test: dsu irqs $(awk '/arm_dsu/ {s=0; for (i=2;i<=NF;i++) if ($i ~ /^[0-9]+$/) s+=$i; print s}' /proc/interrupts)"
