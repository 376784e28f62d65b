# What `cmake --install` (and the .deb, cmake/package.cmake) puts where,
# relative to the prefix:
#   bin/gsort, bin/gsort-gen
#   share/man/man1/gsort.1, gsort-gen.1           (when help2man was found)
#   share/bash-completion/completions/gsort
#   share/zsh/vendor-completions/_gsort
#   share/fish/vendor_completions.d/gsort.fish
#   share/doc/gsort/README.md, LICENSE, CHANGELOG.md
# and, once the library exists, libgsort, its header, the CMake package
# config and gsort.pc (the block at the end).

install(TARGETS gsort gsort-gen RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

if(GSORT_MAN_PAGES)
  install(FILES ${GSORT_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

install(FILES completions/gsort.bash RENAME gsort
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES completions/_gsort DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES completions/gsort.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

install(FILES README.md LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# ---------------------------------------------------------------------------
# The library, libgsort: installed once a target gsort_lib exists (it is
# added by the library work). Its public header lives in include/gsort/;
# other programs use it as
#   find_package(gsort) + target_link_libraries(app PRIVATE gsort::gsort)
# or `pkg-config --cflags --libs gsort`. Every target gsort_lib links must be
# exported too (or be an IMPORTED target found again in gsortConfig.cmake).
# ---------------------------------------------------------------------------
if(TARGET gsort_lib)
  include(CMakePackageConfigHelpers)
  set(gsort_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/gsort)

  set_target_properties(gsort_lib PROPERTIES OUTPUT_NAME gsort EXPORT_NAME gsort)
  target_include_directories(gsort_lib INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS gsort_lib EXPORT gsortTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY include/gsort DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT gsortTargets NAMESPACE gsort:: DESTINATION ${gsort_cmake_dir})

  configure_package_config_file(cmake/gsortConfig.cmake.in ${PROJECT_BINARY_DIR}/gsortConfig.cmake
                                INSTALL_DESTINATION ${gsort_cmake_dir})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/gsortConfigVersion.cmake
                                   COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/gsortConfig.cmake ${PROJECT_BINARY_DIR}/gsortConfigVersion.cmake
          DESTINATION ${gsort_cmake_dir})

  # gsort.pc names the prefix relative to itself, so that the same file
  # serves `cmake --install --prefix P` and the .deb's /usr.
  set(gsort_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  file(RELATIVE_PATH GSORT_PC_PREFIX_FROM_PCFILEDIR /${gsort_pc_dir} /)
  string(REGEX REPLACE "/$" "" GSORT_PC_PREFIX_FROM_PCFILEDIR "${GSORT_PC_PREFIX_FROM_PCFILEDIR}")
  # With the static layers, a program linking libgsort needs these too.
  set(GSORT_PC_LIBS_PRIVATE "-lpthread")
  if(NOT GSORT_STATIC)
    string(APPEND GSORT_PC_LIBS_PRIVATE " -lboost_iostreams -lzstd -lz -lbz2 -llzma")
  endif()
  configure_file(cmake/gsort.pc.in ${PROJECT_BINARY_DIR}/gsort.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/gsort.pc DESTINATION ${gsort_pc_dir})
endif()
