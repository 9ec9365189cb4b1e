# pmusim_script_test(<ctest name> <script, relative to the source tree> [args ...]
#                    [TIMEOUT <s>] [WORKING_DIRECTORY <dir>] [PROPERTIES <key> <value> ...])
# A test written in Python, run with the interpreter CMake found. The interpreter is required: a
# missing one is an install error, not a silently smaller suite (docs/reliability.md). Every test
# has a bound on its time (60 s unless TIMEOUT says otherwise) and runs without SystemC's banner.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
function(pmusim_script_test name script)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "TIMEOUT;WORKING_DIRECTORY" "PROPERTIES")
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 60)
  endif()
  set(directory)
  if(arg_WORKING_DIRECTORY)
    set(directory WORKING_DIRECTORY ${arg_WORKING_DIRECTORY})
  endif()
  add_test(NAME "${name}" COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/${script} ${arg_UNPARSED_ARGUMENTS}
           ${directory})
  set_tests_properties("${name}" PROPERTIES ENVIRONMENT "SC_COPYRIGHT_MESSAGE=DISABLE" TIMEOUT ${arg_TIMEOUT}
                       ${arg_PROPERTIES})
endfunction()
