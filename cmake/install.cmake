# What `cmake --install` (and the .deb, cmake/package.cmake) puts where,
# relative to the prefix:
#   bin/gsort, bin/gsort-gen
#   share/man/man1/gsort.1, gsort-gen.1           (when help2man was found)
#   share/bash-completion/completions/gsort
#   share/zsh/vendor-completions/_gsort
#   share/fish/vendor_completions.d/gsort.fish
#   share/doc/gsort/README.md, LICENSE, CHANGELOG.md
#   lib/libgsort.a, include/gsort/*.h, lib/cmake/gsort/, lib/pkgconfig/gsort.pc
#                                                  (the block at the end)

install(TARGETS gsort gsort-gen RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(GSORT_HAVE_MPI)
  install(TARGETS gsort-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

if(GSORT_MAN_PAGES)
  install(FILES ${GSORT_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

install(FILES completions/gsort.bash RENAME gsort
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES completions/_gsort DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES completions/gsort.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

install(FILES README.md LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# ---------------------------------------------------------------------------
# The library: lib/libgsort.a (cmake/library.cmake), its public headers
# include/gsort/, the CMake package (find_package(gsort) gives gsort::gsort)
# and gsort.pc. libgsort.a is a static archive of gsort's own code (and the
# static CUDA runtime); both files name what a program must link with it.
# ---------------------------------------------------------------------------
include(CMakePackageConfigHelpers)
set(gsort_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/gsort)
install(FILES ${GSORT_LIB_ARCHIVE} DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/gsort DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

configure_package_config_file(cmake/gsortConfig.cmake.in ${PROJECT_BINARY_DIR}/gsortConfig.cmake
                              INSTALL_DESTINATION ${gsort_cmake_dir}
                              PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gsortConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gsortConfig.cmake ${PROJECT_BINARY_DIR}/gsortConfigVersion.cmake
        DESTINATION ${gsort_cmake_dir})

# gsort.pc names the prefix relative to itself, so that the same file
# serves `cmake --install --prefix P` and the .deb's /usr. The archive is
# static, so its dependencies are in Libs, not Libs.private.
set(gsort_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH GSORT_PC_PREFIX_FROM_PCFILEDIR /${gsort_pc_dir} /)
string(REGEX REPLACE "/$" "" GSORT_PC_PREFIX_FROM_PCFILEDIR "${GSORT_PC_PREFIX_FROM_PCFILEDIR}")
set(GSORT_PC_LIBS "-lboost_program_options -lboost_iostreams -lzstd -lz -lbz2 -llzma -lpthread -ldl -lrt")
configure_file(cmake/gsort.pc.in ${PROJECT_BINARY_DIR}/gsort.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gsort.pc DESTINATION ${gsort_pc_dir})
