// Whether this build runs under AddressSanitizer (the CI's sanitizer build
// adds UndefinedBehaviorSanitizer to it): gcc defines __SANITIZE_ADDRESS__,
// clang answers __has_feature. Tests of tight resource limits skip there:
// the sanitizers' runtime reserves address space and opens descriptors of
// its own (UBSan's check that memory is readable opens a pipe, and under
// ulimit -n 11 it fails and reports an invalid vptr that is not there).
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define GSORT_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GSORT_TEST_UNDER_ASAN 1
#endif
#endif
#ifndef GSORT_TEST_UNDER_ASAN
#define GSORT_TEST_UNDER_ASAN 0
#endif

namespace gsort_test {

// The heaviest differential tests run a quarter of their rounds (or of
// their data, where a quarter still takes the same paths) in the
// sanitizer build: every sort there is several times slower, and the
// plain build runs them all.
constexpr int kSanitizerShare = GSORT_TEST_UNDER_ASAN ? 4 : 1;

// Whether a test that crosses options with data runs option `option` over
// data `data` of `datas`: every pair in the plain build; in the sanitizer
// build each option over one of the data in turn (every option still runs).
constexpr bool crossed_in_this_build(size_t option, size_t data, size_t datas) {
  return kSanitizerShare == 1 || option % datas == data;
}

}  // namespace gsort_test
