#pragma once
// The device tree Linux boots with, generated from the platform (docs/linux.md "The device tree"):
// memory, the CPUs with their MPIDRs and enable-method "psci", the PSCI node, the GIC, the generic
// timer, the PL011 UART, /chosen, an "arm,dsu-pmu" node per DSU and an "arm,cmn-600" node per
// CMN-600. Each node follows its binding in Linux 6.1's Documentation/devicetree/bindings (cited
// where the node is written). dtc compiles the source; libfdt checks a user's blob and fills
// /chosen in either.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pmusim {

struct platform_config;

// What Linux needs to know of the devices around the CPUs; read from the platform by
// describe_linux_devices (the one place that knows the device unit types).
struct linux_devices {
    // GICv2 (arm,cortex-a15-gic): distributor and CPU-interface frames.
    uint64_t gicd_base = 0, gicd_size = 0x1000, gicc_base = 0, gicc_size = 0x2000;
    // Generic timer: the PPIs (INTIDs) of the secure/non-secure physical, virtual and hypervisor
    // timers, and the system counter frequency.
    unsigned timer_ppis[4] = {29, 30, 27, 26};
    uint64_t counter_hz = 0;
    // PL011
    uint64_t uart_base = 0, uart_size = 0x1000, uart_clock_hz = 24000000;
    unsigned uart_spi = 0;
    // PSCI conduit: "smc" or "hvc".
    std::string psci_method = "smc";
    // A unit's interrupt line name -> its GIC SPI number (0-based, as the DT's GIC_SPI cell).
    std::vector<std::pair<std::string, unsigned>> spis;
    std::optional<unsigned> spi_of(const std::string& line) const;
};
linux_devices describe_linux_devices(const platform_config& cfg);

// MPIDR_EL1 of a CPU in pmusim's DynamIQ layout (MT = 1, Aff2 = cluster, Aff1 = core in cluster),
// as the AMU's AMDEVAFF reports it (amu/amu_external_table.cpp); the DT `reg` is its affinity bits.
uint64_t linux_mpidr(const platform_config& cfg, unsigned cpu);

// The DTS text (no /chosen initrd properties: set_chosen adds them to the blob).
std::string linux_dts(const platform_config& cfg, const linux_devices& dev, const std::string& bootargs);

// dtc -I dts -O dtb; model_error when dtc is missing or refuses (our own source is wrong).
std::vector<uint8_t> compile_dts(const std::string& dts);

// Checks a blob (libfdt fdt_check_full); input_error naming `path` when it does not parse.
void check_dtb(const std::vector<uint8_t>& dtb, const std::string& path);

// Sets /chosen's linux,initrd-start/-end (when end > start) and bootargs (when given) in a blob,
// creating /chosen if needed; returns the new blob.
std::vector<uint8_t> set_chosen(const std::vector<uint8_t>& dtb, const std::string& path, uint64_t initrd_start,
                                uint64_t initrd_end, const std::optional<std::string>& bootargs);

} // namespace pmusim
