#!/usr/bin/env python3
"""`pmusim simulate` on power9-default with the IMC (docs/whatif.md "POWER9 IMC").

Scenario tests/whatif/imc-nest-thread.yaml, 2.2 ms. Every expected number is worked out by
hand below from the platform (3.2 GHz cores, 2 GHz nest, 512 MHz timebase), the workload
rates and the documented IMC cadences (docs/imc.md): OCC ticks every 500 us, group 1
(PowerBus, MCS) posts on odd round-robin states = at 0.5, 1.5, 2.5 ms; catalog prescale 256
(nest) and 512 (core/thread); core/thread updates every 1 ms from the start (0).
Usage: check_imc.py PMUSIM (run from the source tree).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

from checklib import PMUSIM, check, finish, run

out = os.path.join(tempfile.mkdtemp(prefix="pmusim-whatif-imc-"), "imc")
r = subprocess.run([PMUSIM, "simulate", "tests/whatif/imc-nest-thread.yaml", "-o", out], capture_output=True, text=True)
check(r.returncode == 0, f"simulate exits 0 (got {r.returncode}: {r.stderr})")
if r.returncode != 0:
    sys.exit(1)
stats = json.load(open(os.path.join(out, "stats.json")))
check(stats["time_fs"] == 2_200_000_000_000, "ends at 2.2 ms")


def total(instance, event):
    found = [e["count"] for e in stats["events"] if e["unit"] == "power9_imc" and e["instance"] == instance
             and e["event"] == event]
    check(len(found) == 1, f"stats.json has one {instance} {event} (found {len(found)})")
    return found[0] if found else None


# Ground truth over (0, 2.2 ms]:
# nest 2 GHz: 4,400,000 PowerBus cycles.
check(total("imc0.chip0", "PM_PB_CYC") == 4_400_000, "PM_PB_CYC total = 2 GHz x 2.2 ms")
# cpu0: 7,040,000 cycles / 64 = 110,000; cpu5: 7,040,000 / 32 = 220,000.
check(total("imc0.chip0", "PM_MCS01_128B_RD_DISP_PORT01") == 330_000, "MCS 128B reads = 110,000 + 220,000")
check(total("imc0.chip0", "PM_MCS01_128B_WR_DISP_PORT01") == 0, "no MCS writes")
# cpu4 runs all along: 7,040,000 cycles, 2 instructions each; 32 MHz = 1,126,400 tb / 16 = 70,400.
check(total("cpu4.imc", "CPM_CS_PCYC_USER") == 7_040_000, "cpu4 cycles")
check(total("cpu4.imc", "CPM_CS_INST_USER") == 14_080_000, "cpu4 instructions")
check(total("cpu4.imc", "CPM_CS_32MHZ_CYC_USER") == 70_400, "cpu4 32 MHz cycles")
check(total("imc0.chip0.core1", "CPM_PCYC") == 7_040_000, "core 1 cycles")

# Software-visible side at the end: what memory holds.
counters = {c["name"]: c for c in stats["counters"] if c["unit"] == "power9_imc"}
# Nest posted at 0.5 and 1.5 ms: 3,000,000 PB cycles / 256 = 11718; MCS reads in (0, 1.5 ms]:
# 4,800,000 / 64 + 4,800,000 / 32 = 225,000, / 256 = 878.
check(counters["imc0.chip0.PM_PB_CYC"]["value"] == 11718, "posted PM_PB_CYC")
check(counters["imc0.chip0.PM_PB_CYC"]["event"] == "0x80 PM_PB_CYC", "nest observable names its event")
check(counters["imc0.chip0.PM_MCS01_128B_RD_DISP_PORT01"]["value"] == 878, "posted MCS reads")
# Thread updates at 1 and 2 ms: 6,400,000 cycles / 512 = 12500; 12,800,000 inst / 512 = 25000;
# 32 MHz: 64,000 / 512 = 125.
check(counters["cpu4.imc.CPM_CS_PCYC_USER"]["value"] == 12500, "cpu4 page: cycles / 512")
check(counters["cpu4.imc.CPM_CS_INST_USER"]["value"] == 25000, "cpu4 page: instructions / 512")
check(counters["cpu4.imc.CPM_CS_32MHZ_CYC_USER"]["value"] == 125, "cpu4 page: 32 MHz / 512")
check(counters["cpu4.imc.LDBAR"]["value"] == 0x8000000010404000, "cpu4 LDBAR")
check(counters["cpu5.imc.CPM_CS_PCYC_USER"]["value"] == 0, "cpu5 has no LDBAR page: 0")

# Samples at 0.7, 1.4, 2.1 ms (off the tick and update instants).
rows = list(csv.DictReader(open(os.path.join(out, "samples.csv"))))


def series(instance, counter):
    return [int(r["value"]) for r in rows if r["instance"] == instance and r["counter"] == counter]


# PB posted at 0.5 ms: 1,000,000 / 256 = 3906; at 1.5 ms: 11718.
check(series("imc0.chip0", "PM_PB_CYC") == [3906, 3906, 11718], f"PM_PB_CYC samples {series('imc0.chip0', 'PM_PB_CYC')}")
# Thread page: 0 before 1 ms, 3,200,000 / 512 = 6250 after, 12500 after 2 ms.
check(series("cpu4.imc", "CPM_CS_PCYC_USER") == [0, 6250, 12500],
      f"cpu4 cycle samples {series('cpu4.imc', 'CPM_CS_PCYC_USER')}")
check(not series("imc0.chip0.core1", "CPM_PCYC"), "only the selected counters are sampled")

finish("whatif imc")
