# perf stat on the CMN's DTC cycle counter and an HN-F event (the platform's event rates).
perf stat -x, -a -e arm_cmn_0/dtc_cycles/,arm_cmn_0/hnf_cache_miss/ -- sleep 0.01
