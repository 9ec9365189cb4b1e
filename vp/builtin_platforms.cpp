// Built-in platforms: verbatim copies of platforms/*.yaml (the source of truth).
// The unit test "config: embedded built-in platforms equal platforms/*.yaml"
// fails when a copy drifts. After editing a platform file, paste its whole text
// between R"yaml( and )yaml" below (the text starts right after the opening
// parenthesis: no extra newline).
#include "vp/builtin_platforms.h"

namespace pmusim {
namespace {

constexpr std::string_view arm_default_yaml = R"yaml(# Built-in platform "arm-default" (pmusim --platform arm-default).
# This file is the source of truth; tb/builtin_platforms.cpp embeds a copy and a
# unit test checks that the two are identical. Schema: docs/platform-config.md.
name: arm-default
description: "Two 4-CPU DynamIQ clusters (AMUv1p1 on every CPU), a DSU per cluster and a 3x3 CMN-600 mesh"
arch: arm

clocks:
  - { name: const, frequency: 100MHz }   # constant-frequency reference (system counter); AMU counter 1
  - { name: cpu0, frequency: 2GHz }      # cluster 0: one clock domain per CPU
  - { name: cpu1, frequency: 2GHz }
  - { name: cpu2, frequency: 2GHz }
  - { name: cpu3, frequency: 2GHz }
  - { name: cpu4, frequency: 2.5GHz }    # cluster 1: faster CPUs
  - { name: cpu5, frequency: 2.5GHz }
  - { name: cpu6, frequency: 2.5GHz }
  - { name: cpu7, frequency: 2.5GHz }
  - { name: dsu0, frequency: 1GHz }      # DSU (SCLK) of cluster 0
  - { name: dsu1, frequency: 1GHz }      # DSU (SCLK) of cluster 1
  - { name: cmn0, frequency: 1GHz }      # CMN-600 mesh clock

cpus:
  - { name: cpu0, clock: cpu0, cluster: 0, irq: [dsu0_pmu_irq, cmn0_pmu_irq], features: { amu: v1p1, amu_aux_counters: 0 } }
  - { name: cpu1, clock: cpu1, cluster: 0, features: { amu: v1p1, amu_aux_counters: 0 } }
  - { name: cpu2, clock: cpu2, cluster: 0, features: { amu: v1p1, amu_aux_counters: 0 } }
  - { name: cpu3, clock: cpu3, cluster: 0, features: { amu: v1p1, amu_aux_counters: 0 } }
  - { name: cpu4, clock: cpu4, cluster: 1, irq: [dsu1_pmu_irq], features: { amu: v1p1, amu_aux_counters: 0 } }
  - { name: cpu5, clock: cpu5, cluster: 1, features: { amu: v1p1, amu_aux_counters: 0 } }
  - { name: cpu6, clock: cpu6, cluster: 1, features: { amu: v1p1, amu_aux_counters: 0 } }
  - { name: cpu7, clock: cpu7, cluster: 1, features: { amu: v1p1, amu_aux_counters: 0 } }

firmware:
  profile: tf-a

units:
  - name: dsu0
    type: dsu_clusterpmu
    base: 0x2A000000
    size: 0x10000
    clock: dsu0
    cpus: [cpu0, cpu1, cpu2, cpu3]
    irq: dsu0_pmu_irq
    params: { variant: dsu-110, counters: 6 }
  - name: dsu1
    type: dsu_clusterpmu
    base: 0x2A010000
    size: 0x10000
    clock: dsu1
    cpus: [cpu4, cpu5, cpu6, cpu7]
    irq: dsu1_pmu_irq
    params: { variant: dsu-110, counters: 6 }
  - name: cmn0
    type: cmn600
    base: 0x50000000
    size: 64MiB                          # the CMN-600 configuration space
    clock: cmn0
    irq: cmn0_pmu_irq
    params:
      mesh_x: 3
      mesh_y: 3
      periphbase: 0x50000000
      root_node_offset: 0                # CFG node: slot 0 of the HN-D port, XP (0,0) port 0
      nodes: |                           # X,Y PORT KIND [xN]  (docs/cmn.md)
        0,0 p0 hn-d                      # CFG (root node), DTC0, DN, HN-I
        0,0 p1 rn-i                      # I/O coherent requester
        1,0 p0 rn-f                      # cluster 0 (dsu0)
        1,0 p1 hn-f
        2,0 p0 sn-f                      # memory controller 0
        2,0 p1 hn-f
        0,1 p0 sbsx
        0,1 p1 hn-f
        1,1 p0 rn-d
        1,1 p1 hn-i
        2,1 p0 rn-f                      # cluster 1 (dsu1)
        2,1 p1 hn-f
        0,2 p0 sn-f                      # memory controller 1
        1,2 p0 cxg                       # CCIX gateway: CXRA, CXHA, CXLA
        2,2 p0 sn-f                      # memory controller 2
      events: |                          # constant event rates per mesh cycle (docs/cmn.md)
        hnf hnf_pocq_reqs_recvd 1/8
        hnf hnf_slc_sf_cache_access 1/8
        hnf hnf_cache_miss 1/32
        hnf hnf_mc_reqs 1/32
        hnf hnf_qos_pocq_occupancy_all 3
        rni rnid_txreq_flits_total 1/64
        rnd rnid_txreq_flits_total 1/64

memory:
  - { name: dram, base: 0x80000000, size: 16MiB, endianness: little }

latency:
  register_access: 0ns
)yaml";

constexpr std::string_view arm_linux_yaml = R"yaml(# Built-in platform "arm-linux" (pmusim linux --platform arm-linux; docs/linux.md).
# This file is the source of truth; tb/builtin_platforms.cpp embeds a copy and a
# unit test checks that the two are identical. Schema: docs/platform-config.md.
name: arm-linux
description: "Linux's machine: one 4-CPU DynamIQ cluster (AMUv1p1), its DSU, a 3x3 CMN-600, GICv2, generic timer, PL011, PSCI, 256 MiB DRAM"
arch: arm

clocks:
  - { name: const, frequency: 100MHz }   # constant-frequency reference (system counter); AMU counter 1
  - { name: cpu0, frequency: 2GHz }      # one clock domain per CPU
  - { name: cpu1, frequency: 2GHz }
  - { name: cpu2, frequency: 2GHz }
  - { name: cpu3, frequency: 2GHz }
  - { name: dsu0, frequency: 1GHz }      # DSU (SCLK) of the cluster
  - { name: cmn0, frequency: 1GHz }      # CMN-600 mesh clock

cpus:
  - { name: cpu0, clock: cpu0, cluster: 0, irq: [gic_cpu0_irq], features: { amu: v1p1, amu_aux_counters: 0 } }
  - { name: cpu1, clock: cpu1, cluster: 0, irq: [gic_cpu1_irq], features: { amu: v1p1, amu_aux_counters: 0 } }
  - { name: cpu2, clock: cpu2, cluster: 0, irq: [gic_cpu2_irq], features: { amu: v1p1, amu_aux_counters: 0 } }
  - { name: cpu3, clock: cpu3, cluster: 0, irq: [gic_cpu3_irq], features: { amu: v1p1, amu_aux_counters: 0 } }

# The GIC's per-CPU outputs are the CPUs' IRQ inputs (docs/devices.md).
irq_lines: [gic_cpu0_irq, gic_cpu1_irq, gic_cpu2_irq, gic_cpu3_irq]

firmware:
  profile: tf-a                          # EL3 firmware's settings (counters enabled, EL1 access)

units:
  - name: dsu0
    type: dsu_clusterpmu
    base: 0x2A000000
    size: 0x10000
    clock: dsu0
    cpus: [cpu0, cpu1, cpu2, cpu3]
    irq: dsu0_pmu_irq
    params: { variant: dsu-110, counters: 6 }
  - name: cmn0
    type: cmn600
    base: 0x50000000
    size: 64MiB                          # the CMN-600 configuration space
    clock: cmn0
    irq: cmn0_pmu_irq
    params:
      mesh_x: 3
      mesh_y: 3
      periphbase: 0x50000000
      root_node_offset: 0                # CFG node: slot 0 of the HN-D port, XP (0,0) port 0
      nodes: |                           # X,Y PORT KIND [xN]  (docs/cmn.md)
        0,0 p0 hn-d                      # CFG (root node), DTC0, DN, HN-I
        0,0 p1 rn-i                      # I/O coherent requester
        1,0 p0 rn-f                      # cluster 0 (dsu0)
        1,0 p1 hn-f
        2,0 p0 sn-f                      # memory controller 0
        2,0 p1 hn-f
        0,1 p0 sbsx
        0,1 p1 hn-f
        1,1 p0 rn-d
        1,1 p1 hn-i
        2,1 p0 rn-f                      # cluster 1 (dsu1)
        2,1 p1 hn-f
        0,2 p0 sn-f                      # memory controller 1
        1,2 p0 cxg                       # CCIX gateway: CXRA, CXHA, CXLA
        2,2 p0 sn-f                      # memory controller 2
      # Cluster 0's traffic (docs/cmn.md "Flows"): its RN-F at XP (1,0) reads from each HN-F at 1/16
      # requests per mesh cycle, half of them SLC misses read from the nearest memory (mem=K: SN-F
      # devices and SBSX bridges in XP order, 0 (2,0), 1 (0,1), 2 (0,2), 3 (2,2)); the HN-F events
      # count these requests (tests/linux/boot_test.py check_cmn_perf derives them by hand).
      flows: |                           # X,Y pP to=NODE op=read|write rate=R [miss=M] [mem=K]
        1,0 p0 to=hnf0 op=read rate=1/16 miss=1/2 mem=0
        1,0 p0 to=hnf1 op=read rate=1/16 miss=1/2 mem=0
        1,0 p0 to=hnf2 op=read rate=1/16 miss=1/2 mem=2
        1,0 p0 to=hnf3 op=read rate=1/16 miss=1/2 mem=3
      hop_latency: 2                     # mesh cycles XP -> next XP (the flows' timing, docs/cmn.md "Traffic")
      port_latency: 1                    # mesh cycles device <-> XP
      hnf_latency: 8                     # mesh cycles HN-F request -> response
      snf_latency: 40                    # mesh cycles memory request -> data
      events: |                          # constant event rates per mesh cycle (docs/cmn.md)
        rni rnid_txreq_flits_total 1/64
        rnd rnid_txreq_flits_total 1/64

