# Man pages gsort.1 and gsort-gen.1, generated from each program's --help
# and --version by help2man, with the hand-written sections of
# docs/man/<program>.h2m (description, examples, exit status, files).
# tests/packaging/check_options_documented.sh keeps them in step with the
# options. Without help2man the build goes on without man pages.
find_program(HELP2MAN_EXECUTABLE help2man)
set(GSORT_MAN_PAGES "")
if(NOT HELP2MAN_EXECUTABLE)
  message(STATUS "gsort: help2man not found: no man pages (apt-get install help2man)")
  return()
endif()

# gsort_man_page(PROGRAM NAME_LINE): PROGRAM.1 from the built PROGRAM.
function(gsort_man_page program name_line)
  set(include_file ${PROJECT_SOURCE_DIR}/docs/man/${program}.h2m)
  set(page ${PROJECT_BINARY_DIR}/man/${program}.1)
  add_custom_command(
    OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
    COMMAND ${HELP2MAN_EXECUTABLE} --no-info --name ${name_line} --include ${include_file}
            --output ${page} $<TARGET_FILE:${program}>
    DEPENDS ${program} ${include_file}
    COMMENT "Generating the man page ${program}.1"
    VERBATIM)
  add_custom_target(${program}_man_page ALL DEPENDS ${page})
  set(GSORT_MAN_PAGES ${GSORT_MAN_PAGES} ${page} PARENT_SCOPE)
endfunction()

gsort_man_page(gsort "sort text lines as LC_ALL=C sort does, and files of binary records, on the GPU when present")
gsort_man_page(gsort-gen "write deterministic test and benchmark records for gsort")
