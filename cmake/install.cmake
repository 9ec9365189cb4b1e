# What `cmake --install` and `cpack -G DEB` put where (docs/embedding.md, "Installing"):
#   bin/pmusim                              the command
#   lib/libpmusim.so.1.0.0 (SONAME libpmusim.so.1), lib/libpmusim.a   the model library
#   include/pmusim/*.h                      the public API (and nothing else)
#   lib/cmake/pmusim/                       find_package(pmusim 1.0 CONFIG) -> pmusim::pmusim
#   lib/pkgconfig/pmusim.pc
#   share/pmusim/{imc/catalog,platforms,tools/whatif}   data, laid out as in the source tree
#                                           (models/data_files.h finds it next to bin/ and lib/)
#   share/man/man1/pmusim*.1, share/doc/pmusim/   manual pages and documentation
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The installed libraries: the same objects as pmusim_lib. Users link only SystemC through the
# interface; the rest is private to the library.
add_library(pmusim_shared SHARED $<TARGET_OBJECTS:pmusim_objects>)
add_library(pmusim_static STATIC $<TARGET_OBJECTS:pmusim_objects>)
foreach(lib pmusim_shared pmusim_static)
  target_link_libraries(${lib} PUBLIC PkgConfig::SystemC PRIVATE PkgConfig::Unicorn ${Capstone_LINK_LIBRARIES} ${FDT_LIBRARY} fmt::fmt yaml-cpp Threads::Threads ${CMAKE_DL_LIBS})
  target_include_directories(${lib} INTERFACE
    $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include> $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
set_target_properties(pmusim_shared PROPERTIES OUTPUT_NAME pmusim EXPORT_NAME pmusim
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
set_target_properties(pmusim_static PROPERTIES OUTPUT_NAME pmusim EXPORT_NAME pmusim_static)
add_library(pmusim::pmusim ALIAS pmusim_shared)
add_library(pmusim::pmusim_static ALIAS pmusim_static)

install(TARGETS pmusim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS pmusim_shared pmusim_static EXPORT pmusimTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/pmusim DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${CMAKE_BINARY_DIR}/include/pmusim/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pmusim)
# The public helpers written once in models/ (include/pmusim/register_access.h includes them as
# pmusim/models/...): copied next to the public headers in the build tree, installed there too.
foreach(shared_header register_access.h)
  configure_file(${CMAKE_SOURCE_DIR}/models/${shared_header} ${CMAKE_BINARY_DIR}/include/pmusim/models/${shared_header} COPYONLY)
  install(FILES ${CMAKE_SOURCE_DIR}/models/${shared_header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pmusim/models)
endforeach()

set(PMUSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pmusim)
install(EXPORT pmusimTargets NAMESPACE pmusim:: DESTINATION ${PMUSIM_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/pmusimConfig.cmake.in
  ${CMAKE_BINARY_DIR}/pmusimConfig.cmake INSTALL_DESTINATION ${PMUSIM_CMAKE_DIR})
# 1.x promises the include/pmusim API; a 2.0 may break it.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/pmusimConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/pmusimConfig.cmake ${CMAKE_BINARY_DIR}/pmusimConfigVersion.cmake
  DESTINATION ${PMUSIM_CMAKE_DIR})

file(RELATIVE_PATH PMUSIM_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${CMAKE_SOURCE_DIR}/cmake/pmusim.pc.in ${CMAKE_BINARY_DIR}/pmusim.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/pmusim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Data files, under the same relative paths as in the source tree (models/data_files.h).
set(PMUSIM_DATA ${CMAKE_INSTALL_DATADIR}/pmusim)
install(FILES ${CMAKE_SOURCE_DIR}/imc/catalog/power9_dd2.dts DESTINATION ${PMUSIM_DATA}/imc/catalog)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/platforms/ DESTINATION ${PMUSIM_DATA}/platforms
  FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/tools/whatif/ DESTINATION ${PMUSIM_DATA}/tools/whatif
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)

install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
  PATTERN "build*" EXCLUDE)

include(${CMAKE_SOURCE_DIR}/cmake/man.cmake)
include(${CMAKE_SOURCE_DIR}/cmake/deb.cmake)
include(${CMAKE_SOURCE_DIR}/cmake/apidocs.cmake)
