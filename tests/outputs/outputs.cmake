# What pmusim writes: logs, JUnit, VCD, program output, the progress bar, and how outputs are kept
# safe (docs/logs.md, docs/reliability.md).
pmusim_script_test("outputs: json log, junit, vcd and determinism"
  tests/outputs/check_outputs.py $<TARGET_FILE:pmusim> tests/outputs/run_outputs.seq WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
pmusim_script_test("outputs: junit on every exit and many files in one call"
  tests/outputs/check_junit.py $<TARGET_FILE:pmusim> TIMEOUT 120)
pmusim_script_test("outputs: json log schema and order, vcd scopes and values"
  tests/outputs/check_log_vcd.py $<TARGET_FILE:pmusim>)
pmusim_script_test("outputs: special files, links, inputs as outputs, stale temporaries, whole output folders"
  tests/outputs/check_output_safety.py $<TARGET_FILE:pmusim> TIMEOUT 120)
pmusim_script_test("outputs: two outputs naming one file, two sweeps writing one folder"
  tests/outputs/check_output_collisions.py $<TARGET_FILE:pmusim> TIMEOUT 300)
# The ELFs are tests/iss's (assembled by the iss_test_programs target, built by default).
pmusim_script_test("outputs: firmware output on stdout with -q, summary on request, exec times, exited CPU off"
  tests/outputs/check_program_output.py $<TARGET_FILE:pmusim> ${CMAKE_BINARY_DIR}/tests/iss TIMEOUT 120)
# The progress bar of long runs on a terminal (a pseudo-terminal here), and none on a pipe.
pmusim_script_test("outputs: a progress bar on a terminal for a long run, none on a pipe"
  tests/outputs/check_progress_bar.py $<TARGET_FILE:pmusim> TIMEOUT 300)
