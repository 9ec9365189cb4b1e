// MPIDR_EL1 as cpu0 reads it at EL1: pmusim's DynamIQ layout (iss/cpu_identity.h; Arm ARM
// D17.2.101): bit 31 RES1, MT [24] = 1, Aff2 = the cluster, Aff1 = the core in it, Aff0 = 0. On
// arm-default cpu0 is cluster 0 core 0 and cpu5 cluster 1 core 1; each engine reads its own value.
#include "common.inc"
.globl _start
_start:
    mrs x0, MPIDR_EL1
    ldr x1, =0x81000000
    cmp x0, x1
    check_eq 1
    mov x9, #0
    semihost_exit x9
