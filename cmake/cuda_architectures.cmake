# The GPU architectures a CUDA build is compiled for, unless the user sets
# CMAKE_CUDA_ARCHITECTURES (e.g. -DCMAKE_CUDA_ARCHITECTURES=90 for one GPU
# generation, which compiles the kernels several times faster).
#
# Default: machine code (SASS) for the common data-centre and desktop GPUs,
#   75  Turing (T4, RTX 20xx)        80  Ampere (A100, A30)
#   86  Ampere (A10, A40, RTX 30xx)  89  Ada (L4, L40, RTX 40xx)
#   90  Hopper (H100, H200)         100  Blackwell (B200)
#  120  Blackwell (RTX 50xx, RTX PRO)
# and PTX for the newest of them, which the driver compiles for GPUs newer
# still. Only what the found nvcc can target is kept: CUDA 13 has no sm_70,
# CUDA 12 before 12.8 has no sm_100 or sm_120.
# Included before enable_language(CUDA), once CMAKE_CUDA_COMPILER is known.
# GSORT_CUDA_DEFAULT_ARCHITECTURES says whether the build has the default
# list: only such a build is installed or packaged (cmake/install.cmake).
#
# In script mode it prints the default list, space-separated, as
# `gsort --version` shows it (scripts/ci_install.sh compares the two):
#   cmake -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -P cmake/cuda_architectures.cmake

set(GSORT_DEFAULT_CUDA_ARCHITECTURES 75 80 86 89 90 100 120)

execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --list-gpu-code
                OUTPUT_VARIABLE gsort_nvcc_codes RESULT_VARIABLE gsort_nvcc_result ERROR_QUIET)
set(gsort_archs "")
set(gsort_newest "")
foreach(arch IN LISTS GSORT_DEFAULT_CUDA_ARCHITECTURES)
  # An nvcc too old for --list-gpu-code gets the whole list.
  if(NOT gsort_nvcc_result EQUAL 0 OR gsort_nvcc_codes MATCHES "sm_${arch}\n")
    list(APPEND gsort_archs ${arch}-real)
    set(gsort_newest ${arch})
  endif()
endforeach()
list(APPEND gsort_archs ${gsort_newest}-virtual)

if(CMAKE_SCRIPT_MODE_FILE)
  string(REPLACE ";" " " gsort_archs_text "${gsort_archs}")
  message("${gsort_archs_text}")
  return()
endif()

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES "${gsort_archs}" CACHE STRING
      "GPU architectures to compile for (see cmake/cuda_architectures.cmake)")
endif()
if(CMAKE_CUDA_ARCHITECTURES STREQUAL gsort_archs)
  set(GSORT_CUDA_DEFAULT_ARCHITECTURES ON)
else()
  set(GSORT_CUDA_DEFAULT_ARCHITECTURES OFF)
endif()
message(STATUS "gsort: CUDA architectures ${CMAKE_CUDA_ARCHITECTURES}")
