# The floors of docs/architecture.md: nothing below tb/ includes a tb/ header, vp/ stands on models/
# only, iss/ includes nothing of vp/ (its host is iss/cpu_host.h), models/unit.h keeps at most 14 virtual functions, embed/ holds no YAML text
# (tests/architecture/check_floors.py).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME "architecture: nothing below tb/ includes tb/, vp/ stands on models/, unit.h has at most 14 virtuals, embed/ holds no YAML"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/architecture/check_floors.py ${CMAKE_SOURCE_DIR})
  add_test(NAME "architecture: the floor check flags each planted violation"
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/architecture/check_floors.py ${CMAKE_SOURCE_DIR} --self-test)
  set_tests_properties("architecture: nothing below tb/ includes tb/, vp/ stands on models/, unit.h has at most 14 virtuals, embed/ holds no YAML"
    "architecture: the floor check flags each planted violation" PROPERTIES TIMEOUT 120)
endif()
