# Every tests/sequences/**/*.seq file is a ctest test: `pmusim run --quiet FILE`.
# A file's expected exit code is given by a comment line `# expect-exit: N`
# (0 when absent): 1 for sequences whose expectations must fail, 2 for input
# that must be refused.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
file(GLOB_RECURSE PMUSIM_SEQUENCE_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/sequences/*.seq)
foreach(seq_file ${PMUSIM_SEQUENCE_TESTS})
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR}/tests/sequences ${seq_file})
  file(STRINGS ${seq_file} exit_line REGEX "^# expect-exit: [0-9]+")
  set(expected 0)
  if(exit_line)
    string(REGEX REPLACE "^# expect-exit: ([0-9]+).*" "\\1" expected "${exit_line}")
  endif()
  # The exit code and, for negative tests, the message and the line that failed (the file's header).
  add_test(NAME "seq: ${rel}"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/check_sequence_run.py $<TARGET_FILE:pmusim> ${seq_file}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("seq: ${rel}" PROPERTIES ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE" TIMEOUT 120)
endforeach()

# `pmusim serve` driven by a client that is not C++.
# Required: the Python-driven tests below are part of the suite, and a missing interpreter is an
# install error, not a silently smaller suite (docs/reliability.md).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME "serve: python client walks registers"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/serve/serve_client.py $<TARGET_FILE:pmusim>)
  set_tests_properties("serve: python client walks registers" PROPERTIES TIMEOUT 60)
endif()
if(Python3_FOUND)
  add_test(NAME "outputs: json log, junit, vcd and determinism"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/outputs/check_outputs.py $<TARGET_FILE:pmusim>
            tests/outputs/run_outputs.seq
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("outputs: json log, junit, vcd and determinism" PROPERTIES TIMEOUT 60)
endif()
if(Python3_FOUND)
  add_test(NAME "outputs: junit on every exit and many files in one call"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/outputs/check_junit.py $<TARGET_FILE:pmusim>)
  set_tests_properties("outputs: junit on every exit and many files in one call" PROPERTIES TIMEOUT 120)
  add_test(NAME "outputs: json log schema and order, vcd scopes and values"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/outputs/check_log_vcd.py $<TARGET_FILE:pmusim>)
  set_tests_properties("outputs: json log schema and order, vcd scopes and values" PROPERTIES TIMEOUT 60)
endif()
if(Python3_FOUND)
  add_test(NAME "docs: register reference matches the tables"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/docs/check_register_docs.py $<TARGET_FILE:pmusim>
            ${CMAKE_SOURCE_DIR}/docs/registers)
  set_tests_properties("docs: register reference matches the tables" PROPERTIES TIMEOUT 60)
endif()
if(Python3_FOUND)
  add_test(NAME "outputs: special files, links, inputs as outputs, stale temporaries, whole output folders"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/outputs/check_output_safety.py $<TARGET_FILE:pmusim>)
  set_tests_properties("outputs: special files, links, inputs as outputs, stale temporaries, whole output folders"
    PROPERTIES TIMEOUT 120)
endif()
if(Python3_FOUND)
  add_test(NAME "determinism: golden outputs of a representative run, diffed, and atomic outputs"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/determinism/check_determinism.py $<TARGET_FILE:pmusim>)
  set_tests_properties("determinism: golden outputs of a representative run, diffed, and atomic outputs" PROPERTIES TIMEOUT 120)
endif()
if(Python3_FOUND)
  add_test(NAME "limits: absurd inputs are refused with a clear message"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_limits.py $<TARGET_FILE:pmusim>)
  set_tests_properties("limits: absurd inputs are refused with a clear message" PROPERTIES TIMEOUT 600)
endif()
if(Python3_FOUND)
  add_test(NAME "cli: every help has examples and bash completion offers every option"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/check_help_completion.py $<TARGET_FILE:pmusim>)
  set_tests_properties("cli: every help has examples and bash completion offers every option" PROPERTIES TIMEOUT 60)
endif()
if(Python3_FOUND)
  add_test(NAME "docs: every unit command and unit tool is documented"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/docs/check_unit_commands_documented.py
            $<TARGET_FILE:pmusim> ${CMAKE_SOURCE_DIR})
  set_tests_properties("docs: every unit command and unit tool is documented" PROPERTIES TIMEOUT 60)
endif()
if(Python3_FOUND)
  add_test(NAME "cli: -C parameter overrides in every command, recorded, bad ones refused"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/check_overrides.py $<TARGET_FILE:pmusim>)
  set_tests_properties("cli: -C parameter overrides in every command, recorded, bad ones refused" PROPERTIES TIMEOUT 180)
endif()
if(Python3_FOUND)
  add_test(NAME "docs: every command of the tutorial runs"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/docs/check_tutorial.py ${CMAKE_SOURCE_DIR}/docs/tutorial.md
            $<TARGET_FILE:pmusim> ${CMAKE_SOURCE_DIR})
  set_tests_properties("docs: every command of the tutorial runs" PROPERTIES TIMEOUT 300)
endif()
if(Python3_FOUND)
  # include/let/repeat, print32/64: messages at file:line through includes, logs and JUnit (issue 22).
  add_test(NAME "sequences: language files, names and loops report file:line"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/sequences/language/check_language.py $<TARGET_FILE:pmusim>
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("sequences: language files, names and loops report file:line" PROPERTIES TIMEOUT 120)
  # Generated C headers: included together, compiled with -Wall -Werror, values from the sources.
  add_test(NAME "docs: generated C headers compile together with the sources' values"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/docs/check_c_headers.py $<TARGET_FILE:pmusim>
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("docs: generated C headers compile together with the sources' values" PROPERTIES TIMEOUT 120)
endif()
if(Python3_FOUND)
  add_test(NAME "limits: directories, endless inputs, edge values, unfinished sequences, serve platform, relative platform paths"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_edge_inputs.py $<TARGET_FILE:pmusim>)
  set_tests_properties("limits: directories, endless inputs, edge values, unfinished sequences, serve platform, relative platform paths"
    PROPERTIES TIMEOUT 300)
endif()
if(Python3_FOUND)
  add_test(NAME "limits: expansion is bounded in bytes, long lines parse in linear time"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_expansion.py $<TARGET_FILE:pmusim>)
  set_tests_properties("limits: expansion is bounded in bytes, long lines parse in linear time" PROPERTIES TIMEOUT 600)
  add_test(NAME "outputs: two outputs naming one file, two sweeps writing one folder"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/outputs/check_output_collisions.py $<TARGET_FILE:pmusim>)
  set_tests_properties("outputs: two outputs naming one file, two sweeps writing one folder" PROPERTIES TIMEOUT 300)
endif()
add_test(NAME "limits: every test has a timeout"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_test_timeouts.py ${CMAKE_CTEST_COMMAND}
          ${CMAKE_BINARY_DIR})
set_tests_properties("limits: every test has a timeout" PROPERTIES TIMEOUT 60)
# A test's expected values do not come from the code under test (docs/reliability.md, "Classes of failure").
add_test(NAME "limits: unit tests take expected values from the facts, not from the models' constants"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_test_oracles.py ${CMAKE_SOURCE_DIR})
add_test(NAME "limits: the oracle check flags a model constant used as an expected value"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_test_oracles.py ${CMAKE_SOURCE_DIR} --self-test)
set_tests_properties("limits: unit tests take expected values from the facts, not from the models' constants"
  "limits: the oracle check flags a model constant used as an expected value" PROPERTIES TIMEOUT 60)
# The test side cites primary sources, never pmusim's own notes (issue 31 point 1).
add_test(NAME "limits: tests, fuzz, firmware and python cite primary sources, not pmusim's own notes"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_test_citations.py ${CMAKE_SOURCE_DIR})
add_test(NAME "limits: the citation check flags a planted citation of pmusim's notes in each folder"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_test_citations.py ${CMAKE_SOURCE_DIR} --self-test)
set_tests_properties("limits: tests, fuzz, firmware and python cite primary sources, not pmusim's own notes"
  "limits: the citation check flags a planted citation of pmusim's notes in each folder" PROPERTIES TIMEOUT 60)
if(Python3_FOUND)
  # The ELFs are tests/iss's (assembled by the iss_test_programs target, built by default).
  add_test(NAME "outputs: firmware output on stdout with -q, summary on request, exec times, exited CPU off"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/outputs/check_program_output.py $<TARGET_FILE:pmusim>
            ${CMAKE_BINARY_DIR}/tests/iss)
  set_tests_properties("outputs: firmware output on stdout with -q, summary on request, exec times, exited CPU off"
    PROPERTIES TIMEOUT 120 ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE")
endif()
if(Python3_FOUND AND HELP2MAN)
  add_test(NAME "cli: a manual page per subcommand, examples one a line"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/check_man_pages.py $<TARGET_FILE:pmusim>
            ${CMAKE_BINARY_DIR}/man)
  set_tests_properties("cli: a manual page per subcommand, examples one a line" PROPERTIES TIMEOUT 240)
endif()
if(Python3_FOUND)
  add_test(NAME "cli: bash completion of values: platforms, parameter keys, choices"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cli/check_completion_values.py $<TARGET_FILE:pmusim>)
  set_tests_properties("cli: bash completion of values: platforms, parameter keys, choices" PROPERTIES TIMEOUT 60)
endif()
# Each hole the oracle check closes, planted in a copy of the tree: the check must flag it.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/limits/check_test_oracles.py)
execute_process(COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_test_oracles.py
                        ${CMAKE_SOURCE_DIR} --list-plants OUTPUT_VARIABLE oracle_holes OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REPLACE "\n" ";" oracle_holes "${oracle_holes}")
foreach(hole ${oracle_holes})
  add_test(NAME "limits: the oracle check flags a planted ${hole}"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_test_oracles.py ${CMAKE_SOURCE_DIR} --plant ${hole})
  set_tests_properties("limits: the oracle check flags a planted ${hole}" PROPERTIES TIMEOUT 60)
endforeach()

# The facts' sources (docs/facts.md): every Linux citation against Debian's linux-source-6.1 (the
# cited files extracted once into the build folder), and every row's citation form.
set(PMUSIM_LINUX_SOURCE_TARBALL /usr/src/linux-source-6.1.tar.xz CACHE FILEPATH
    "Debian's linux-source-6.1 tarball the facts' Linux citations are checked against")
# The CoreSight PMU driver (6.2) and the HCR_EL2 sysreg block came after 6.1: Debian's
# linux-source-6.12 holds them.
set(PMUSIM_LINUX_LATER_TARBALL /usr/src/linux-source-6.12.tar.xz CACHE FILEPATH
    "a later linux-source tarball for the citations of files 6.1 does not have")
# Both facts tests read the cited files that this fixture extracts, in one pass over each tarball.
add_test(NAME "facts: extract the cited Linux files"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/check-fact-sources.py
          --linux ${PMUSIM_LINUX_SOURCE_TARBALL} --linux-later ${PMUSIM_LINUX_LATER_TARBALL}
          --cache ${CMAKE_BINARY_DIR}/linux-sources --prefetch-only)
set_tests_properties("facts: extract the cited Linux files" PROPERTIES TIMEOUT 600
  FIXTURES_SETUP pmusim_linux_sources)
add_test(NAME "facts: every Linux citation agrees with Debian's linux-source-6.1 and 6.12"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/check-fact-sources.py
          --linux ${PMUSIM_LINUX_SOURCE_TARBALL} --linux-later ${PMUSIM_LINUX_LATER_TARBALL}
          --cache ${CMAKE_BINARY_DIR}/linux-sources --min-linux-checked 1005 --require-linux)
set_tests_properties("facts: every Linux citation agrees with Debian's linux-source-6.1 and 6.12" PROPERTIES TIMEOUT 600
  FIXTURES_REQUIRED pmusim_linux_sources)
add_test(NAME "facts: the source check fails on a mis-cited Linux row"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/facts/planted/check_planted.py
          ${PMUSIM_LINUX_SOURCE_TARBALL} ${CMAKE_BINARY_DIR}/linux-sources)
set_tests_properties("facts: the source check fails on a mis-cited Linux row" PROPERTIES TIMEOUT 600
  FIXTURES_REQUIRED pmusim_linux_sources)

# The mutation set (tests/mutations, docs/mutations.md): two deliberate model breaks, chosen by the
# date so that CI walks the whole set, each applied to this tree, built incrementally into this
# build folder, run against its named test (which must fail), reverted and rebuilt. RUN_SERIAL: no
# other test may see the mutant binary. About a minute per mutation on 2 cores (one object, a link).
add_test(NAME "mutations: two model breaks chosen by date each fail their named test"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/mutations/run.py --rotate 2 --in-place ${CMAKE_BINARY_DIR})
set_tests_properties("mutations: two model breaks chosen by date each fail their named test" PROPERTIES
  TIMEOUT 1500 RUN_SERIAL TRUE)
if(Python3_FOUND)
  # The progress bar of long runs on a terminal (a pseudo-terminal here), and none on a pipe.
  add_test(NAME "outputs: a progress bar on a terminal for a long run, none on a pipe"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/outputs/check_progress_bar.py $<TARGET_FILE:pmusim>)
  set_tests_properties("outputs: a progress bar on a terminal for a long run, none on a pipe"
    PROPERTIES TIMEOUT 300 ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE")
endif()
# One way to write a field in every unit: reg_field, no unit's own bit() (issue 30, docs/extending.md).
add_test(NAME "limits: units name their fields with reg_field, not their own bit() or bare positions"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_field_style.py ${CMAKE_SOURCE_DIR})
add_test(NAME "limits: the field-style check flags a unit's own bit() and bare positions"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/limits/check_field_style.py ${CMAKE_SOURCE_DIR} --self-test)
set_tests_properties("limits: units name their fields with reg_field, not their own bit() or bare positions"
  "limits: the field-style check flags a unit's own bit() and bare positions" PROPERTIES TIMEOUT 60)
