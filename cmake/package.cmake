# `cpack -G DEB` in the build folder: gsort_<version>_<arch>.deb with what
# cmake/install.cmake installs, under /usr.
#
# Dependencies come from dpkg-shlibdeps (package dpkg-dev), which reads the
# shared libraries the binaries really load: with GSORT_STATIC (the default)
# Boost, zstd, zlib, libbz2, liblzma and the C++ runtime are linked in,
# leaving only libc6; without it, their runtime packages as well.

set(CPACK_PACKAGE_NAME gsort)
set(CPACK_PACKAGE_VENDOR "gsort maintainers")
set(CPACK_PACKAGE_CONTACT "gsort maintainers <maintainers@users.noreply.a-seed-19cb5f17.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "out-of-core sort for files of fixed-size binary records")
set(CPACK_PACKAGE_DESCRIPTION
    "gsort sorts files of fixed-size binary records by a key inside each record,
files larger than host memory included: chunks are sorted on the GPU (or by a
parallel CPU backend), spilled as sorted runs and merged. The sort is stable,
keys are byte strings or little/big-endian integers and IEEE floats, zstd,
gzip, bzip2 and xz inputs and outputs are understood, and errors have exact
exit codes.
gsort-gen writes deterministic test and benchmark records.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The library (libgsort.a) is linked by a program with Boost and the codec
# libraries: their -dev packages are needed only to build against it.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "bash-completion, zstd, gzip, bzip2, xz-utils, libboost-program-options-dev, libboost-iostreams-dev, libzstd-dev, zlib1g-dev, libbz2-dev, liblzma-dev")
find_program(DPKG_SHLIBDEPS_EXECUTABLE dpkg-shlibdeps)
if(DPKG_SHLIBDEPS_EXECUTABLE)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "gsort: dpkg-shlibdeps not found (apt-get install dpkg-dev): "
                 "the .deb will not be built with the right dependencies")
endif()

include(CPack)
