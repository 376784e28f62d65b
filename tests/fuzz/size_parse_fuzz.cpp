// libFuzzer target: parse_size (-S, --gpu-memory) on arbitrary text. A size
// is a number or a UsageError; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "src/cli/size_parse.h"
#include "src/core/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)gsort::parse_size(text, "-S");
  } catch (const gsort::UsageError&) {
  }
  return 0;
}
