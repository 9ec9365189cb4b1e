// An instruction that is UNDEFINED with no vector table installed (VBAR_EL3 = 0): exit 2.
.globl _start
_start:
    udf #0
