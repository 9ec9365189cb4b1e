# The documentation agrees with the code: register reference, unit commands, the tutorial's commands
# and the generated C headers.
pmusim_script_test("docs: register reference matches the tables"
  tests/docs/check_register_docs.py $<TARGET_FILE:pmusim> ${CMAKE_SOURCE_DIR}/docs/registers)
pmusim_script_test("docs: every unit command and unit tool is documented"
  tests/docs/check_unit_commands_documented.py $<TARGET_FILE:pmusim> ${CMAKE_SOURCE_DIR})
pmusim_script_test("docs: every command of the tutorial runs"
  tests/docs/check_tutorial.py ${CMAKE_SOURCE_DIR}/docs/tutorial.md $<TARGET_FILE:pmusim> ${CMAKE_SOURCE_DIR} TIMEOUT 300)
# Generated C headers: included together, compiled with -Wall -Werror, values from the sources.
pmusim_script_test("docs: generated C headers compile together with the sources' values"
  tests/docs/check_c_headers.py $<TARGET_FILE:pmusim> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} TIMEOUT 120)
