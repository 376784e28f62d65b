// Whether this build runs under AddressSanitizer (the CI's sanitizer build
// adds UndefinedBehaviorSanitizer to it): gcc defines __SANITIZE_ADDRESS__,
// clang answers __has_feature. Tests of tight resource limits skip there:
// the sanitizers' runtime reserves address space and opens descriptors of
// its own (UBSan's check that memory is readable opens a pipe, and under
// ulimit -n 11 it fails and reports an invalid vptr that is not there).
#pragma once

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
