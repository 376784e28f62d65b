# The Debian packages, one per install component (cmake/install.cmake):
#   gsort         the programs (gsort as one process, gsort-gen), man pages,
#                 completions
#   gsort-mpi     gsort with the distributed driver, linked with Open MPI
#                 (built where CMake found MPI); Depends: gsort
#   libgsort0     libgsort.so.0, the shared library (SONAME libgsort.so.0)
#   libgsort-dev  libgsort.a, the libgsort.so link, the headers, the CMake and
#                 pkg-config files; Depends: libgsort0 (= this version)
# made by `scripts/install.sh --package` (or `cpack` in its build folder,
# build-install/) as PACKAGE_VERSION-1 (a Debian revision, so that the
# Debian changelog is changelog.Debian.gz beside the upstream changelog.gz).
#
# Dependencies come from dpkg-shlibdeps (package dpkg-dev), which reads the
# shared libraries the programs load: a package links the system's Boost,
# zstd, zlib, libbz2, liblzma and C++ runtime (GSORT_STATIC=OFF), never a
# copy of them. libgsort-dev names the -dev packages that linking
# libgsort.a needs. Each package ships its copyright (DEP-5), its changelogs
# and its lintian overrides, whose comments say why each one is there;
# scripts/ci_package.sh runs lintian over the packages and fails on any
# error or warning. What lintian still reports is information (I:), and
# stays: hardening-no-fortify-functions and .comment sections, because the
# installed build compiles exactly as the test build does, so that ccache
# gives it the test build's objects (only link flags differ: -z now);
# spelling-error-in-binary, in NVIDIA's static CUDA runtime.
#
# Only a build to install makes packages (GSORT_NOT_INSTALLABLE, in
# cmake/install.cmake): elsewhere CPackConfig.cmake is a file that fails
# and says why, so that `cpack` in the test build cannot make a package.

set(GSORT_MAINTAINER "gsort developers <gsort-dev@lists.gsort.dev>")
set(GSORT_DEB_REVISION 1)
set(gsort_debian ${PROJECT_SOURCE_DIR}/cmake/debian)
find_program(GZIP_EXECUTABLE gzip REQUIRED)
set(gsort_debian_out ${PROJECT_BINARY_DIR}/debian)

set(gsort_no_package ${GSORT_NOT_INSTALLABLE})
if(GSORT_STATIC)
  list(APPEND gsort_no_package "it links Boost, zstd, zlib, libbz2, liblzma and the C++ runtime statically \
(GSORT_STATIC=ON), where a Debian package links the system's libraries (-DGSORT_STATIC=OFF)")
endif()
if(NOT GSORT_MAN_PAGES_BUILT)
  list(APPEND gsort_no_package "it has no man pages (GSORT_MAN_PAGES=OFF)")
endif()
find_program(DPKG_SHLIBDEPS_EXECUTABLE dpkg-shlibdeps)
find_program(FILE_EXECUTABLE file)  # CPack's DEB generator finds the ELF files with it
if(NOT DPKG_SHLIBDEPS_EXECUTABLE OR NOT FILE_EXECUTABLE)
  list(APPEND gsort_no_package "dpkg-shlibdeps or file is not installed (apt-get install dpkg-dev file)")
endif()

