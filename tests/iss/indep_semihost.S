// Independent firmware (issue 28, "Done when"): written from Arm's "Semihosting for AArch32 and
// AArch64" (v2) and docs/firmware.md's contract ("Leaving: semihosting") alone, without reading
// iss/. Every operation the contract lists, with the values it promises:
// SYS_OPEN ":tt" by mode (1/2/3), any other name -1; SYS_CLOSE 0 / -1; SYS_ISTTY; SYS_ISERROR;
// SYS_FLEN -1; SYS_READ returns the length (EOF) and writes nothing; SYS_READC (not in the
// contract's table: "other") -1; SYS_TIME 0; SYS_ERRNO 0; SYS_TICKFREQ 10^9; SYS_CLOCK 0 cs this
// early; SYS_ELAPSED: 2003 instructions plus one HLT between two calls on cpu0 (2 GHz, one cycle
// per instruction: docs/firmware.md "Time") are exactly 1002 ns, and a later call is later;
// SYS_HEAPINFO: heap base = the end of the loaded image rounded up to 16, heap limit = stack
// limit = 0x81000000 - 64 KiB, stack base = 0x81000000; SYS_GET_CMDLINE: an empty string, size 0,
// result 0, and -1 for a size-0 buffer; output by SYS_WRITEC, SYS_WRITE0 and SYS_WRITE (stdout
// and stderr, result 0 = nothing left unwritten), checked byte for byte by the ctest
// (tests/iss/indep_check_run.sh); the exit by SYS_EXIT_EXTENDED (0x20).
// The exit status names the failing check.
#include "common.inc"
#define SYS_OPEN 0x01
#define SYS_CLOSE 0x02
#define SYS_WRITEC 0x03
#define SYS_WRITE0 0x04
#define SYS_WRITE 0x05
#define SYS_READ 0x06
#define SYS_READC 0x07
#define SYS_ISERROR 0x08
#define SYS_ISTTY 0x09
#define SYS_FLEN 0x0c
#define SYS_CLOCK 0x10
#define SYS_TIME 0x11
#define SYS_ERRNO 0x13
#define SYS_GET_CMDLINE 0x15
#define SYS_HEAPINFO 0x16
#define SYS_EXIT_EXTENDED 0x20
#define SYS_ELAPSED 0x30
#define SYS_TICKFREQ 0x31

// x0 = op, x1 = the block at `label` (or an immediate parameter), HLT, then X0 == value.
.macro semi op, param_label, value, id
    mov x0, #\op
    adr x1, \param_label
    hlt #0xf000
    ldr x15, =\value
    cmp x0, x15
    check_eq \id
