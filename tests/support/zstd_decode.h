// A whole zstd stream decoded in memory, with libzstd (a test's check of a
// compressed output needs no zstd program on the machine).
#pragma once

#include <string>

namespace gsort_test {

// The bytes that `packed` (one or more zstd frames) decodes to; throws
// std::runtime_error where it is not whole, valid zstd.
std::string zstd_decode(const std::string& packed);

}  // namespace gsort_test
