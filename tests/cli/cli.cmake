# The command line: help, manual pages, bash completion and -C overrides (docs/tutorial.md, docs/platform-config.md).
pmusim_script_test("cli: every help has examples and bash completion offers every option"
  tests/cli/check_help_completion.py $<TARGET_FILE:pmusim>)
pmusim_script_test("cli: -C parameter overrides in every command, recorded, bad ones refused"
  tests/cli/check_overrides.py $<TARGET_FILE:pmusim> TIMEOUT 180)
if(HELP2MAN)
  pmusim_script_test("cli: a manual page per subcommand, examples one a line"
    tests/cli/check_man_pages.py $<TARGET_FILE:pmusim> ${CMAKE_BINARY_DIR}/man TIMEOUT 240)
endif()
pmusim_script_test("cli: bash completion of values: platforms, parameter keys, choices"
  tests/cli/check_completion_values.py $<TARGET_FILE:pmusim>)
