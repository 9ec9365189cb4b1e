# Reference mode checks (docs/reference-mode.md), included from the top CMakeLists.
#
# 1. Differential tests: seeded random scenarios per unit, run in the fast and the
#    reference mode, compared access by access and interrupt edge by interrupt edge.
#    CI runs these fixed seeds; more seeds: tests/differential/differential.py --help.
# 2. The unit sequence tests again in reference mode: their hand-computed expectations
#    must hold there too (same expected exit code).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  foreach(unit amu dsu cmn)
    add_test(NAME "differential: ${unit} fast vs reference - seeds 1 to 6"
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/differential/differential.py
              $<TARGET_FILE:pmusim> --unit ${unit} --first 1 --count 6)
    set_tests_properties("differential: ${unit} fast vs reference - seeds 1 to 6" PROPERTIES TIMEOUT 300)
  endforeach()
endif()

# Sequences whose simulated time makes the per-edge reference too slow for CI.
set(PMUSIM_REFERENCE_SKIP
  amu/linux_fie.seq  # 9 ms of several GHz clocks: about 45 s per-edge
)
file(GLOB PMUSIM_REFERENCE_SEQUENCES CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/tests/sequences/amu/*.seq ${CMAKE_SOURCE_DIR}/tests/sequences/dsu/*.seq
  ${CMAKE_SOURCE_DIR}/tests/sequences/cmn/*.seq)
foreach(seq_file ${PMUSIM_REFERENCE_SEQUENCES})
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR}/tests/sequences ${seq_file})
  if(rel IN_LIST PMUSIM_REFERENCE_SKIP)
    continue()
  endif()
  file(STRINGS ${seq_file} exit_line REGEX "^# expect-exit: [0-9]+")
  set(expected 0)
  if(exit_line)
    string(REGEX REPLACE "^# expect-exit: ([0-9]+).*" "\\1" expected "${exit_line}")
  endif()
  add_test(NAME "reference: ${rel}"
    COMMAND ${CMAKE_SOURCE_DIR}/tests/expect_exit.sh ${expected} $<TARGET_FILE:pmusim> run --quiet --reference ${seq_file}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("reference: ${rel}" PROPERTIES ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE" TIMEOUT 120)
endforeach()
