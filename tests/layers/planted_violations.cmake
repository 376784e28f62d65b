# The layer check (cmake/check_layers.cmake) over a small tree with one
# planted violation of each kind it must catch, and one that is clean:
# fails unless the check fails on every planted include and passes the
# clean tree. Run as: cmake -DSOURCE=<project root> -DWORK=<scratch dir> -P this.
file(REMOVE_RECURSE ${WORK})
function(plant path text)
  file(WRITE ${WORK}/${path} "${text}\n")
endfunction()
function(check_tree)
  execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${WORK} -P ${SOURCE}/cmake/check_layers.cmake
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  set(check_rc ${rc} PARENT_SCOPE)
  set(check_err "${err}" PARENT_SCOPE)
endfunction()

# Clean: each file includes only what its layer may.
plant(io/file/a.h "#pragma once")
plant(io/temp/b.h "#include \"io/file/a.h\"")
plant(src/chunk_sort/sort_backend.h "#pragma once")
plant(src/chunk_sort/cpu/c.h "#include \"src/chunk_sort/sort_backend.h\"")
plant(src/distributed/ranks/r.h "#pragma once")
plant(src/distributed/exchange/e.h "#include \"src/distributed/ranks/r.h\"")
check_tree()
if(NOT check_rc EQUAL 0)
  message(FATAL_ERROR "the clean tree was refused:\n${check_err}")
endif()

# Planted: an io room below another, a backend including a backend, a
# distributed room including one above it, a layer including upward, and a
# distributed room including the kernels.
plant(io/file/bad_io.cpp "#include \"io/temp/b.h\"")
plant(src/chunk_sort/hybrid/bad_backend.h "#include \"src/chunk_sort/cpu/c.h\"")
plant(src/distributed/output/bad_room.h "#include \"src/distributed/exchange/e.h\"")
plant(src/core/bad_up.h "#include \"src/pipeline/x.h\"")
plant(src/distributed/partition/bad_cuda.cpp "#include \"kernels/k.h\"")
check_tree()
if(check_rc EQUAL 0)
  message(FATAL_ERROR "the planted violations passed the layer check")
endif()
foreach(expected IN ITEMS "io/file/bad_io.cpp (io/file) includes io/temp/b.h"
        "src/chunk_sort/hybrid/bad_backend.h (src/chunk_sort/hybrid) includes src/chunk_sort/cpu/c.h"
        "src/distributed/output/bad_room.h (src/distributed/output) includes src/distributed/exchange/e.h"
        "src/core/bad_up.h (src/core) includes src/pipeline/x.h"
        "src/distributed/partition/bad_cuda.cpp (src/distributed/partition) includes kernels/k.h")
  string(FIND "${check_err}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the layer check missed: ${expected}\nit said:\n${check_err}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
