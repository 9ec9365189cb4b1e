#!/usr/bin/env python3
"""scripts/check-fact-sources.py must fail on a mis-cited Linux row: each planted row alone, in a
facts folder of its own, must make it exit 1; the correct row must pass.
Usage: check_planted.py LINUX_TARBALL CACHE_DIR"""
import os
import subprocess
import sys
import tempfile

HEADER = "# planted facts (tests/facts/planted/check_planted.py)\n"
GOOD = "dsu_clusterpmu\tCLUSTERPMCR_EL1\tfield\tN\t11,5\tlinux:drivers/perf/arm_dsu_pmu.c@v6.1 (CLUSTERPMCR_N_SHIFT 11)\t"
PLANTS = {
    "a macro quoted with the wrong value":
        "dsu_clusterpmu\tCLUSTERPMCR_EL1\tfield\tN\t12,5\tlinux:drivers/perf/arm_dsu_pmu.c@v6.1 (CLUSTERPMCR_N_SHIFT 12)\t",
    "a macro the file does not have":
        "dsu_clusterpmu\tCLUSTERPMCR_EL1\tfield\tN\t11,5\tlinux:drivers/perf/arm_dsu_pmu.c@v6.1 (CLUSTERPMCR_NX_SHIFT 11)\t",
    "a Linux citation without a commit or version":
        "dsu_clusterpmu\tCLUSTERPMCR_EL1\tfield\tE\t0,1\tlinux:drivers/perf/arm_dsu_pmu.c (CLUSTERPMCR_E BIT(0))\t",
    "a sys_reg() encoding quoted wrongly":
        "dsu_clusterpmu\tCLUSTERPMCR_EL1\tencoding\t\t3,0,15,5,1\tlinux:arch/arm64/include/asm/arm_dsu_pmu.h@v6.1 "
        "(CLUSTERPMCR_EL1 sys_reg(3, 0, 15, 5, 1))\t",
    "a file Linux does not have":
        "dsu_clusterpmu\tCLUSTERPMCR_EL1\tfield\tE\t0,1\tlinux:drivers/perf/arm_dsu_pmu_nope.c@v6.1 (CLUSTERPMCR_E BIT(0))\t",
    # --require-linux: a citation no Debian tree can check is a failure, not a skip.
    "a release no Debian tree has (v5.10)":
        "cmn600_cfg\tchild_pointer_0\tfield\tchild_offset\t0,28\tlinux:drivers/perf/arm-cmn.c@v5.10 "
        "(CMN_CHILD_NODE_ADDR GENMASK(27, 0))\t",
    "a macro only a commit after the trees has":
        "dsu_clusterpmu\tCLUSTERPMCR_EL1\tfield\tE\t0,1\tlinux:drivers/perf/arm_dsu_pmu.c@04330be8dc7f "
        "(CLUSTERPMCR_E_LATER BIT(0))\t",
}


def run(tarball, cache, row):
    with tempfile.TemporaryDirectory() as facts:
        with open(os.path.join(facts, "planted.tsv"), "w") as f:
            f.write(HEADER + row + "\n")
        script = os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts", "check-fact-sources.py")
        return subprocess.run([sys.executable, script, "--linux", tarball, "--cache", cache, "--facts", facts,
                               "--require-linux"], capture_output=True, text=True)


def main():
    tarball, cache = sys.argv[1], sys.argv[2]
    bad = []
    r = run(tarball, cache, GOOD)
    if r.returncode != 0:
        bad.append(f"the correct row fails: {r.stdout}{r.stderr}")
    for what, row in PLANTS.items():
        r = run(tarball, cache, row)
        print(f"planted {what}: exit {r.returncode}: {r.stdout.strip().splitlines()[0] if r.stdout.strip() else r.stderr}")
        if r.returncode != 1:
            bad.append(f"{what}: exit {r.returncode}, want 1")
    for b in bad:
        print("FAIL:", b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
