// What the CPU chunk sort moves around: a record's 8-byte normalised key
// prefix and its index in the chunk. Packed to 12 bytes, since the radix
// passes are bound by memory traffic.
#pragma once

#include <cstdint>

namespace gsort {

struct __attribute__((packed)) KeyEntry {
  uint64_t prefix;
  uint32_t index;
};
static_assert(sizeof(KeyEntry) == 12, "KeyEntry is packed");

}  // namespace gsort
