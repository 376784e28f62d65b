# libgsort.a, the installed library: every layer the public functions need
# (src/api and below; not the distributed driver, not gsort-gen), packed
# into one archive with `ar -M`, so that a program links one file. With
# CUDA, the CUDA runtime (static) is packed in too: a program using the
# library needs no CUDA toolkit, only a driver where a GPU is to be used.
# What a user links besides (Boost, zstd, threads) comes from
# gsortConfig.cmake and gsort.pc (cmake/install.cmake).
set(GSORT_LIB_LAYERS core io keys config algo chunk_sort verify output report merge pipeline lines cli api)
if(GSORT_HAVE_CUDA)
  list(APPEND GSORT_LIB_LAYERS cuda kernels)
endif()

set(GSORT_LIB_ARCHIVE ${PROJECT_BINARY_DIR}/libgsort.a)
set(mri "CREATE ${GSORT_LIB_ARCHIVE}\n")
set(lib_deps "")
foreach(layer IN LISTS GSORT_LIB_LAYERS)
  string(APPEND mri "ADDLIB $<TARGET_FILE:gsort_${layer}>\n")
  list(APPEND lib_deps gsort_${layer})
endforeach()
if(GSORT_HAVE_CUDA)
  string(APPEND mri "ADDLIB $<TARGET_FILE:CUDA::cudart_static>\n")
endif()
string(APPEND mri "SAVE\nEND\n")
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/libgsort.mri CONTENT "${mri}")

add_custom_command(
  OUTPUT ${GSORT_LIB_ARCHIVE}
  COMMAND ${CMAKE_COMMAND} -E remove -f ${GSORT_LIB_ARCHIVE}
  COMMAND sh -c "\"${CMAKE_AR}\" -M < \"${PROJECT_BINARY_DIR}/libgsort.mri\""
  COMMAND ${CMAKE_RANLIB} ${GSORT_LIB_ARCHIVE}
  DEPENDS ${lib_deps} ${PROJECT_BINARY_DIR}/libgsort.mri
  COMMENT "Packing the layers into libgsort.a"
  VERBATIM)
add_custom_target(gsort_lib_archive ALL DEPENDS ${GSORT_LIB_ARCHIVE})

# libgsort.so.0 (GSORT_SHARED_LIBRARY, CMakeLists.txt): the same layers, whole,
# in one shared library with the SONAME libgsort.so.0, linked with the
# system's Boost, codecs and C++ runtime, and in a CUDA build the static CUDA
# runtime. A program linked with it holds only its own code. The layers are
# named as files between --whole-archive and --no-whole-archive, so that every
# object goes in (the public functions are not all called from inside); the
# layer targets after them bring what the layers link with.
if(GSORT_SHARED_LIBRARY)
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/gsort_shared.cpp
       CONTENT "// libgsort.so is the layers' objects alone (cmake/library.cmake).\n")
  add_library(gsort_shared SHARED ${PROJECT_BINARY_DIR}/gsort_shared.cpp)
  set(whole_layers "")
  foreach(layer IN LISTS GSORT_LIB_LAYERS)
    list(APPEND whole_layers $<TARGET_FILE:gsort_${layer}>)
  endforeach()
  target_link_libraries(gsort_shared PRIVATE -Wl,--whole-archive ${whole_layers} -Wl,--no-whole-archive
                        ${lib_deps})
  target_link_options(gsort_shared PRIVATE -Wl,--no-undefined -Wl,-z,relro,-z,now)
  set_target_properties(gsort_shared PROPERTIES OUTPUT_NAME gsort VERSION ${PROJECT_VERSION} SOVERSION 0)
  add_dependencies(gsort_shared ${lib_deps})
endif()
