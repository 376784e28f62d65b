# What `cmake --install` (and the .deb packages, cmake/package.cmake) puts
# where, relative to the prefix, by component (one Debian package each):
#   tools  (package gsort)
#     libexec/gsort/gsort                         the program, one process
#     bin/gsort-gen
#     share/man/man1/gsort.1.gz, gsort-gen.1.gz
#     share/bash-completion/completions/gsort
#     share/zsh/vendor-completions/_gsort
#     share/fish/vendor_completions.d/gsort.fish
#     share/doc/gsort/README.md
#   mpi    (package gsort-mpi; builds with MPI)
#     libexec/gsort/gsort-mpi                     the program with the distributed driver
#   lib    (package libgsort0; builds with GSORT_SHARED_LIBRARY)
#     LIBDIR/libgsort.so.0, libgsort.so.VERSION  the shared library, SONAME libgsort.so.0
#   dev    (package libgsort-dev)
#     LIBDIR/libgsort.a, LIBDIR/libgsort.so (a link to libgsort.so.0, where built),
#     include/gsort/*.h, LIBDIR/cmake/gsort/, LIBDIR/pkgconfig/gsort.pc
#   local  (`cmake --install` only, never packaged)
#     bin/gsort -> ../libexec/gsort/gsort-mpi, or gsort without MPI
#     share/doc/gsort/LICENSE, CHANGELOG.md
# A package makes /usr/bin/gsort with update-alternatives instead: gsort's
# program at priority 10, gsort-mpi's at 20, so that `mpirun -np N gsort`
# sorts across the ranks once gsort-mpi is installed. Each package's
# Debian files (copyright, changelog.Debian.gz, changelog.gz, lintian
# overrides) are EXCLUDE_FROM_ALL: cpack installs them, `cmake --install` not.
#
# Only a release build with the default GPU architectures is installed:
# the test build (scripts/test.sh: tests, one GPU architecture) and the
# sanitizer builds refuse `cmake --install` and cpack, and say to use
# scripts/install.sh. The tests install a test build into a scratch prefix
# with GSORT_INSTALL_TEST_BUILD=1 in the environment.

# Why this build is not one to install, or empty.
set(GSORT_NOT_INSTALLABLE "")
if(GSORT_BUILD_TESTS)
  list(APPEND GSORT_NOT_INSTALLABLE "it is a test build (GSORT_BUILD_TESTS=ON)")
endif()
if(GSORT_SANITIZE OR GSORT_FUZZ)
  list(APPEND GSORT_NOT_INSTALLABLE "it is built with sanitizers")
endif()
if(NOT CMAKE_BUILD_TYPE STREQUAL "Release")
  list(APPEND GSORT_NOT_INSTALLABLE "it is not a Release build (CMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE})")
endif()
if(GSORT_HAVE_CUDA AND NOT GSORT_CUDA_DEFAULT_ARCHITECTURES)
  list(APPEND GSORT_NOT_INSTALLABLE
       "its GPU code is for ${CMAKE_CUDA_ARCHITECTURES} only, not the default list (cmake/cuda_architectures.cmake)")
