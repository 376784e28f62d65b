// libFuzzer target: parse_key_spec (--key) on arbitrary text, then a layout
// of the parsed field over a few record sizes, used on one record. A spec is
// a field or a UsageError; a field outside the record is a UsageError too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/core/errors.h"
#include "src/keys/key_layout.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  gsort::KeyField field;
  try {
    field = gsort::parse_key_spec(spec);
  } catch (const gsort::UsageError&) {
    return 0;
  }
  for (const uint32_t record_size : {1u, 10u, 100u, 4096u}) {
    for (const bool reverse : {false, true}) {
      try {
        const gsort::KeyLayout layout({field}, record_size, reverse);
        std::vector<uint8_t> a(record_size, 0x5a), b(record_size, 0xa5);
        std::vector<uint8_t> key(layout.width());
        layout.normalise(a.data(), key.data());
        (void)layout.prefix(a.data());
        (void)layout.compare(a.data(), b.data());
        (void)gsort::describe_key_field(field);
      } catch (const gsort::UsageError&) {
      }
    }
  }
  return 0;
}
