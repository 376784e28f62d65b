# Man pages gsort.1 and gsort-gen.1, generated from each program's --help
# and --version by help2man, with the hand-written sections of
# docs/man/<program>.h2m (description, examples, exit status, files), and
# installed compressed (gzip -9n, as Debian wants them).
# tests/packaging/check_options_documented.sh keeps them in step with the
# options.
# The README promises `man gsort`: without help2man the configuration fails
# and says what to install, unless -DGSORT_MAN_PAGES=OFF asks for a build
# without them.
option(GSORT_MAN_PAGES "Generate the man pages with help2man (the configuration fails without it)" ON)
set(GSORT_MAN_PAGES_BUILT "")
if(NOT GSORT_MAN_PAGES)
  message(STATUS "gsort: GSORT_MAN_PAGES=OFF: no man pages")
  return()
endif()
find_program(HELP2MAN_EXECUTABLE help2man)
if(NOT HELP2MAN_EXECUTABLE)
  message(FATAL_ERROR "gsort: help2man not found, so the man pages gsort.1 and gsort-gen.1 cannot be made.\n"
                      "Install it (scripts/install_deps.sh does; Debian: apt-get install help2man), "
                      "or configure with -DGSORT_MAN_PAGES=OFF to build without man pages.")
endif()
find_program(GZIP_EXECUTABLE gzip REQUIRED)

# gsort_man_page(PROGRAM NAME_LINE): PROGRAM.1 and PROGRAM.1.gz from the built PROGRAM.
function(gsort_man_page program name_line)
  set(include_file ${PROJECT_SOURCE_DIR}/docs/man/${program}.h2m)
  set(page ${PROJECT_BINARY_DIR}/man/${program}.1)
  add_custom_command(
    OUTPUT ${page} ${page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
    COMMAND ${HELP2MAN_EXECUTABLE} --no-info --name ${name_line} --include ${include_file}
            --output ${page} $<TARGET_FILE:${program}>
    COMMAND ${GZIP_EXECUTABLE} -9nkf ${page}
    DEPENDS ${program} ${include_file}
    COMMENT "Generating the man page ${program}.1"
    VERBATIM)
  add_custom_target(${program}_man_page ALL DEPENDS ${page} ${page}.gz)
  set(GSORT_MAN_PAGES_BUILT ${GSORT_MAN_PAGES_BUILT} ${page}.gz PARENT_SCOPE)
endfunction()

gsort_man_page(gsort "sort text lines as LC_ALL=C sort does, and files of binary records, on the GPU when present")
gsort_man_page(gsort-gen "write deterministic test and benchmark records for gsort")
