# Reference mode checks (docs/reference-mode.md), included from the top CMakeLists.
#
# 1. Differential tests: seeded random scenarios per unit, run in the fast and the
#    reference mode, compared access by access and interrupt edge by interrupt edge.
#    CI runs these fixed seeds; more seeds: tests/differential/differential.py --help.
# 2. The unit sequence tests again in reference mode: their hand-computed expectations
#    must hold there too (same expected exit code).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
if(Python3_FOUND)
  foreach(unit amu dsu cmn cspmu)
    add_test(NAME "differential: ${unit} fast vs reference - seeds 1 to 6"
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/differential/differential.py
              $<TARGET_FILE:pmusim> --unit ${unit} --first 1 --count 6)
    set_tests_properties("differential: ${unit} fast vs reference - seeds 1 to 6" PROPERTIES TIMEOUT 300)
  endforeach()
endif()

# Sequences whose simulated time makes the per-edge reference too slow for CI on their platform:
# they run in reference mode with the clocks their expectations do not depend on slowed to 1 MHz
# (-C CLOCK.frequency=1MHz; the fast mode passes the same expectations with the same overrides), so
# the per-edge cost is that of the clocks that matter. Measured on the loaded 2-core machine:
# linux_fie 14 s, trace_wrap 16 s, trace_wrap_8192 33 s (were 45 s, 74 s, 155 s, skipped).
set(PMUSIM_REFERENCE_SKIP)
set(PMUSIM_ARM_IDLE_CLOCKS cpu1 cpu2 cpu3 cpu4 cpu5 cpu6 cpu7 dsu0 dsu1 cmn0)  # linux_fie counts on cpu0 and const
set(PMUSIM_P9_TRACE_IDLE_CLOCKS core0 core1 core2 core3 nest)  # trace records follow the timebase only
# imc/trace_and_nest_10ms.seq is one_second_trace_and_nest.seq shortened to 10 ms with the nest at
# 256 MHz and core0 at 128 MHz (its own `freq` lines, so its plain seq: test sees them too); its idle
# clocks are only the cores it traces on (about 5 s in reference mode on the loaded machine).
set(PMUSIM_P9_TRACE_AND_NEST_IDLE_CLOCKS core1 core2 core3)  # the nest and core0's reads are counted
set(PMUSIM_REFERENCE_SLOWED amu/linux_fie.seq imc/trace_wrap.seq imc/trace_wrap_8192.seq imc/trace_and_nest_10ms.seq)

# POWER9 IMC (docs/reference-mode.md "POWER9 IMC"): its own scenario generator and a
# platform with a short OCC tick (tests/differential/imc_differential.py, imc-diff.yaml).
if(Python3_FOUND)
  add_test(NAME "differential: imc fast vs reference - seeds 1 to 4"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/differential/imc_differential.py
            $<TARGET_FILE:pmusim> --first 1 --count 4)
  set_tests_properties("differential: imc fast vs reference - seeds 1 to 4" PROPERTIES TIMEOUT 300)
endif()
# The IMC sequences in reference mode. power9-default has four 3.2 GHz cores, a 2 GHz nest
# and a 512 MHz timebase: about 15 billion edges per simulated second. Measured per edge
# (host seconds, load average about 2 on the 2-core machine; under a load of 10 expect up to
# 5x): core_imc_opal (7.7 ms simulated) 17 s, nest_groups (5.1 ms) 11 s, nest_speed (7.6 ms)
# 16 s, nest_start_pause_resume_clear (10 ms) 29 s, reset_cold (3.6 ms) 8 s, two_chips (2.6 ms
# on two chips) 6 s: they run here, with a longer timeout. Skipped, for their simulated time
# only (none needs anything the reference mode lacks; docs/reference-mode.md "POWER9 IMC"):
# -DPMUSIM_REFERENCE_SLOW=ON runs them too.
option(PMUSIM_REFERENCE_SLOW "also run the sequences that take many minutes per edge in reference mode" OFF)
set(PMUSIM_REFERENCE_TIMEOUT 300)
if(PMUSIM_REFERENCE_SLOW)
  set(PMUSIM_REFERENCE_SKIP)
  set(PMUSIM_REFERENCE_TIMEOUT 36000)
