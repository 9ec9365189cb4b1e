/* cmn_discovery: the CMN-600 discovery walk over MMIO as Linux's arm_cmn_discover() does it
 * (drivers/perf/arm-cmn.c), from Non-secure EL1, and a DTC cycle-counter check.
 * Register layout (Linux 6.1 arm-cmn.c; cmn-tools data/regdefs/cmn600.regdefs): node_info at +0x000 (type
 * [15:0], node ID [31:16], logical ID [47:32]); child_info at +0x080 (count [15:0], pointer offset
 * [31:16]); child pointer i at +offset + 8i (CMN-600: node offset [27:0] from PERIPHBASE,
 * external [31]); CFG periph_id_01 at +0x008 (part [7:0] | [35:32] << 8 = 0x434 for CMN-600);
 * XP device_port_connect_info_p<n> at +0x008 + 8n (type [4:0]); DTC por_dt_dtc_ctl +0xA00
 * (dt_en [0]), por_dt_pmcr +0x2100 (pmu_en [0]), por_dt_pmccntr +0x2040 (40 bits).
 * The expected mesh is the one platforms/arm-default.yaml declares (a 3x3 mesh, PERIPHBASE
 * 0x50000000, root node offset 0) read through the CMN-600 rules the platform documents
 * (docs/cmn.md "The mesh"): XP node IDs X << 5 | Y << 3 (2-bit X/Y fields when both
 * dimensions are at most 4), logical IDs row-major, mesh_x = logical ID of the XP with node ID 8
 * (Linux), device nodes an HN-D gives (HN-I, DN, DTC), RN-SAM and CXLA external. */
#include "check.h"
#include "el3_boot.h"
#include "exceptions.h"
#include "mmio.h"
#include "semihost.h"
#include "sysreg.h"

#define PERIPHBASE      0x50000000ull
#define ROOT_NODE_OFFSET 0x0ull

#define CMN_NODE_INFO        0x000
#define CMN_CFGM_PERIPH_ID_01 0x008
#define CMN_MXP_CONNECT_INFO(p) (0x008 + 8 * (p))
#define CMN_CHILD_INFO       0x080
#define CMN_CHILD_NODE_ADDR  0x0fffffffull
#define CMN_CHILD_EXTERNAL   (1ull << 31)
#define CMN_DT_DTC_CTL       0xa00
#define CMN_DT_PMCCNTR       0x2040
#define CMN_DT_PMCR          0x2100

enum cmn_type {
	CMN_TYPE_DVM = 0x1, CMN_TYPE_CFG = 0x2, CMN_TYPE_DTC = 0x3, CMN_TYPE_HNI = 0x4,
	CMN_TYPE_HNF = 0x5, CMN_TYPE_XP = 0x6, CMN_TYPE_SBSX = 0x7, CMN_TYPE_RNI = 0xa,
	CMN_TYPE_RND = 0xd, CMN_TYPE_RNSAM = 0xf, CMN_TYPE_CXRA = 0x100, CMN_TYPE_CXHA = 0x101,
	CMN_TYPE_CXLA = 0x102,
};
/* XP port device types (connect_info [4:0]; arm-cmn.c arm_cmn_device_type). */
enum cmn_device { DEV_NONE = 0x00, DEV_RNI = 0x01, DEV_RND = 0x02, DEV_HNI = 0x09, DEV_HND = 0x0a,
		  DEV_SNF = 0x0c, DEV_SBSX = 0x0d, DEV_HNF = 0x0e };

static uint8_t el1_stack[8192] __attribute__((aligned(16)));

static uint64_t rd(uint64_t address) { return mmio_read64(address); }
static void wr(uint64_t address, uint64_t value) { mmio_write64(address, value); }

static unsigned node_type(uint64_t info) { return (unsigned)(info & 0xffff); }
static unsigned node_id(uint64_t info) { return (unsigned)((info >> 16) & 0xffff); }
static unsigned node_logid(uint64_t info) { return (unsigned)((info >> 32) & 0xffff); }

struct census { unsigned hnf, hni, dn, dtc, rni, rnd, sbsx, cxra, cxha, external, other; };

static uint64_t dtc_base;

