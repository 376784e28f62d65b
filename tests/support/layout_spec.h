// The reference's description (RefSpec) of one of gsort's KeyLayouts, so
// that tests holding a KeyLayout can be judged by the independent
// reference. Only the fields are read; the order comes from the reference.
#pragma once

#include "src/keys/key_layout.h"
#include "tests/support/reference_sort.h"

namespace gsort_test {

// A KeyLayout has -r folded into its fields' directions, so the spec it
// gives has reverse = false and the same order.
RefSpec ref_spec_of(const gsort::KeyLayout& layout);

}  // namespace gsort_test
