# Every tests/sequences/**/*.seq file is a ctest test: `pmusim run --quiet FILE`.
# A file's expected exit code is given by a comment line `# expect-exit: N`
# (0 when absent): 1 for sequences whose expectations must fail, 2 for input
# that must be refused.
file(GLOB_RECURSE PMUSIM_SEQUENCE_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/sequences/*.seq)
foreach(seq_file ${PMUSIM_SEQUENCE_TESTS})
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR}/tests/sequences ${seq_file})
  # The exit code and, for negative tests, the message and the line that failed (the file's header).
  pmusim_script_test("seq: ${rel}" tests/check_sequence_run.py $<TARGET_FILE:pmusim> ${seq_file}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} TIMEOUT 120)
endforeach()
# include/let/repeat, print32/64: messages at file:line through includes, logs and JUnit (issue 22).
pmusim_script_test("sequences: language files, names and loops report file:line"
  tests/sequences/language/check_language.py $<TARGET_FILE:pmusim> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} TIMEOUT 120)