# The Debian files of each package, installed by cpack alone (EXCLUDE_FROM_ALL).
# The changelogs' date: SOURCE_DATE_EPOCH, else the last commit's, else now.
set(gsort_date_epoch "$ENV{SOURCE_DATE_EPOCH}")
if(gsort_date_epoch STREQUAL "")
  execute_process(COMMAND git -C ${PROJECT_SOURCE_DIR} log -1 --format=%ct
                  OUTPUT_VARIABLE gsort_date_epoch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(gsort_date_epoch MATCHES "^[0-9]+$")
  set(ENV{SOURCE_DATE_EPOCH} ${gsort_date_epoch})
endif()
string(TIMESTAMP gsort_changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)

set(GSORT_COPYRIGHT_CUDA "")
if(GSORT_HAVE_CUDA)
  set(GSORT_COPYRIGHT_CUDA "\n The GPU code holds code compiled from CUB and Thrust (NVIDIA CCCL,\n\
 Apache-2.0 WITH LLVM-exception) and is linked with NVIDIA's static CUDA\n\
 runtime (cudart_static), which NVIDIA's CUDA Toolkit End User License\n Agreement lets applications redistribute.")
endif()
configure_file(${gsort_debian}/copyright.in ${gsort_debian_out}/copyright @ONLY)
add_custom_command(
  OUTPUT ${gsort_debian_out}/changelog.Debian.gz ${gsort_debian_out}/changelog.gz
  COMMAND ${CMAKE_COMMAND} -DCHANGELOG=${PROJECT_SOURCE_DIR}/CHANGELOG.md -DOUTPUT=${gsort_debian_out}/changelog.Debian
          -DVERSION=${PROJECT_VERSION} -DREVISION=${GSORT_DEB_REVISION} -DMAINTAINER=${GSORT_MAINTAINER}
          -DDATE=${gsort_changelog_date} -P ${gsort_debian}/changelog.cmake
  COMMAND ${GZIP_EXECUTABLE} -9nf ${gsort_debian_out}/changelog.Debian
  COMMAND sh -c "${GZIP_EXECUTABLE} -9nc '${PROJECT_SOURCE_DIR}/CHANGELOG.md' > '${gsort_debian_out}/changelog.gz'"
  DEPENDS ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${gsort_debian}/changelog.cmake
  COMMENT "Writing the Debian changelogs"
  VERBATIM)
add_custom_target(gsort_debian_changelogs ALL DEPENDS ${gsort_debian_out}/changelog.Debian.gz)

# gsort_debian_files(COMPONENT PACKAGE): /usr/share/doc/PACKAGE/{copyright,
# changelog.Debian.gz,changelog.gz} and PACKAGE's lintian overrides.
function(gsort_debian_files component package)
  install(FILES ${gsort_debian_out}/copyright ${gsort_debian_out}/changelog.Debian.gz ${gsort_debian_out}/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component} EXCLUDE_FROM_ALL)
  install(FILES ${gsort_debian}/${package}.lintian-overrides RENAME ${package}
          DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides COMPONENT ${component} EXCLUDE_FROM_ALL)
endfunction()

# gsort_alternative_scripts(PACKAGE PROGRAM PRIORITY): PACKAGE's postinst and
# prerm, which add and remove PROGRAM as an alternative for /usr/bin/gsort.
function(gsort_alternative_scripts package program priority)
  set(GSORT_ALTERNATIVE /usr/${CMAKE_INSTALL_LIBEXECDIR}/gsort/${program})
  set(GSORT_ALTERNATIVE_PRIORITY ${priority})
  foreach(script postinst prerm)
    configure_file(${gsort_debian}/alternative.${script}.in ${gsort_debian_out}/${package}/${script} @ONLY
                   FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ
                                    WORLD_EXECUTE)
  endforeach()
endfunction()

