# Runs one firmware test (ctest calls it with cmake -P):
#   -DPMUSIM=<pmusim> -DRUN=<firmware ELF | sequence file> -DEXPECT=<exit code> -DOUT=<dir>
#   [-DCOMPARE_REFERENCE=1]  also runs it with --reference and compares the two access logs
#   [-DEXPECT_OUTPUT=<regex>] the run's output must match it (a negative test names the failing check)
# A .seq runs with `pmusim run`, anything else with `pmusim firmware ... --platform arm-default`.
# The test passes when the exit code is EXPECT (and, with COMPARE_REFERENCE, the logs are equal).
foreach(var PMUSIM RUN EXPECT OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_firmware.cmake: -D${var}= missing")
  endif()
endforeach()
file(MAKE_DIRECTORY ${OUT})
if(RUN MATCHES "\\.seq$")
  set(command ${PMUSIM} run ${RUN})
else()
  set(command ${PMUSIM} firmware ${RUN} --platform arm-default)
endif()

# Each run is bounded so that both fit in the ctest TIMEOUT (60 s): the fast run takes about a
# second, the reference run (every clock edge of the platform simulated) about ten on a loaded
# 2-core machine.
function(run_once mode_args log seconds result)
  execute_process(COMMAND ${command} ${mode_args} --log-json ${log}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT ${seconds})
  message("${out}${err}")
  set(${result} "${rc}" PARENT_SCOPE)
  set(run_output "${out}${err}" PARENT_SCOPE)
endfunction()

run_once("" ${OUT}/fast.jsonl 15 rc)
if(NOT rc STREQUAL EXPECT)
  message(FATAL_ERROR "${RUN}: exit ${rc}, expected ${EXPECT}")
endif()
# A failing run must fail for the reason the test names, not for any reason.
if(DEFINED EXPECT_OUTPUT AND NOT run_output MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "${RUN}: the output does not name the expected failure /${EXPECT_OUTPUT}/")
endif()
if(COMPARE_REFERENCE)
  run_once("--reference" ${OUT}/reference.jsonl 42 rc)
  if(NOT rc STREQUAL EXPECT)
    message(FATAL_ERROR "${RUN} --reference: exit ${rc}, expected ${EXPECT}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/fast.jsonl ${OUT}/reference.jsonl
    RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "${RUN}: the access logs of the fast and the reference mode differ "
      "(${OUT}/fast.jsonl, ${OUT}/reference.jsonl)")
  endif()
  message("fast and reference access logs identical")
endif()
