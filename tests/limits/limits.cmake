# Bad and absurd input, bounds on time and memory, and the checks that keep the tests honest
# (docs/reliability.md "Classes of failure").
pmusim_script_test("limits: absurd inputs are refused with a clear message"
  tests/limits/check_limits.py $<TARGET_FILE:pmusim> TIMEOUT 600)
pmusim_script_test("limits: directories, endless inputs, edge values, unfinished sequences, serve platform, relative platform paths"
  tests/limits/check_edge_inputs.py $<TARGET_FILE:pmusim> TIMEOUT 300)
pmusim_script_test("limits: expansion is bounded in bytes, long lines parse in linear time"
  tests/limits/check_expansion.py $<TARGET_FILE:pmusim> TIMEOUT 600)
pmusim_script_test("limits: every test has a timeout"
  tests/limits/check_test_timeouts.py ${CMAKE_CTEST_COMMAND} ${CMAKE_BINARY_DIR})
# A test's expected values do not come from the code under test.
pmusim_script_test("limits: unit tests take expected values from the facts, not from the models' constants"
  tests/limits/check_test_oracles.py ${CMAKE_SOURCE_DIR})
pmusim_script_test("limits: the oracle check flags a model constant used as an expected value"
  tests/limits/check_test_oracles.py ${CMAKE_SOURCE_DIR} --self-test)
# Tests, models and docs cite primary sources, never pmusim's own notes (issue 31 point 1).
pmusim_script_test("limits: models, docs and tests cite primary sources, not pmusim's own notes"
  tests/limits/check_test_citations.py ${CMAKE_SOURCE_DIR})
pmusim_script_test("limits: the citation check flags a planted citation of pmusim's notes in each folder"
  tests/limits/check_test_citations.py ${CMAKE_SOURCE_DIR} --self-test)
# Each hole the oracle check closes, planted in a copy of the tree: the check must flag it.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/limits/check_test_oracles.py)
execute_process(COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_test_oracles.py
                        ${CMAKE_SOURCE_DIR} --list-plants OUTPUT_VARIABLE oracle_holes OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REPLACE "\n" ";" oracle_holes "${oracle_holes}")
foreach(hole ${oracle_holes})
  pmusim_script_test("limits: the oracle check flags a planted ${hole}"
    tests/limits/check_test_oracles.py ${CMAKE_SOURCE_DIR} --plant ${hole})
endforeach()
# One way to write a field in every unit: reg_field, no unit's own bit() (issue 30, docs/extending.md).
pmusim_script_test("limits: units name their fields with reg_field, not their own bit() or bare positions"
  tests/limits/check_field_style.py ${CMAKE_SOURCE_DIR})
pmusim_script_test("limits: the field-style check flags a unit's own bit() and bare positions"
  tests/limits/check_field_style.py ${CMAKE_SOURCE_DIR} --self-test)