  # The devices Linux needs (docs/devices.md); the device tree `pmusim linux` generates describes
  # them (docs/linux.md). SPIs: UART 37 (DT <0 5 4>), DSU 40 (<0 8 4>), CMN 41 (<0 9 4>).
  - name: gic
    type: gicv2
    base: 0x2C000000                     # GIC-400 layout: GICD at 0x2C001000, GICC at 0x2C002000
    size: 0x8000
    params:
      spis: 64
      spi_inputs: "uart0_irq=37, dsu0_pmu_irq=40, cmn0_pmu_irq=41"
      ppi_inputs: "timer_{cpu}_cntpnsirq=30, timer_{cpu}_cntvirq=27, timer_{cpu}_cnthpirq=26, timer_{cpu}_cntpsirq=29"
  - name: timer
    type: generic_timer                  # the system counter counts the `const` clock (100 MHz)
  - name: uart0
    type: pl011
    base: 0x1C090000
    size: 0x1000
    irq: uart0_irq
    params: { output: stdout }
  - name: psci
    type: psci
    params: { conduit: smc, version: "1.0" }

memory:
  - { name: dram, base: 0x80000000, size: 256MiB, endianness: little }

latency:
  register_access: 0ns
)yaml";

constexpr std::string_view power9_default_yaml = R"yaml(# Built-in platform "power9-default" (pmusim --platform power9-default).
# This file is the source of truth; tb/builtin_platforms.cpp embeds a copy and a
# unit test checks that the two are identical. Schema: docs/platform-config.md.
#
# One POWER9 chip with 4 SMT4 cores: 16 hardware threads cpu0..cpu15, where the
# CPU index is the PIR-like thread number (core * 4 + thread). Each core has its
# own clock domain. 3.2GHz is a plausible POWER9 core frequency whose period is
# a whole number of femtoseconds (312500 fs); 512MHz is the POWER9 timebase.
name: power9-default
description: "One POWER9 chip, 4 SMT4 cores (16 threads), nest IMC with counters in HOMER memory"
arch: power