static void count_node(struct census *c, uint64_t base)
{
	switch (node_type(rd(base + CMN_NODE_INFO))) {
	case CMN_TYPE_HNF: c->hnf++; break;
	case CMN_TYPE_HNI: c->hni++; break;
	case CMN_TYPE_DVM: c->dn++; break;
	case CMN_TYPE_DTC: c->dtc++; dtc_base = base; break;
	case CMN_TYPE_RNI: c->rni++; break;
	case CMN_TYPE_RND: c->rnd++; break;
	case CMN_TYPE_SBSX: c->sbsx++; break;
	case CMN_TYPE_CXRA: c->cxra++; break;
	case CMN_TYPE_CXHA: c->cxha++; break;
	default: c->other++; break; /* Linux: "invalid device node type" -> -ENODEV */
	}
}

static void walk(void)
{
	uint64_t root = PERIPHBASE + ROOT_NODE_OFFSET;
	uint64_t info = rd(root + CMN_NODE_INFO);
	fw_check_eq("root node type (CFG)", node_type(info), CMN_TYPE_CFG);
	uint64_t periph01 = rd(root + CMN_CFGM_PERIPH_ID_01);
	fw_check_eq("part number (CMN-600)", (periph01 & 0xff) | (((periph01 >> 32) & 0xf) << 8), 0x434);

	uint64_t child_info = rd(root + CMN_CHILD_INFO);
	unsigned num_xps = (unsigned)(child_info & 0xffff);
	uint64_t ptr_offset = (child_info >> 16) & 0xffff;
	fw_check_eq("XPs (CFG child count) = 3 x 3", num_xps, 9);
	if (num_xps != 9)
		return;

	struct census c = {0};
	unsigned mesh_x = num_xps, xp_errors = 0, total_children = 0;
	unsigned connect[9][2];
	for (unsigned i = 0; i < num_xps; i++) {
		uint64_t xp = PERIPHBASE + (rd(root + ptr_offset + 8 * i) & CMN_CHILD_NODE_ADDR);
		uint64_t xp_info = rd(xp + CMN_NODE_INFO);
		unsigned id = node_id(xp_info), logid = node_logid(xp_info);
		if (id == 8)
			mesh_x = logid;
		/* Row-major logical IDs; node ID X << 5 | Y << 3 for that position. */
		unsigned x = logid % 3, y = logid / 3;
		if (node_type(xp_info) != CMN_TYPE_XP || logid >= 9 || id != ((x << 5) | (y << 3))) {
			fw_printf("FAIL XP %u: type 0x%x node ID 0x%x logical ID %u\n", i,
				  node_type(xp_info), id, logid);
			xp_errors++;
			continue;
		}
		connect[logid][0] = (unsigned)(rd(xp + CMN_MXP_CONNECT_INFO(0)) & 0x1f);
		connect[logid][1] = (unsigned)(rd(xp + CMN_MXP_CONNECT_INFO(1)) & 0x1f);
		uint64_t xp_child_info = rd(xp + CMN_CHILD_INFO);
		unsigned children = (unsigned)(xp_child_info & 0xffff);
		uint64_t xp_ptr_offset = (xp_child_info >> 16) & 0xffff;
		total_children += children;
		for (unsigned j = 0; j < children; j++) {
			uint64_t pointer = rd(xp + xp_ptr_offset + 8 * j);
			if (pointer & CMN_CHILD_EXTERNAL) { /* Linux skips external children */
				c.external++;
				continue;
			}
			count_node(&c, PERIPHBASE + (pointer & CMN_CHILD_NODE_ADDR));
		}
	}
	fw_check_eq("XPs with the wrong type, node ID or logical ID", xp_errors, 0);
	fw_check_eq("mesh_x (logical ID of XP node 8)", mesh_x, 3);
	fw_check_eq("mesh_y", num_xps / mesh_x, 3);
	fw_printf("walk: %u XPs, %u child pointers\n", num_xps, total_children);
	/* The nodes platforms/arm-default.yaml lists: HN-F at (1,0) (2,0) (0,1) (2,1) port 1; the
	 * HN-D at (0,0) gives an HN-I, a DN and the DTC; HN-I at (1,1); RN-I (0,0); RN-D (1,1);
	 * SBSX (0,1); the CCIX gateway (1,2) a CXRA, a CXHA and an external CXLA; each RN-F port
	 * (1,0) (2,1) an external RN-SAM. */
	fw_check_eq("HN-F nodes", c.hnf, 4);
	fw_check_eq("HN-I nodes", c.hni, 2);
	fw_check_eq("DN (DVM) nodes", c.dn, 1);
	fw_check_eq("DTC nodes", c.dtc, 1);
	fw_check_eq("RN-I nodes", c.rni, 1);
	fw_check_eq("RN-D nodes", c.rnd, 1);
	fw_check_eq("SBSX nodes", c.sbsx, 1);
	fw_check_eq("CXRA nodes", c.cxra, 1);
	fw_check_eq("CXHA nodes", c.cxha, 1);
	fw_check_eq("external children (2 RN-SAM, 1 CXLA)", c.external, 3);
	fw_check_eq("nodes of a type Linux rejects", c.other, 0);
	if (xp_errors)
		return;
	static const struct { unsigned logid, port, type; const char *what; } ports[] = {
		{0, 0, DEV_HND, "XP(0,0) p0 HN-D"}, {0, 1, DEV_RNI, "XP(0,0) p1 RN-I"},
		{1, 1, DEV_HNF, "XP(1,0) p1 HN-F"}, {2, 0, DEV_SNF, "XP(2,0) p0 SN-F"},
		{3, 0, DEV_SBSX, "XP(0,1) p0 SBSX"}, {4, 0, DEV_RND, "XP(1,1) p0 RN-D"},
		{4, 1, DEV_HNI, "XP(1,1) p1 HN-I"}, {6, 1, DEV_NONE, "XP(0,2) p1 nothing"},
	};
	for (unsigned i = 0; i < sizeof ports / sizeof ports[0]; i++)
		fw_check_eq(ports[i].what, connect[ports[i].logid][ports[i].port], ports[i].type);
}