.endm
// Store a 64-bit value into word `index` of the block at `label`.
.macro put label, index, value
    adr x14, \label
    ldr x15, =\value
    str x15, [x14, #(8 * \index)]
.endm

.globl _start
_start:
    // SYS_ELAPSED first: the exact delta (checks 1-3).
    mov x0, #SYS_ELAPSED
    adr x1, t1
    hlt #0xf000                    // t1
    mov x2, #1000                  // 1
1:  subs x2, x2, #1                // 2 x 1000
    b.ne 1b
    mov x0, #SYS_ELAPSED           // 1
    adr x1, t2                     // 1: 2003 between, + the first HLT: 2004 x 0.5 ns
    hlt #0xf000                    // t2
    cmp x0, #0
    check_eq 1
    adr x1, t1
    ldr x2, [x1]
    ldr x3, [x1, #8]               // t2
    sub x4, x3, x2
    cmp x4, #1002
    check_eq 2
    semi SYS_TICKFREQ, t1, 1000000000, 3
    semi SYS_CLOCK, t1, 0, 4
    semi SYS_TIME, t1, 0, 5
    semi SYS_ERRNO, t1, 0, 6

    // SYS_OPEN (7-13), SYS_CLOSE (14-15), SYS_ISTTY (16-17), SYS_FLEN (18).
    put open_block, 1, 0
    semi SYS_OPEN, open_block, 1, 7
    put open_block, 1, 3
    semi SYS_OPEN, open_block, 1, 8
    put open_block, 1, 4
    semi SYS_OPEN, open_block, 2, 9
    put open_block, 1, 7
    semi SYS_OPEN, open_block, 2, 10
    put open_block, 1, 8
    semi SYS_OPEN, open_block, 3, 11
    put open_block, 1, 11
    semi SYS_OPEN, open_block, 3, 12
    semi SYS_OPEN, open_other, -1, 13
    put handle_block, 0, 2
    semi SYS_CLOSE, handle_block, 0, 14
    put handle_block, 0, 7
    semi SYS_CLOSE, handle_block, -1, 15
    put handle_block, 0, 1
    semi SYS_ISTTY, handle_block, 1, 16
    put handle_block, 0, 9
    semi SYS_ISTTY, handle_block, 0, 17
    put handle_block, 0, 1
    semi SYS_FLEN, handle_block, -1, 18

    // SYS_ISERROR (19-21).
    put handle_block, 0, -1
    semi SYS_ISERROR, handle_block, 1, 19
    put handle_block, 0, 5
    semi SYS_ISERROR, handle_block, 0, 20
    put handle_block, 0, 0
    semi SYS_ISERROR, handle_block, 0, 21

    // SYS_READ from stdin: EOF, returns the length, writes nothing (22-23); SYS_READC -1 (24).
    put read_block, 0, 1
    adr x0, read_buffer
    put read_block, 1, 0
    str x0, [x14, #8]
    put read_block, 2, 16
    semi SYS_READ, read_block, 16, 22
    adr x1, read_buffer
    ldp x2, x3, [x1]
    ldr x4, =0x7777777777777777
    cmp x2, x4
    ccmp x3, x4, #0, eq
    check_eq 23
    mov x0, #SYS_READC
    mov x1, #0
    hlt #0xf000
    cmn x0, #1
    check_eq 24

    // SYS_GET_CMDLINE (25-28).
    adr x0, cmd_buffer
    adr x14, cmd_block
    str x0, [x14]
    mov x0, #64
    str x0, [x14, #8]
    semi SYS_GET_CMDLINE, cmd_block, 0, 25
    adr x1, cmd_buffer
    ldrb w2, [x1]
    cmp w2, #0
    check_eq 26
    adr x1, cmd_block
    ldr x2, [x1, #8]
    cmp x2, #0
    check_eq 27
    str xzr, [x1, #8]              // a buffer of size 0
    semi SYS_GET_CMDLINE, cmd_block, -1, 28

    // SYS_HEAPINFO (29-32).
    adr x0, heap_info
    adr x1, heap_block
    str x0, [x1]
    mov x0, #SYS_HEAPINFO
    hlt #0xf000
    adr x1, heap_info
    ldp x2, x3, [x1]
    ldp x4, x5, [x1, #16]
    ldr x6, =(_end + 15)
    and x6, x6, #~15
    cmp x2, x6
    check_eq 29
    ldr x6, =0x80ff0000
    cmp x3, x6
    check_eq 30
    cmp x5, x6
    check_eq 31
    ldr x6, =0x81000000
    cmp x4, x6
    check_eq 32

    // Output: stdout "ABC\nDE\n", stderr "err\n" (33-35).
    mov x0, #SYS_WRITEC
    adr x1, letter_a
    hlt #0xf000
    mov x0, #SYS_WRITEC
    adr x1, letter_b
    hlt #0xf000
    mov x0, #SYS_WRITE0
    adr x1, text_c
    hlt #0xf000
    put write_block, 0, 2
    adr x0, text_de
    str x0, [x14, #8]
    put write_block, 2, 3
    semi SYS_WRITE, write_block, 0, 33
    put write_block, 0, 3
    adr x0, text_err
    str x0, [x14, #8]
    put write_block, 2, 4
    semi SYS_WRITE, write_block, 0, 34

    // Time goes on (35): a later SYS_ELAPSED is later than t2.
    mov x0, #SYS_ELAPSED
    adr x1, t3
    hlt #0xf000
    adr x1, t1
    ldr x3, [x1, #8]
    ldr x4, [x1, #16]
    cmp x4, x3
    cset x5, hi
    cmp x5, #1
    check_eq 35

    mov x0, #SYS_EXIT_EXTENDED
    adr x1, exit_block
    hlt #0xf000
    b .

    .balign 8
t1: .quad 0
t2: .quad 0
t3: .quad 0
open_block: .quad tt_name, 0, 3
open_other: .quad other_name, 4, 3
handle_block: .quad 0
read_block: .quad 0, 0, 0
read_buffer: .quad 0x7777777777777777, 0x7777777777777777
cmd_block: .quad 0, 0
cmd_buffer: .fill 64, 1, 0x55
heap_block: .quad 0
heap_info: .quad 0, 0, 0, 0
write_block: .quad 0, 0, 0
exit_block: .quad 0x20026, 0
tt_name: .asciz ":tt"
other_name: .asciz "foo"
letter_a: .ascii "A"
letter_b: .ascii "B"
text_c: .asciz "C\n"
text_de: .ascii "DE\n"
text_err: .ascii "err\n"