endif()
# one_second_trace_and_nest counts nest events for 1 s of the 2 GHz nest clock: its expectations
# need that clock, and 2.5 billion edges take hours per edge.
set(PMUSIM_IMC_REFERENCE_SKIP_LIST
  imc/one_second_trace_and_nest.seq      # 1 s: hours
)
if(NOT PMUSIM_REFERENCE_SLOW)
  set(PMUSIM_IMC_REFERENCE_SKIP ${PMUSIM_IMC_REFERENCE_SKIP_LIST})
endif()

# Every unit's sequences again in reference mode, less the two skip lists above.
file(GLOB PMUSIM_REFERENCE_SEQUENCES CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/tests/sequences/amu/*.seq ${CMAKE_SOURCE_DIR}/tests/sequences/dsu/*.seq
  ${CMAKE_SOURCE_DIR}/tests/sequences/cmn/*.seq ${CMAKE_SOURCE_DIR}/tests/sequences/imc/*.seq
  ${CMAKE_SOURCE_DIR}/tests/sequences/cspmu/*.seq ${CMAKE_SOURCE_DIR}/tests/sequences/devices/*.seq)
foreach(seq_file ${PMUSIM_REFERENCE_SEQUENCES})
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR}/tests/sequences ${seq_file})
  if(rel IN_LIST PMUSIM_REFERENCE_SKIP OR rel IN_LIST PMUSIM_IMC_REFERENCE_SKIP)
    continue()
  endif()
  file(STRINGS ${seq_file} exit_line REGEX "^# expect-exit: [0-9]+")
  set(expected 0)
  if(exit_line)
    string(REGEX REPLACE "^# expect-exit: ([0-9]+).*" "\\1" expected "${exit_line}")
  endif()
  set(slowed)
  if(rel IN_LIST PMUSIM_REFERENCE_SLOWED)
    set(idle ${PMUSIM_P9_TRACE_IDLE_CLOCKS})
    if(rel MATCHES "^amu/")
      set(idle ${PMUSIM_ARM_IDLE_CLOCKS})
    elseif(rel STREQUAL "imc/trace_and_nest_10ms.seq")
      set(idle ${PMUSIM_P9_TRACE_AND_NEST_IDLE_CLOCKS})
    endif()
    foreach(clock ${idle})
      list(APPEND slowed -C ${clock}.frequency=1MHz)
    endforeach()
  endif()
  add_test(NAME "reference: ${rel}"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/check_sequence_run.py $<TARGET_FILE:pmusim> ${seq_file} --reference
            ${slowed}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("reference: ${rel}" PROPERTIES ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE"
    TIMEOUT ${PMUSIM_REFERENCE_TIMEOUT})
endforeach()

# The slowed reference runs above compare with the hand-computed expectations under the same
# overrides: the fast mode must pass them too (the slowed clocks are really not in them).
foreach(rel ${PMUSIM_REFERENCE_SLOWED})
  set(idle ${PMUSIM_P9_TRACE_IDLE_CLOCKS})
  if(rel MATCHES "^amu/")
    set(idle ${PMUSIM_ARM_IDLE_CLOCKS})
  elseif(rel STREQUAL "imc/trace_and_nest_10ms.seq")
    set(idle ${PMUSIM_P9_TRACE_AND_NEST_IDLE_CLOCKS})
  endif()
  set(slowed)
  foreach(clock ${idle})
    list(APPEND slowed -C ${clock}.frequency=1MHz)
  endforeach()
  add_test(NAME "seq: ${rel} with its idle clocks slowed"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/check_sequence_run.py $<TARGET_FILE:pmusim>
            ${CMAKE_SOURCE_DIR}/tests/sequences/${rel} ${slowed}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("seq: ${rel} with its idle clocks slowed" PROPERTIES ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE"
    TIMEOUT 120)
endforeach()

# CMN-600 flows (docs/cmn.md "Flows"): counted from rate x time against the same requests issued one
# by one through the traffic engine (flow_mode: per-request), on random meshes, flows and programming;
# then the hand-derived flows_*.seq in the per-request mode.
if(Python3_FOUND)
  add_test(NAME "differential: cmn flows rate vs per-request - seeds 1 to 6"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/differential/cmn_flows_differential.py
            $<TARGET_FILE:pmusim> --first 1 --count 6)
  set_tests_properties("differential: cmn flows rate vs per-request - seeds 1 to 6" PROPERTIES TIMEOUT 300)
endif()