endif()
string(REPLACE ";" "; " gsort_not_installable_text "${GSORT_NOT_INSTALLABLE}")
if(GSORT_NOT_INSTALLABLE)
  install(CODE "
if(NOT \"\$ENV{GSORT_INSTALL_TEST_BUILD}\" STREQUAL \"1\")
  message(FATAL_ERROR \"gsort: ${PROJECT_BINARY_DIR} is not a build to install: ${gsort_not_installable_text}. \"
                      \"scripts/install.sh installs gsort from a release build of its own (build-install/).\")
endif()" ALL_COMPONENTS)
endif()

set(gsort_libexec ${CMAKE_INSTALL_LIBEXECDIR}/gsort)
install(TARGETS gsort RUNTIME DESTINATION ${gsort_libexec} COMPONENT tools)
install(TARGETS gsort-gen RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
set(gsort_command gsort)
if(GSORT_HAVE_MPI)
  install(TARGETS gsort-mpi RUNTIME DESTINATION ${gsort_libexec} COMPONENT mpi)
  set(gsort_command gsort-mpi)
endif()
# bin/gsort, relative, so that the tree can be moved (DESTDIR, --prefix).
file(RELATIVE_PATH gsort_link_target /${CMAKE_INSTALL_BINDIR} /${gsort_libexec}/${gsort_command})
install(CODE "
set(gsort_link \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/gsort\")
message(STATUS \"Installing: \${gsort_link} -> ${gsort_link_target}\")
file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
file(REMOVE \"\${gsort_link}\")
file(CREATE_LINK \"${gsort_link_target}\" \"\${gsort_link}\" SYMBOLIC)
list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${gsort_link}\")" COMPONENT local)

install(FILES ${GSORT_MAN_PAGES_BUILT} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tools)

install(FILES completions/gsort.bash RENAME gsort
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT tools)
install(FILES completions/_gsort DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions COMPONENT tools)
install(FILES completions/gsort.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT tools)

install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tools)
install(FILES LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT local)

# ---------------------------------------------------------------------------
# The library: LIBDIR/libgsort.a and, where built, libgsort.so.0 with its
# link libgsort.so (cmake/library.cmake), the public headers include/gsort/,
# the CMake package and gsort.pc. With the shared library, find_package(gsort)
# gives gsort::gsort as it and gsort::gsort_static as the archive, and
# `-lgsort` (gsort.pc) finds the shared one, as the linker prefers it; else
# gsort::gsort is the archive. libgsort.a is a static archive of gsort's own
# code (and the static CUDA runtime): the files name what a program must link
# with it.
# LIBDIR is lib/<multiarch> in the installed build (scripts/install.sh),
# where pkg-config and CMake look first and cross-compilers find them.
# ---------------------------------------------------------------------------
include(CMakePackageConfigHelpers)
set(gsort_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/gsort)
install(FILES ${GSORT_LIB_ARCHIVE} DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
if(GSORT_SHARED_LIBRARY)
  install(TARGETS gsort_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev)
endif()
install(DIRECTORY include/gsort DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)

configure_package_config_file(cmake/gsortConfig.cmake.in ${PROJECT_BINARY_DIR}/gsortConfig.cmake
                              INSTALL_DESTINATION ${gsort_cmake_dir}
                              PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gsortConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gsortConfig.cmake ${PROJECT_BINARY_DIR}/gsortConfigVersion.cmake
        DESTINATION ${gsort_cmake_dir} COMPONENT dev)

# gsort.pc names the prefix relative to itself, so that the same file
# serves `cmake --install --prefix P` and the .deb's /usr. With the shared
# library, -lgsort finds it and the archive's dependencies are Libs.private
# (pkg-config --static); without, -lgsort is the archive and they are Libs.
set(gsort_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH GSORT_PC_PREFIX_FROM_PCFILEDIR /${gsort_pc_dir} /)
string(REGEX REPLACE "/$" "" GSORT_PC_PREFIX_FROM_PCFILEDIR "${GSORT_PC_PREFIX_FROM_PCFILEDIR}")
set(gsort_static_libs "-lboost_program_options -lboost_iostreams -lzstd -lz -lbz2 -llzma -lpthread -ldl -lrt")
if(GSORT_SHARED_LIBRARY)
  set(GSORT_PC_LIBS "")
  set(GSORT_PC_LIBS_PRIVATE "Libs.private: ${gsort_static_libs}")
else()
  set(GSORT_PC_LIBS " ${gsort_static_libs}")
  set(GSORT_PC_LIBS_PRIVATE "")
endif()
configure_file(cmake/gsort.pc.in ${PROJECT_BINARY_DIR}/gsort.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gsort.pc DESTINATION ${gsort_pc_dir} COMPONENT dev)
