/* Expectations inside the firmware: each check prints one line; fw_finish() prints the summary
 * and gives the exit status (0 when every check held, 1 otherwise). */
#ifndef PMUSIM_FIRMWARE_CHECK_H
#define PMUSIM_FIRMWARE_CHECK_H

#include <stdint.h>

void fw_check_eq(const char *what, uint64_t got, uint64_t expected);
void fw_check_true(const char *what, int condition);
int fw_finish(const char *name);

#endif
