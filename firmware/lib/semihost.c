#include "semihost.h"

#include <stdarg.h>
#include <stdio.h>

uint64_t semihost_call(uint32_t op, uint64_t param)
{
	register uint64_t x0 __asm__("x0") = op;
	register uint64_t x1 __asm__("x1") = param;
	__asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
	return x0;
}

void fw_puts(const char *text)
{
	semihost_call(SYS_WRITE0, (uint64_t)(uintptr_t)text);
}

void fw_printf(const char *format, ...)
{
	char line[256];
	va_list args;
	va_start(args, format);
	vsnprintf(line, sizeof line, format, args);
	va_end(args);
	fw_puts(line);
}

void fw_exit(int status)
{
	/* The parameter block: the reason and the exit status (semihosting spec, SYS_EXIT_EXTENDED). */
	static volatile uint64_t block[2];
	block[0] = ADP_STOPPED_APPLICATION_EXIT;
	block[1] = (uint64_t)(int64_t)status;
	semihost_call(SYS_EXIT_EXTENDED, (uint64_t)(uintptr_t)block);
	for (;;)
		__asm__ volatile("wfi");
}