clocks:
  - { name: core0, frequency: 3.2GHz }
  - { name: core1, frequency: 3.2GHz }
  - { name: core2, frequency: 3.2GHz }
  - { name: core3, frequency: 3.2GHz }
  - { name: nest, frequency: 2GHz }      # PowerBus / nest clock: IMC nest counters
  - { name: tb, frequency: 512MHz }      # timebase

cpus:
  - { name: cpu0,  clock: core0, chip: 0, core: 0, threads: 4 }
  - { name: cpu1,  clock: core0, chip: 0, core: 0, threads: 4 }
  - { name: cpu2,  clock: core0, chip: 0, core: 0, threads: 4 }
  - { name: cpu3,  clock: core0, chip: 0, core: 0, threads: 4 }
  - { name: cpu4,  clock: core1, chip: 0, core: 1, threads: 4 }
  - { name: cpu5,  clock: core1, chip: 0, core: 1, threads: 4 }
  - { name: cpu6,  clock: core1, chip: 0, core: 1, threads: 4 }
  - { name: cpu7,  clock: core1, chip: 0, core: 1, threads: 4 }
  - { name: cpu8,  clock: core2, chip: 0, core: 2, threads: 4 }
  - { name: cpu9,  clock: core2, chip: 0, core: 2, threads: 4 }
  - { name: cpu10, clock: core2, chip: 0, core: 2, threads: 4 }
  - { name: cpu11, clock: core2, chip: 0, core: 2, threads: 4 }
  - { name: cpu12, clock: core3, chip: 0, core: 3, threads: 4 }
  - { name: cpu13, clock: core3, chip: 0, core: 3, threads: 4 }
  - { name: cpu14, clock: core3, chip: 0, core: 3, threads: 4 }
  - { name: cpu15, clock: core3, chip: 0, core: 3, threads: 4 }

