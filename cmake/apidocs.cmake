# `cmake --build build --target docs`: the API reference of include/pmusim/ (Doxygen, HTML under
# build/docs/api/html). Not part of the default build.
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  return()
endif()
set(DOXYGEN_PROJECT_NAME pmusim)
set(DOXYGEN_PROJECT_NUMBER ${PROJECT_VERSION})
set(DOXYGEN_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/docs/api)
set(DOXYGEN_GENERATE_LATEX NO)
set(DOXYGEN_EXTRACT_ALL YES)
set(DOXYGEN_WARN_AS_ERROR NO)
set(DOXYGEN_STRIP_FROM_INC_PATH ${CMAKE_SOURCE_DIR}/include ${CMAKE_BINARY_DIR}/include)
set(DOXYGEN_STRIP_FROM_PATH ${CMAKE_SOURCE_DIR}/include ${CMAKE_BINARY_DIR}/include)
set(DOXYGEN_USE_MDFILE_AS_MAINPAGE ${CMAKE_SOURCE_DIR}/docs/embedding.md)
set(DOXYGEN_EXCLUDE_SYMBOLS "detail")
doxygen_add_docs(docs ${CMAKE_SOURCE_DIR}/include/pmusim ${CMAKE_BINARY_DIR}/include/pmusim
  ${CMAKE_SOURCE_DIR}/docs/embedding.md COMMENT "API reference of include/pmusim (Doxygen)")
