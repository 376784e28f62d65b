// How the generated keys are spread; --help describes each one.
#pragma once

namespace gsort::gen {

enum class Distribution { kUniform, kSorted, kReverse, kEqual, kFew, kLowEntropy };

}  // namespace gsort::gen