firmware:
  profile: opal                          # skiboot/OPAL + OCC set up IMC

units:
  - name: imc0
    type: power9_imc
    clock: nest
    cpus: [cpu0, cpu1, cpu2, cpu3, cpu4, cpu5, cpu6, cpu7,
           cpu8, cpu9, cpu10, cpu11, cpu12, cpu13, cpu14, cpu15]
    # Nest counters at HOMER + 0x180000, control block at HOMER + 0x1BFC00; XSCOM
    # window at 0x603FC00000000; core/thread/trace memory is wherever the OS puts
    # it (imc_counters below). docs/imc.md.
    params: { chips: 1, homer_base: 0x10000000, core_update_period: 1ms }

memory:
  # HOMER image of chip 0 (4MiB): OCC writes the nest IMC counters here.
  - { name: homer, base: 0x10000000, size: 4MiB, endianness: big }
  # Per-core/per-thread IMC counter pages the OS hands to the firmware.
  - { name: imc_counters, base: 0x10400000, size: 1MiB, endianness: big }

latency:
  register_access: 0ns
)yaml";

} // namespace

const std::vector<builtin_platform>& builtin_platforms() {
    static const std::vector<builtin_platform> all = {
        {"arm-default", "platforms/arm-default.yaml", arm_default_yaml},
        {"arm-linux", "platforms/arm-linux.yaml", arm_linux_yaml},
        {"power9-default", "platforms/power9-default.yaml", power9_default_yaml},
    };
    return all;
}

const builtin_platform* find_builtin_platform(std::string_view name) {
    for (const auto& p : builtin_platforms())
        if (p.name == name) return &p;
    return nullptr;
}

std::string builtin_platform_names() {
    std::string s;
    for (const auto& p : builtin_platforms()) {
        if (!s.empty()) s += ", ";
        s += p.name;
    }
    return s;
}

} // namespace pmusim
