# Fails when a source file includes a project header from a layer above its
# own (see cmake/layers.cmake). Run as: cmake -DROOT=<tree> -P this; the
# layers are cmake/layers.cmake's unless -DLAYERS=... names others.
# Tests and benchmarks may include anything; they are not layers. The
# public headers (include/gsort/, included as "gsort/...") are the lowest
# layer: any file may include them, and they include only each other.
if(NOT DEFINED LAYERS)
  include(${CMAKE_CURRENT_LIST_DIR}/layers.cmake)
  set(LAYERS ${GSORT_LAYERS})
endif()
set(violations "")
file(GLOB_RECURSE sources RELATIVE ${ROOT}
  ${ROOT}/include/*.h ${ROOT}/src/*.h ${ROOT}/src/*.cpp ${ROOT}/io/*.h ${ROOT}/io/*.cpp
  ${ROOT}/kernels/*.h ${ROOT}/kernels/*.cuh ${ROOT}/kernels/*.cu)

foreach(src IN LISTS sources)
  # The layer whose prefix matches this file (the longest one wins).
  set(own "")
  set(allowed "")
  foreach(entry IN LISTS LAYERS)
    string(FIND "${entry}" ":" colon)
    string(SUBSTRING "${entry}" 0 ${colon} prefix)
    math(EXPR rest "${colon} + 1")
    string(SUBSTRING "${entry}" ${rest} -1 deps)
    string(LENGTH "${prefix}" plen)
    string(LENGTH "${own}" olen)
    if(src STREQUAL prefix OR src MATCHES "^${prefix}/")
      if(plen GREATER olen)
        set(own "${prefix}")
        separate_arguments(allowed UNIX_COMMAND "${deps}")
      endif()
    endif()
  endforeach()
  if(own STREQUAL "")
    list(APPEND violations "${src}: in no layer (add its folder to cmake/layers.cmake)")
    continue()
  endif()
  file(STRINGS ${ROOT}/${src} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" inc "${line}")
    set(ok FALSE)
    if(inc MATCHES "^gsort/")
      set(ok TRUE)
    endif()
    foreach(layer IN LISTS own allowed)
      if(inc STREQUAL layer OR inc MATCHES "^${layer}/")
        set(ok TRUE)
      endif()
    endforeach()
    if(NOT ok)
      list(APPEND violations "${src} (${own}) includes ${inc}")
    endif()
  endforeach()
endforeach()

if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "gsort: includes that run up the layers (cmake/layers.cmake):\n  ${text}")
endif()
