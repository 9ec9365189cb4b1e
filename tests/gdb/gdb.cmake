# The GDB stub and the trace, end to end (docs/debugging.md): Debian's gdb-multiarch in batch
# mode against `pmusim firmware --gdb`, and `--trace` on an ISS test program.
find_program(GDB_MULTIARCH gdb-multiarch)
find_program(AARCH64_NM aarch64-linux-gnu-nm)
set(GDB_TEST_DIR ${CMAKE_BINARY_DIR}/tests/gdb)
# The test programs: one RWX segment at the start of arm-default's DRAM, as tests/iss's.
set(GDB_TEST_ELFS)
foreach(prog gdb_session gdb_served gdb_mmu)
  add_custom_command(OUTPUT ${GDB_TEST_DIR}/${prog}.elf
    COMMAND ${CMAKE_COMMAND} -E make_directory ${GDB_TEST_DIR}
    COMMAND ${AARCH64_GCC} -c ${CMAKE_SOURCE_DIR}/tests/gdb/${prog}.S -o ${GDB_TEST_DIR}/${prog}.o
    COMMAND ${AARCH64_LD} -N -Ttext=0x80000000 -e _start --build-id=none --no-warn-rwx-segments
            ${GDB_TEST_DIR}/${prog}.o -o ${GDB_TEST_DIR}/${prog}.elf
    DEPENDS ${CMAKE_SOURCE_DIR}/tests/gdb/${prog}.S ${CMAKE_SOURCE_DIR}/tests/iss/common.inc
    COMMENT "Assembling the GDB test program ${prog}.elf")
  list(APPEND GDB_TEST_ELFS ${GDB_TEST_DIR}/${prog}.elf)
endforeach()
add_custom_target(gdb_test_programs ALL DEPENDS ${GDB_TEST_ELFS})
if(NOT GDB_MULTIARCH)
  message(FATAL_ERROR "gdb-multiarch not found: run scripts/install-deps.sh")
endif()
pmusim_script_test("gdb: break at a symbol, read a counter through memory, step, continue to the pass"
  tests/gdb/check_gdb_session.py $<TARGET_FILE:pmusim> ${GDB_MULTIARCH} ${GDB_TEST_DIR}/gdb_session.elf TIMEOUT 150)
# A step retires one instruction and a breakpoint stops also where the ISS executes the
# instruction before it (MRS/MSR, WFE, exception entry, ERET), in both modes.
pmusim_script_test("gdb: steps and breakpoints around ISS-served instructions (fast)"
  tests/gdb/check_gdb_served.py $<TARGET_FILE:pmusim> ${GDB_MULTIARCH} ${AARCH64_NM} ${GDB_TEST_DIR}/gdb_served.elf)
pmusim_script_test("gdb: steps and breakpoints around ISS-served instructions (reference)"
  tests/gdb/check_gdb_served.py $<TARGET_FILE:pmusim> ${GDB_MULTIARCH} ${AARCH64_NM} ${GDB_TEST_DIR}/gdb_served.elf
  --reference)
# m/M/X name virtual addresses: translated by the CPU's stage 1 regime (TTBR0/TTBR1), VA = PA with
# the MMU off, an unmapped VA an error; writes reach the PA, and code written runs as written.
pmusim_script_test("gdb: memory reads and writes through the MMU, an unmapped address an error"
  tests/gdb/check_gdb_mmu.py $<TARGET_FILE:pmusim> ${GDB_MULTIARCH} ${AARCH64_NM} ${GDB_TEST_DIR}/gdb_mmu.elf)
# Simulated time stands still while GDB holds the CPU: a run halted for seconds of wall time logs
# the same accesses at the same instants with the same counter values as a run alone.
pmusim_script_test("gdb: simulated time stands still while halted"
  tests/gdb/check_gdb_time_still.py $<TARGET_FILE:pmusim> ${GDB_MULTIARCH} ${ISS_ELF_DIR}/amu_count.elf)
pmusim_script_test("gdb: the trace shows the TAM trap with its ESR and the MRS disassembled"
  tests/gdb/check_trace.py $<TARGET_FILE:pmusim> ${AARCH64_NM} ${ISS_ELF_DIR}/traps.elf ${GDB_TEST_DIR})
add_test(NAME "gdb: an unknown trace category is bad input"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/expect_exit.sh 2 $<TARGET_FILE:pmusim> firmware -q --trace insn,bogus ${ISS_ELF_DIR}/traps.elf)
add_test(NAME "gdb: --gdb-wait without --gdb is bad input"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/expect_exit.sh 2 $<TARGET_FILE:pmusim> firmware -q --gdb-wait ${ISS_ELF_DIR}/traps.elf)
set_tests_properties("gdb: an unknown trace category is bad input" "gdb: --gdb-wait without --gdb is bad input"
  PROPERTIES ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE" TIMEOUT 30)
# `pmusim run` traces a sequence's exec statements: amu_count.S writes AMCNTENSET0_EL0
# (S3_3_C13_C2_5, Arm ARM D17.3) = 0xf first.
add_test(NAME "gdb: pmusim run traces the firmware of an exec statement"
  COMMAND $<TARGET_FILE:pmusim> run -q --trace sysreg ${ISS_ELF_DIR}/exec_mix.seq)
set_tests_properties("gdb: pmusim run traces the firmware of an exec statement" PROPERTIES
  ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "\"encoding\":\"S3_3_C13_C2_5\",\"file\":\"[^\"]*amu_count.elf\",\"kind\":\"sysreg\",\"line\":0,\"op\":\"write\",\"outcome\":\"ok\"")
pmusim_script_test("gdb: attach to running firmware then Ctrl-C and kill"
  tests/gdb/check_gdb_interrupt.py $<TARGET_FILE:pmusim> ${GDB_MULTIARCH} ${ISS_ELF_DIR}/forever.elf TIMEOUT 150)
# --gdb on `pmusim run` (an exec statement's firmware) and on `pmusim linux` (the minimal Image of
# tests/linux, made by the test itself): attach, threads, PC, steps, an FP/SIMD register written and
# read back, continue to the end (issue 32 item 1).
pmusim_script_test("gdb: pmusim run and pmusim linux serve GDB: threads, steps, FP/SIMD registers, continue"
  tests/gdb/check_gdb_run_linux.py $<TARGET_FILE:pmusim> ${GDB_MULTIARCH} ${ISS_ELF_DIR}
  ${CMAKE_SOURCE_DIR}/tests/linux/tiny_image.py TIMEOUT 150)
# GDB's reads at EL3 are flat while EL1's MMU is on, and through EL1's tables at EL1 (tests/iss/el_regime.S).
pmusim_script_test("gdb: memory reads are flat at EL3 and translated at EL1 while EL1's MMU is on"
  tests/gdb/check_gdb_el_regime.py $<TARGET_FILE:pmusim> ${GDB_MULTIARCH} ${AARCH64_NM} ${ISS_ELF_DIR}/el_regime.elf)
