# The layers of gsort, lowest first, and what each may include. A layer is
# a folder (by path prefix from the project root); a file may include its
# own layer's headers and those of the layers named after it. The
# gsort_layer_check target (cmake/check_layers.cmake) fails the build on
# any other project include, so a dependency that runs upward cannot land.
set(GSORT_LAYERS
  "include/gsort:"
  "src/core:"
  "src/cuda:src/core"
  "io:src/core"
  "src/keys:src/core src/cuda"
  "src/config:src/core src/cuda src/keys"
  "src/algo:src/core src/cuda"
  "kernels:src/core src/cuda src/keys src/algo"
  "src/chunk_sort:src/core src/cuda src/keys src/config src/algo kernels"
  "src/verify:src/core src/cuda io src/keys src/config"
  "src/output:src/core src/cuda io src/keys src/config src/algo src/verify"
  "src/merge:src/core src/cuda io src/keys src/config src/algo src/chunk_sort src/output src/verify"
  "src/report:src/core src/cuda io src/keys src/config src/chunk_sort src/verify"
  "src/pipeline:src/core src/cuda io src/keys src/config src/algo src/chunk_sort src/verify src/output src/merge src/report"
  "src/lines:src/core src/cuda io src/keys src/config src/algo src/chunk_sort kernels src/verify src/output src/report src/pipeline"
  "src/distributed:src/core src/cuda io src/keys src/config src/algo src/chunk_sort kernels src/verify src/output src/merge src/report src/pipeline"
  "src/cli:src/core src/cuda io src/keys src/config src/lines/line_key_spec.h"
  "src/api:src/core src/cuda io src/keys src/config src/algo src/chunk_sort src/verify src/output src/merge src/report src/pipeline src/lines src/cli"
  "src/gen:src/core src/cuda io src/keys"
  "src/main.cpp:src/core src/cuda io src/keys src/config src/chunk_sort src/verify src/output src/merge src/report src/pipeline src/lines src/distributed src/cli src/api tests/support/fault_hooks.h"
)

add_custom_target(gsort_layer_check ALL
  COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} "-DLAYERS=${GSORT_LAYERS}"
          -P ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
  COMMENT "Checking that includes run down the layers (cmake/layers.cmake)"
  VERBATIM)
