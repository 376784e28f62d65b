# What src/cli/build_info.cpp needs to say what the build contains
# (gsort --version): the GPU architectures compiled for, and the CUDA
# runtime's headers for CUDART_VERSION.
set(gsort_build_info_src ${PROJECT_SOURCE_DIR}/src/cli/build_info.cpp)
if(GSORT_HAVE_CUDA)
  # A CMake list cannot pass through a definition with its semicolons.
  string(REPLACE ";" " " gsort_archs_text "${CMAKE_CUDA_ARCHITECTURES}")
  set_property(SOURCE ${gsort_build_info_src} APPEND PROPERTY
               COMPILE_DEFINITIONS "GSORT_CUDA_ARCHITECTURES=\"${gsort_archs_text}\"")
  set_property(SOURCE ${gsort_build_info_src} APPEND PROPERTY
               INCLUDE_DIRECTORIES ${CUDAToolkit_INCLUDE_DIRS})
endif()