set(CPACK_PACKAGE_NAME gsort)
set(CPACK_PACKAGE_VENDOR "gsort developers")
set(CPACK_PACKAGE_CONTACT ${GSORT_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${GSORT_MAINTAINER})
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_PACKAGE_RELEASE ${GSORT_DEB_REVISION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(gsort_what "gsort sorts text lines, byte for byte as LC_ALL=C sort does (GNU's keys
and -n -h -r -u -s -f -b -z -c -m), and files of fixed-size binary records
by keys inside each record (byte strings, little- or big-endian integers,
IEEE floats), files larger than host memory included: chunks are sorted on
an NVIDIA GPU or on all CPU cores, spilled as sorted runs and merged. The
sort is stable, zstd, gzip, bzip2 and xz inputs and outputs are understood,
and errors have exact exit codes.")

set(CPACK_COMPONENTS_ALL tools dev)
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME gsort)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOLS_DESCRIPTION "out-of-core sort of text lines and binary records, GPU or CPU
${gsort_what}
.
This package runs gsort as one process; gsort-mpi adds `mpirun -np N gsort`.
gsort-gen writes deterministic test and benchmark records.")
# The compressors read and write what gsort does; gzip, being essential, is
# always there.
set(CPACK_DEBIAN_TOOLS_PACKAGE_SUGGESTS "gsort-mpi, bash-completion, zstd, bzip2, xz-utils")
gsort_alternative_scripts(gsort gsort 10)
set(CPACK_DEBIAN_TOOLS_PACKAGE_CONTROL_EXTRA ${gsort_debian_out}/gsort/postinst ${gsort_debian_out}/gsort/prerm)
gsort_debian_files(tools gsort)

if(GSORT_HAVE_MPI)
  list(APPEND CPACK_COMPONENTS_ALL mpi)
  set(CPACK_DEBIAN_MPI_PACKAGE_NAME gsort-mpi)
  set(CPACK_DEBIAN_MPI_PACKAGE_SECTION utils)
  set(CPACK_DEBIAN_MPI_DESCRIPTION "out-of-core sort of binary records across MPI ranks
${gsort_what}
.
This package adds gsort built with Open MPI: `mpirun -np N gsort` sorts one
input with N processes, on one host or many, into the same output as one
process. It becomes /usr/bin/gsort (update-alternatives) and, without
mpirun, runs as one process.")
  set(CPACK_COMPONENT_MPI_DEPENDS tools)
  set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "openmpi-bin")  # mpirun; libopenmpi3 comes from dpkg-shlibdeps
  gsort_alternative_scripts(gsort-mpi gsort-mpi 20)
  set(CPACK_DEBIAN_MPI_PACKAGE_CONTROL_EXTRA ${gsort_debian_out}/gsort-mpi/postinst ${gsort_debian_out}/gsort-mpi/prerm)
  gsort_debian_files(mpi gsort-mpi)
endif()

set(gsort_library_what "The C++ library <gsort/gsort.h> sorts files, open descriptors and records
in memory, and checks files, with the gsort command's options and
guarantees.")
if(GSORT_SHARED_LIBRARY)
  list(APPEND CPACK_COMPONENTS_ALL lib)
  set(CPACK_DEBIAN_LIB_PACKAGE_NAME libgsort0)
  set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
  set(CPACK_DEBIAN_LIB_DESCRIPTION "C++ library to sort text lines and binary records, GPU or CPU
${gsort_what}
.
${gsort_library_what}
.
This package holds the shared library libgsort.so.0.")
  # DEBIAN/shlibs (libgsort 0 libgsort0 (>= VERSION)), for dpkg-shlibdeps of
  # the programs that link it, and DEBIAN/triggers (ldconfig).
  set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
  set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
  configure_file(${gsort_debian}/libgsort0.triggers ${gsort_debian_out}/libgsort0/triggers COPYONLY)
  set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${gsort_debian_out}/libgsort0/triggers)
  gsort_debian_files(lib libgsort0)
  set(CPACK_COMPONENT_DEV_DEPENDS lib)
endif()

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libgsort-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION "C++ library to sort text lines and binary records (development files)
${gsort_what}
.
${gsort_library_what}
.
This package holds the headers (<gsort/gsort.h>), the link libgsort.so to
the shared library, the static library libgsort.a, a CMake package
(find_package(gsort)) and gsort.pc.")
# An archive holds no dependencies: a program that links libgsort.a links
# these too (gsortConfig.cmake and gsort.pc name them).
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "libboost-program-options-dev, libboost-iostreams-dev, libzstd-dev, zlib1g-dev, libbz2-dev, liblzma-dev")
gsort_debian_files(dev libgsort-dev)

if(gsort_no_package)
  string(REPLACE ";" "; " why "${gsort_no_package}")
  file(WRITE ${PROJECT_BINARY_DIR}/CPackConfig.cmake
       "message(FATAL_ERROR \"gsort: ${PROJECT_BINARY_DIR} makes no packages: ${why}. \"\n"
       "                    \"scripts/install.sh --package makes them from a release build of its own (build-install/).\")\n")
else()
  include(CPack)
endif()
