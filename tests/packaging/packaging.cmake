# Tests of the installed package (docs/embedding.md): the examples built against a temporary
# install prefix, and the Debian package unpacked into a scratch root. They compile the examples
# (about a minute on two cores) and run in their own folders under the build directory.
# RUN_SERIAL: both install into the build directory and compile; run alone they stay within time.
add_test(NAME "package: examples build and run against the installed package"
  COMMAND ${CMAKE_SOURCE_DIR}/tests/packaging/check_examples.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR}
          "${PMUSIM_SANITIZE}")
set_tests_properties("package: examples build and run against the installed package" PROPERTIES
  TIMEOUT 300 RUN_SERIAL TRUE)
find_program(DPKG_DEB dpkg-deb)
if(DPKG_DEB)
  add_test(NAME "package: the .deb unpacked elsewhere runs with its own data"
    COMMAND ${CMAKE_SOURCE_DIR}/tests/packaging/check_deb.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
  set_tests_properties("package: the .deb unpacked elsewhere runs with its own data" PROPERTIES
    TIMEOUT 180 RUN_SERIAL TRUE)
endif()
