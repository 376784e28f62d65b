# Sanitizer and fuzzing builds. Both instrument every target of the build
# folder they are configured in, so use a build folder of their own:
#   -DGSORT_SANITIZE=address,undefined   the whole suite under ASan+UBSan
#                                        (gcc or clang; scripts/ci_sanitizers.sh)
#   -DGSORT_FUZZ=ON                      the libFuzzer targets of tests/fuzz
#                                        (clang only; scripts/ci_fuzz.sh)
set(GSORT_SANITIZE "" CACHE STRING "Build everything with these -fsanitize= checks, e.g. address,undefined")
option(GSORT_FUZZ "Build the libFuzzer targets of tests/fuzz (clang; implies ASan+UBSan)" OFF)

if(GSORT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "GSORT_FUZZ needs clang (-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang)")
  endif()
  if(NOT GSORT_SANITIZE)
    set(GSORT_SANITIZE address,undefined)
  endif()
  # Coverage feedback for libFuzzer in every library; the fuzz targets
  # themselves link with -fsanitize=fuzzer (tests/fuzz/CMakeLists.txt).
  add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link>)
endif()

if(GSORT_SANITIZE)
  # Any UBSan report fails the program, as an ASan report does.
  add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=${GSORT_SANITIZE}>
                      $<$<COMPILE_LANGUAGE:C,CXX>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:C,CXX>:-fno-sanitize-recover=all>)
  add_link_options(-fsanitize=${GSORT_SANITIZE})
  # The sanitizer runtimes replace malloc and new; a statically linked C++
  # runtime beside them gives false reports or fails to link.
  if(GSORT_STATIC)
    message(STATUS "gsort: GSORT_SANITIZE is set: building without GSORT_STATIC")
    set(GSORT_STATIC OFF)
  endif()
endif()
