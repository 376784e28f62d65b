// GSORT_REQUIRE_GPU(): skips the test unless gsort can use CUDA device 0
// (gpu_usable: a driver, a device, and kernels built for its architecture).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "src/chunk_sort/gpu/make_gpu_backend.h"

#define GSORT_REQUIRE_GPU()                                   \
  do {                                                        \
    std::string why_;                                         \
    if (!::gsort::gpu_usable(0, &why_)) GTEST_SKIP() << why_; \
  } while (0)
