// An UNDEFINED instruction with VBAR_EL3 pointing at zeroed memory: the vector's first word
// (0x00000000, UDF #0) is UNDEFINED too, and taking that exception leads to the same vector
// without an instruction retiring. The run stops with the PC and exit 2 (docs/firmware.md).
.globl _start
_start:
    adr x0, vectors
    msr S3_6_C12_C0_0, x0          // VBAR_EL3
    udf #0
    .balign 0x800
vectors:
    .skip 0x800
