/* Arm semihosting (Arm "Semihosting for AArch32 and AArch64", version 3): the AArch64 trap
 * instruction is HLT #0xF000 with the operation number in w0 and the parameter in x1. */
#ifndef PMUSIM_FIRMWARE_SEMIHOST_H
#define PMUSIM_FIRMWARE_SEMIHOST_H

#include <stdint.h>

#define SYS_WRITE0         0x04
#define SYS_EXIT           0x18
#define SYS_EXIT_EXTENDED  0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026 /* reason code of SYS_EXIT_EXTENDED's block */

uint64_t semihost_call(uint32_t op, uint64_t param);
void fw_puts(const char *text);                                 /* SYS_WRITE0 */
void fw_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
void fw_exit(int status) __attribute__((noreturn));             /* SYS_EXIT_EXTENDED */

#endif