/* The DTC cycle counter counts mesh cycles (cmn0: 1 GHz) while dt_en and pmu_en are set: over
 * an interval measured with the CPU's own cycles (cpu0: 2 GHz), floor or ceiling of half. */
static void dtc_cycle_counter(void)
{
	fw_check_true("DTC found", dtc_base != 0);
	if (!dtc_base)
		return;
	wr(dtc_base + CMN_DT_DTC_CTL, rd(dtc_base + CMN_DT_DTC_CTL) | 1);
	wr(dtc_base + CMN_DT_PMCR, rd(dtc_base + CMN_DT_PMCR) | 1);
	uint64_t cpu0, dtc0, cpu1, dtc1;
	uint64_t pmccntr = dtc_base + CMN_DT_PMCCNTR;
	__asm__ volatile("mrs %0, " FW_STR(AMEVCNTR00_EL0) "\n\tldr %1, [%2]" /* the ISS stops at the MRS: the LDR starts a block (mmio.h) */
			 : "=&r"(cpu0), "=&r"(dtc0) : "r"(pmccntr) : "memory");
	for (volatile unsigned i = 0; i < 3000; i++)
		;
	__asm__ volatile("mrs %0, " FW_STR(AMEVCNTR00_EL0) "\n\tldr %1, [%2]"
			 : "=&r"(cpu1), "=&r"(dtc1) : "r"(pmccntr) : "memory");
	uint64_t cpu_cycles = cpu1 - cpu0, dtc_cycles = (dtc1 - dtc0) & ((1ull << 40) - 1);
	fw_printf("DTC: %llu CPU cycles (2 GHz), %llu mesh cycles (1 GHz)\n",
		  (unsigned long long)cpu_cycles, (unsigned long long)dtc_cycles);
	fw_check_true("dt_pmccntr advances by CPU cycles / 2 (floor or ceiling)",
		      dtc_cycles == cpu_cycles / 2 || dtc_cycles == (cpu_cycles + 1) / 2);
	fw_check_true("the loop ran (CPU cycles > 6000)", cpu_cycles > 6000);
	wr(dtc_base + CMN_DT_PMCR, rd(dtc_base + CMN_DT_PMCR) & ~1ull);
}

static uint64_t el1_driver(uint64_t unused)
{
	(void)unused;
	walk();
	dtc_cycle_counter();
	return 0;
}

int main(void)
{
	el3_enable_amu();
	el3_prepare_nonsecure_world();
	__asm__ volatile("msr hcr_el2, %0" :: "r"(HCR_EL2_RW));
	__asm__ volatile("msr cptr_el2, xzr");
	isb();
	fw_run_lower(1, el1_driver, 0, el1_stack + sizeof el1_stack);
	return fw_finish("cmn_discovery");
}
