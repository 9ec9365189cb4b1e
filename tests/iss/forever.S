// A firmware that never exits: stopped by the time limit (exit 2).
.globl _start
_start:
    b _start
