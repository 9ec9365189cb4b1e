# `cpack -G DEB` (run in the build directory): one Debian package with the command, the library,
# the headers, the data, the manual pages and the docs. dpkg-shlibdeps derives the shared-library
# dependencies (libsystemc, libyaml-cpp0.7, libfmt9, libstdc++6, libc6); the rest are listed:
# python3 and python3-matplotlib for `pmusim plot` and the study scripts, and the development
# packages a user of the headers and the CMake package needs (libsystemc-dev, pkg-config).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pmusim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "pmusim")
set(CPACK_PACKAGE_CONTACT "pmusim maintainers <pmusim@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "cycle-exact SystemC/TLM-2.0 models of hardware performance-counter units")
set(CPACK_PACKAGE_DESCRIPTION
  "Models of the Arm AMU, the Arm DSU CLUSTERPMU, the Arm CMN-600 PMU and the IBM POWER9 IMC\n behind a firmware gate and a TLM bus: the pmusim command and a SystemC library.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-matplotlib")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libsystemc-dev, pkg-config, cmake")
set(CPACK_STRIP_FILES OFF)
include(CPack)
