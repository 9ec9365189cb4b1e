# ISS tests (docs/firmware.md): small AArch64 programs assembled at build time with the cross
# binutils (scripts/install-deps.sh installs them), run with `pmusim firmware`.
find_program(AARCH64_GCC aarch64-linux-gnu-gcc)
find_program(AARCH64_LD aarch64-linux-gnu-ld)
if(NOT AARCH64_GCC OR NOT AARCH64_LD)
  message(FATAL_ERROR "aarch64-linux-gnu-gcc/ld not found: run scripts/install-deps.sh (gcc-aarch64-linux-gnu, binutils-aarch64-linux-gnu)")
endif()
set(ISS_ELF_DIR ${CMAKE_BINARY_DIR}/tests/iss)
set(ISS_PROGRAMS amu_count traps forever undefined exit_status irq_wfi irq_unmask wait_traps copied_code el0_traps semihost_write exception_loop svc_hvc mmio_in_block mmio_first_access mmio_group branch_loop mmu_window mpidr_cpu0 mpidr_cpu5 el0_exit_stop el1_traps brk_tde cpacr_report)
list(APPEND ISS_PROGRAMS el_regime el0_ctr_tid2)
list(APPEND ISS_PROGRAMS first_run_copied)
list(APPEND ISS_PROGRAMS el2_start_hvc)
list(APPEND ISS_PROGRAMS e2h_unmodelled)
# Each program is one .S file: assembled, then linked as one RWX segment at the start of
# arm-default's DRAM, no headers loaded (docs/firmware.md). Every tests/iss/*.inc is a dependency.
file(GLOB ISS_INCLUDES ${CMAKE_SOURCE_DIR}/tests/iss/*.inc)
function(iss_assemble prog out_list)
  set(src ${CMAKE_SOURCE_DIR}/tests/iss/${prog}.S)
  set(elf ${ISS_ELF_DIR}/${prog}.elf)
  add_custom_command(OUTPUT ${elf}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${ISS_ELF_DIR}
    COMMAND ${AARCH64_GCC} -c ${src} -o ${ISS_ELF_DIR}/${prog}.o
    COMMAND ${AARCH64_LD} -N -Ttext=0x80000000 -e _start --build-id=none --no-warn-rwx-segments
            ${ISS_ELF_DIR}/${prog}.o -o ${elf}
    DEPENDS ${src} ${ISS_INCLUDES}
    COMMENT "Assembling ISS test program ${prog}.elf")
  set(${out_list} ${${out_list}} ${elf} PARENT_SCOPE)
endfunction()
set(ISS_ELFS)
foreach(prog ${ISS_PROGRAMS})
  iss_assemble(${prog} ISS_ELFS)
endforeach()
add_custom_target(iss_test_programs ALL DEPENDS ${ISS_ELFS})
configure_file(${CMAKE_SOURCE_DIR}/tests/iss/exec_mix.seq.in ${ISS_ELF_DIR}/exec_mix.seq @ONLY)

set(ISS_ENV "SC_COPYRIGHT_MESSAGE=DISABLE")
function(iss_test name expected)
  add_test(NAME "iss: ${name}" COMMAND ${CMAKE_SOURCE_DIR}/tests/expect_exit.sh ${expected} $<TARGET_FILE:pmusim> ${ARGN})
  set_tests_properties("iss: ${name}" PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
endfunction()
iss_test("INST_RETIRED and CPU_CYCLES count a known block exactly" 0 firmware -q ${ISS_ELF_DIR}/amu_count.elf)
iss_test("INST_RETIRED counts a branch loop exactly" 0 firmware -q ${ISS_ELF_DIR}/branch_loop.elf)
iss_test("INST_RETIRED counts a branch loop exactly in the reference mode" 0 firmware -q --reference --time-limit 100us ${ISS_ELF_DIR}/branch_loop.elf)
iss_test("trap to EL3 with ESR ELR SPSR then ERET and SMC" 0 firmware -q ${ISS_ELF_DIR}/traps.elf)
iss_test("ERET down EL3 to EL0, SVC to EL1 and HVC to EL2 with ESR ELR SPSR" 0 firmware -q ${ISS_ELF_DIR}/svc_hvc.elf)
iss_test("exit status 3 and an unknown semihosting call" 1 firmware -q ${ISS_ELF_DIR}/exit_status.elf)
iss_test("exec statement mixes firmware and text" 0 run -q ${ISS_ELF_DIR}/exec_mix.seq)
iss_test("overflow IRQ wakes WFI, taken at EL3 with ELR SPSR, AMU stopped in WFI" 0 firmware -q ${ISS_ELF_DIR}/irq_wfi.elf)
iss_test("a pending IRQ is taken right after DAIFClr, MSR DAIF, ERET and in a poll loop" 0 firmware -q ${ISS_ELF_DIR}/irq_unmask.elf)
iss_test("a pending IRQ is taken right after unmasking in the reference mode" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/irq_unmask.elf)
iss_test("HCR_EL2.TWI TWE TSC trap EL1 WFI WFE SMC to EL2 and SCR_EL3.TWI traps EL2 WFI to EL3" 0 firmware -q ${ISS_ELF_DIR}/wait_traps.elf)
iss_test("WFI WFE SMC traps in the reference mode" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/wait_traps.elf)
iss_test("MDCR_EL2.TDE routes an EL1 BRK to EL2 (EC 0x3C), and with TDE clear it stays at EL1" 0 firmware -q ${ISS_ELF_DIR}/brk_tde.elf)
iss_test("MDCR_EL2.TDE routing of BRK in the reference mode" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/brk_tde.elf)
iss_test("CPACR_EL1 reads back as written at EL3 and EL1 and is UNDEFINED at EL0" 0 firmware -q ${ISS_ELF_DIR}/cpacr_report.elf)
iss_test("CPACR_EL1 in the reference mode" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/cpacr_report.elf)
add_test(NAME "iss: CPACR_EL1.FPEN trapping FP/SIMD (not modelled) is reported once"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_log_once.sh $<TARGET_FILE:pmusim> ${ISS_ELF_DIR}/cpacr_report.elf "CPACR_EL1.FPEN = 0b00 written: FP/SIMD access traps are not modelled")
add_test(NAME "iss: CPACR_EL1.TTA (not modelled) is reported once"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_log_once.sh $<TARGET_FILE:pmusim> ${ISS_ELF_DIR}/cpacr_report.elf "CPACR_EL1 bit 28 (TTA) set: not modelled")
set_tests_properties("iss: CPACR_EL1.FPEN trapping FP/SIMD (not modelled) is reported once" "iss: CPACR_EL1.TTA (not modelled) is reported once"
  PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
iss_test("code copied at run time reads CurrentEL and VBAR_EL3 at EL3 and its ERET uses ELR_EL3" 0 firmware -q ${ISS_ELF_DIR}/copied_code.elf)
iss_test("code copied at run time in the reference mode" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/copied_code.elf)
iss_test("EL0 traps on each EL1-only register and instruction and on UMA UCT DZE" 0 firmware -q ${ISS_ELF_DIR}/el0_traps.elf)
iss_test("EL0 traps in the reference mode" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/el0_traps.elf)
iss_test("HCR_EL2.TVM TRVM TID1 TID2 TID3 TACR trap EL1 register accesses to EL2 with EC 0x18, and not once cleared" 0 firmware -q ${ISS_ELF_DIR}/el1_traps.elf)
iss_test("HCR_EL2 EL1 register traps in the reference mode" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/el1_traps.elf)
iss_test("an engine stop inside an EL0 block with SCTLR_EL1.nTWI = 0 is no UNDEFINED (reference mode)" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/el0_exit_stop.elf)
iss_test("an EL0 block with SCTLR_EL1.nTWI = 0 runs as in the reference mode (fast mode)" 0 firmware -q ${ISS_ELF_DIR}/el0_exit_stop.elf)
iss_test("semihosting SYS_WRITE writes 100000 bytes and returns what was not written and SYS_GET_CMDLINE refuses a window buffer" 0 firmware -q ${ISS_ELF_DIR}/semihost_write.elf)
# A relative ELF path on the command line is relative to the working directory (until 2026-12-05
# it was resolved against the ELF's own folder: build/tests/iss/build/tests/iss/amu_count.elf).
add_test(NAME "iss: pmusim firmware takes an ELF path relative to the working directory"
  COMMAND $<TARGET_FILE:pmusim> firmware -q tests/iss/amu_count.elf)
set_tests_properties("iss: pmusim firmware takes an ELF path relative to the working directory" PROPERTIES
  ENVIRONMENT ${ISS_ENV} TIMEOUT 60 WORKING_DIRECTORY ${CMAKE_BINARY_DIR} PASS_REGULAR_EXPRESSION "^amu_count: ok\n$")
add_test(NAME "iss: a write setting an unmodelled CPTR_EL3 bit (TFP) is reported once"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_log_once.sh $<TARGET_FILE:pmusim> ${ISS_ELF_DIR}/brk_tde.elf "CPTR_EL3 bit 10 (TFP) set: not modelled")
set_tests_properties("iss: a write setting an unmodelled CPTR_EL3 bit (TFP) is reported once" PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
add_test(NAME "iss: a write setting an unmodelled HCR_EL2 bit (TDZ) is reported once"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_log_once.sh $<TARGET_FILE:pmusim> ${ISS_ELF_DIR}/wait_traps.elf "HCR_EL2 bit 28 (TDZ) set: not modelled")
set_tests_properties("iss: a write setting an unmodelled HCR_EL2 bit (TDZ) is reported once" PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
add_test(NAME "iss: a write setting HCR_EL2.E2H, which the exception model ignores, is reported once"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_log_once.sh $<TARGET_FILE:pmusim> ${ISS_ELF_DIR}/e2h_unmodelled.elf "HCR_EL2 bit 34 (E2H) set: not modelled by the ISS")
set_tests_properties("iss: a write setting HCR_EL2.E2H, which the exception model ignores, is reported once" PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
add_test(NAME "iss: fast and reference access logs agree"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_reference.sh $<TARGET_FILE:pmusim>
          ${ISS_ELF_DIR}/traps.elf ${ISS_ELF_DIR}/amu_count.elf ${ISS_ELF_DIR}/irq_wfi.elf
          ${ISS_ELF_DIR}/branch_loop.elf ${ISS_ELF_DIR}/irq_unmask.elf ${ISS_ELF_DIR}/wait_traps.elf
          ${ISS_ELF_DIR}/el1_traps.elf)
set_tests_properties("iss: fast and reference access logs agree" PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME "iss: bad ELF files and runs exit 2"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/iss/bad_input.py $<TARGET_FILE:pmusim>
            ${ISS_ELF_DIR}/amu_count.elf ${ISS_ELF_DIR}/forever.elf ${ISS_ELF_DIR}/undefined.elf
            ${ISS_ELF_DIR}/exception_loop.elf)
  set_tests_properties("iss: bad ELF files and runs exit 2" PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 120)
  add_test(NAME "iss: window accesses inside a block run once, 64-bit LDR is one access"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/iss/check_mmio_log.py $<TARGET_FILE:pmusim>
            ${ISS_ELF_DIR}/mmio_in_block.elf)
  set_tests_properties("iss: window accesses inside a block run once, 64-bit LDR is one access"
    PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
  add_test(NAME "iss: a window access first in its run, and in a loop after an access point, runs once"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/iss/check_mmio_log.py $<TARGET_FILE:pmusim>
            ${ISS_ELF_DIR}/mmio_first_access.elf)
  set_tests_properties("iss: a window access first in its run, and in a loop after an access point, runs once"
    PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
  add_test(NAME "iss: a window access later in an access group, after its base was written, and by LDP runs once"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/iss/check_mmio_log.py $<TARGET_FILE:pmusim>
            ${ISS_ELF_DIR}/mmio_group.elf)
  set_tests_properties("iss: a window access later in an access group, after its base was written, and by LDP runs once"
    PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
endif()
# Issue 28 item 4 / issue 29: windows by physical address with the MMU on, from code the ISS never
# scanned (the engine's stage 2, iss/stage2_map.h; the ISS's own load/store decoding, iss/load_store.h).
iss_test("a window reached with the MMU on through an alias, from code copied at run time, by LDR STR post-index register-offset LDRSW LDP" 0
  firmware -q --el 1 ${ISS_ELF_DIR}/mmu_window.elf)
add_test(NAME "iss: with the MMU on each window access of a run-time block runs once (access log)"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/count_accesses.sh $<TARGET_FILE:pmusim> ${ISS_ELF_DIR}/mmu_window.elf
          ${ISS_ELF_DIR}/mmu_window.jsonl 0x2a000c00=5 0x50000000=1 0x50000008=1)
set_tests_properties("iss: with the MMU on each window access of a run-time block runs once (access log)" PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
iss_test("MPIDR_EL1 of cpu0 at EL1 is 0x81000000 (DynamIQ layout)" 0 firmware -q --el 1 --cpu cpu0 ${ISS_ELF_DIR}/mpidr_cpu0.elf)
iss_test("MPIDR_EL1 of cpu5 at EL1 is 0x81010100 (cluster 1 core 1)" 0 firmware -q --el 1 --cpu cpu5 ${ISS_ELF_DIR}/mpidr_cpu5.elf)
# EL2 and EL3 untranslated while EL1's MMU is on (issue 28; tests/iss/el_regime.S), both modes, and
# the two modes' access logs equal.
iss_test("SMC HVC and an IRQ to EL3 from EL1 with its MMU on run EL3 and EL2 untranslated" 0 firmware -q ${ISS_ELF_DIR}/el_regime.elf)
iss_test("EL2 and EL3 untranslated under EL1's MMU in the reference mode" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/el_regime.elf)
add_test(NAME "iss: fast and reference access logs agree with EL1's MMU on across EL2 and EL3"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_reference.sh $<TARGET_FILE:pmusim> ${ISS_ELF_DIR}/el_regime.elf)
set_tests_properties("iss: fast and reference access logs agree with EL1's MMU on across EL2 and EL3" PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
# HCR_EL2.TID2 traps an EL0 read of CTR_EL0 to EL2 after SCTLR_EL1.UCT's trap, with TGE or not
# (tests/iss/el0_ctr_tid2.S), both modes, and the two modes' access logs equal.
iss_test("an EL0 read of CTR_EL0 traps to EL1 on UCT, to EL2 on TID2 and TGE, in that order" 0 firmware -q ${ISS_ELF_DIR}/el0_ctr_tid2.elf)
iss_test("EL0 CTR_EL0 traps under UCT TID2 TGE in the reference mode" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/el0_ctr_tid2.elf)
add_test(NAME "iss: fast and reference access logs agree on EL0 CTR_EL0 traps"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_reference.sh $<TARGET_FILE:pmusim> ${ISS_ELF_DIR}/el0_ctr_tid2.elf)
set_tests_properties("iss: fast and reference access logs agree on EL0 CTR_EL0 traps" PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
# Issue 28: every EL0 access to an EL1-only register or instruction, generated from Linux's own
# register list (tests/iss/gen_el0_every.py; docs/firmware.md "EL0 and EL1 in the engine, partly").
add_custom_command(OUTPUT ${ISS_ELF_DIR}/el0_every.elf
  COMMAND ${CMAKE_COMMAND} -E make_directory ${ISS_ELF_DIR}
  COMMAND ${AARCH64_GCC} -c ${CMAKE_SOURCE_DIR}/tests/iss/el0_every.S -o ${ISS_ELF_DIR}/el0_every.o
  COMMAND ${AARCH64_LD} -N -Ttext=0x80000000 -e _start --build-id=none --no-warn-rwx-segments
          ${ISS_ELF_DIR}/el0_every.o -o ${ISS_ELF_DIR}/el0_every.elf
  DEPENDS ${CMAKE_SOURCE_DIR}/tests/iss/el0_every.S ${CMAKE_SOURCE_DIR}/tests/iss/el0_every_body.inc
          ${CMAKE_SOURCE_DIR}/tests/iss/common.inc
  COMMENT "Assembling ISS test program el0_every.elf")
add_custom_target(iss_el0_every ALL DEPENDS ${ISS_ELF_DIR}/el0_every.elf)
iss_test("EL0 traps on every register and instruction of Linux's list as the Arm ARM says" 0 firmware -q ${ISS_ELF_DIR}/el0_every.elf)
iss_test("EL0 traps on every register and instruction of Linux's list in the reference mode" 0 firmware -q --reference --time-limit 10ms ${ISS_ELF_DIR}/el0_every.elf)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME "iss: el0_every.S is what gen_el0_every.py makes of linux-source 6.1 and 6.12"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/iss/gen_el0_every.py --check ${CMAKE_SOURCE_DIR}/tests/iss/el0_every.S)
  set_tests_properties("iss: el0_every.S is what gen_el0_every.py makes of linux-source 6.1 and 6.12"
    PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77)
endif()
iss_test("code copied at run time and reached in the engine's first run reads CurrentEL at EL3" 0 firmware -q ${ISS_ELF_DIR}/first_run_copied.elf)
iss_test("code copied at run time and reached in the engine's first run, in the reference mode" 0 firmware -q --reference --time-limit 1ms ${ISS_ELF_DIR}/first_run_copied.elf)
# Started at EL2, the ISS leaves SCR_EL3.HCE = 1 (as TF-A does): an HVC is taken at EL2 (EC 0x16), not UNDEFINED.
iss_test("started at EL2, HVC is enabled (SCR_EL3.HCE set as EL3 firmware leaves it): EC 0x16 at EL2" 0 firmware -q --el 2 ${ISS_ELF_DIR}/el2_start_hvc.elf)
iss_test("started at EL2, HVC is enabled, in the reference mode" 0 firmware -q --el 2 --reference --time-limit 1ms ${ISS_ELF_DIR}/el2_start_hvc.elf)
# Independent firmware (issue 28 "Done when"): tests/iss/indep_*.S, written from the Arm ARM and
# docs/firmware.md's contract alone (not from iss/), each run in the fast and the reference mode;
# each exits with a status naming the check that failed.
set(ISS_INDEP_PROGRAMS indep_eret indep_routing indep_abort indep_semihost indep_irq indep_exit_subcode indep_exit_reason
    indep_edges indep_counting indep_irq_sp0 indep_address_size indep_traps_wfx indep_traps_sysreg indep_hcr_readback indep_tidcp_impdef indep_wfe_event)
set(ISS_INDEP_ELFS)
foreach(prog ${ISS_INDEP_PROGRAMS})
  iss_assemble(${prog} ISS_INDEP_ELFS)
endforeach()
add_custom_target(iss_indep_programs ALL DEPENDS ${ISS_INDEP_ELFS})
foreach(mode fast reference)
  if(mode STREQUAL "reference")
    set(mode_args --reference --time-limit 1ms)
  else()
    set(mode_args --time-limit 1ms)
  endif()
  iss_test("independent: initial state, SPSel, nested SVC HVC SMC from EL0 to EL3 and ERET back restore ESR ELR SPSR SP NZCV DAIF (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_eret.elf)
  iss_test("independent: HVC and SMC UNDEFINED by SCR_EL3.HCE SMD, HCR_EL2.TSC before SMD, TGE routes EL0 SVC and UNDEFINED to EL2 (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_routing.elf)
  iss_test("independent: data aborts outside memory at EL3 EL1 EL0 with ESR FAR ELR, routed by TGE and SCR_EL3.EA (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_abort.elf)
  iss_test("independent: HVC SMC at EL3, SMC with SMD at EL3 UNDEFINED, BRK EC 0x3C, HLT UNDEFINED, Secure EL1 HVC UNDEFINED and TSC TGE ignored, SPSel 0 vector, illegal ERET EC 0x0E (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_edges.elf)
  iss_test("independent: INST_RETIRED and CPU_CYCLES across SVC SMC ERET, an UNDEFINED that does not retire, semihosting and WFE (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_counting.elf)
  iss_test("independent: an IRQ at EL3 with SPSel 0 is taken at VBAR_EL3 + 0x080 with SPSR EL3t, SP_EL3 in the handler, SP_EL0 after ERET (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_irq_sp0.elf)
  iss_test("independent: SEVL and an exception return set the Event Register, which a WFE consumes without trapping; the next WFE traps (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_wfe_event.elf)
  iss_test("independent: HCR_EL2.TIDCP traps EL1 MRS MSR SYS in the IMPLEMENTATION DEFINED space (CRn 11, 15) to EL2 with EC 0x18 (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_tidcp_impdef.elf)
  iss_test("independent: HCR_EL2's fields without behaviour (FMO AMO TSW TPC TPU TTLB TDZ) read back as written (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_hcr_readback.elf)
  iss_test("independent: an address above the PA size with the MMU off is an Address size fault, level 0 (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_address_size.elf)
  iss_test("independent: an IRQ wakes WFI with I set, and is taken after DAIFClr and ERET at EL1 EL2 EL3 as routed (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_irq.elf)
  iss_test("independent: WFI WFE trap to EL1 EL2 EL3 by SCTLR_EL1.nTWx HCR_EL2.TWx SCR_EL3.TWx in priority order with EC 0x01, not at EL3, not with an IRQ pending (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_traps_wfx.elf)
  iss_test("independent: HCR_EL2 TVM TRVM TID1 TID2 TID3 TACR TIDCP, CPTR_EL2 EL3 TAM, AMUSERENR_EL0, MDCR_EL2.TDE trap with EC 0x18 ISS in priority order, not at EL2 or Secure EL1 (${mode})" 0
    firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_traps_sysreg.elf)
  add_test(NAME "iss: independent: every semihosting operation of the contract, output byte for byte (${mode})"
    COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/indep_check_run.sh 0 "ABC\\nDE\\n" "^err$"
            $<TARGET_FILE:pmusim> firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_semihost.elf)
  add_test(NAME "iss: independent: SYS_EXIT subcode 256 fails the run (${mode})"
    COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/indep_check_run.sh 1 "" "exit status 256"
            $<TARGET_FILE:pmusim> firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_exit_subcode.elf)
  add_test(NAME "iss: independent: SYS_EXIT_EXTENDED with a reason other than ApplicationExit fails the run (${mode})"
    COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/indep_check_run.sh 1 "" "reason 0x20023"
            $<TARGET_FILE:pmusim> firmware -q ${mode_args} ${ISS_ELF_DIR}/indep_exit_reason.elf)
  set_tests_properties(
    "iss: independent: every semihosting operation of the contract, output byte for byte (${mode})"
    "iss: independent: SYS_EXIT subcode 256 fails the run (${mode})"
    "iss: independent: SYS_EXIT_EXTENDED with a reason other than ApplicationExit fails the run (${mode})"
    PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
endforeach()
# docs/firmware.md "Trap controls": a write setting an unmodelled bit is reported once per CPU.
add_test(NAME "iss: independent: a write setting unmodelled HCR_EL2.TTLB twice is reported once"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_log_once.sh $<TARGET_FILE:pmusim> ${ISS_ELF_DIR}/indep_traps_sysreg.elf
          "HCR_EL2 bit 25 (TTLB) set: not modelled")
add_test(NAME "iss: independent: a write setting unmodelled SCR_EL3.FIQ twice is reported once"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_log_once.sh $<TARGET_FILE:pmusim> ${ISS_ELF_DIR}/indep_traps_sysreg.elf
          "SCR_EL3 bit 2 ")
set_tests_properties(
  "iss: independent: a write setting unmodelled HCR_EL2.TTLB twice is reported once"
  "iss: independent: a write setting unmodelled SCR_EL3.FIQ twice is reported once"
  PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
add_test(NAME "iss: independent: fast and reference access logs agree"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/iss/check_reference.sh $<TARGET_FILE:pmusim>
          ${ISS_ELF_DIR}/indep_eret.elf ${ISS_ELF_DIR}/indep_routing.elf ${ISS_ELF_DIR}/indep_abort.elf
          ${ISS_ELF_DIR}/indep_irq.elf ${ISS_ELF_DIR}/indep_edges.elf
          ${ISS_ELF_DIR}/indep_counting.elf ${ISS_ELF_DIR}/indep_irq_sp0.elf
          ${ISS_ELF_DIR}/indep_traps_wfx.elf ${ISS_ELF_DIR}/indep_traps_sysreg.elf)
set_tests_properties("iss: independent: fast and reference access logs agree" PROPERTIES ENVIRONMENT ${ISS_ENV} TIMEOUT 60)
