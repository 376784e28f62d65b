#include "pipeline/test_hooks.h"

#ifdef GSORT_TEST_HOOKS

#include <cstdlib>
#include <string>

namespace gsort::test_hooks {

void before_final_write(uint8_t* records, uint64_t count, uint32_t record_size, uint64_t first) {
  const char* spec = std::getenv("GSORT_TEST_CORRUPT_OUTPUT");
  if (spec == nullptr || *spec == '\0') return;
  char* end = nullptr;
  const uint64_t target = std::strtoull(spec, &end, 10);
  uint64_t byte = record_size - 1;
  if (*end == ':') byte = std::strtoull(end + 1, nullptr, 10) % record_size;
  if (target < first || target >= first + count) return;
  records[(target - first) * record_size + byte] ^= 0x01;
}

}  // namespace gsort::test_hooks

#endif
