#include "check.h"

#include "semihost.h"

static unsigned checks_run, checks_failed;

void fw_check_eq(const char *what, uint64_t got, uint64_t expected)
{
	checks_run++;
	if (got == expected) {
		fw_printf("ok   %s = 0x%llx\n", what, (unsigned long long)got);
		return;
	}
	checks_failed++;
	fw_printf("FAIL %s = 0x%llx, expected 0x%llx\n", what, (unsigned long long)got,
		  (unsigned long long)expected);
}

void fw_check_true(const char *what, int condition)
{
	checks_run++;
	if (!condition)
		checks_failed++;
	fw_printf("%s %s\n", condition ? "ok  " : "FAIL", what);
}

int fw_finish(const char *name)
{
	fw_printf("%s: %u checks, %u failed\n", name, checks_run, checks_failed);
	return (checks_failed || !checks_run) ? 1 : 0;
}
