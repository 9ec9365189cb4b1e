/* expect_fail: a firmware with a wrong expectation, to prove that a failing firmware fails the
 * run. arm-default's AMU has four architected counters and no auxiliary ones, so
 * AMCGCR_EL0 (CG0NC [7:0] = 4, CG1NC [15:8] = 0; Arm ARM D24.6.3) reads 4, not 5: the check
 * fails, main returns 1, the semihosting exit status is 1 and pmusim exits with 1. */
#include "check.h"
#include "sysreg.h"

int main(void)
{
	fw_check_eq("AMCGCR_EL0 (deliberately wrong expectation)", sysreg_read(AMCGCR_EL0), 5);
	return fw_finish("expect_fail");
}
