#include "io/codec/input_format.h"

#include <atomic>

#include "io/codec/compression.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

std::atomic<InputDecoding> g_decoding{InputDecoding::kByName};

// The format the name's suffix names; kNone for none, and for the suffix
// of a format gsort does not read (.lz4: such an input is read as it is).
CompressionFormat format_by_input_name(const std::string& name) {
  try {
    return format_by_suffix(name);
  } catch (const UsageError&) {
    return CompressionFormat::kNone;
  }
}

}  // namespace

void set_input_decoding(InputDecoding decoding) { g_decoding.store(decoding, std::memory_order_relaxed); }

InputDecoding input_decoding() { return g_decoding.load(std::memory_order_relaxed); }

CompressionFormat input_format(const std::string& name, const uint8_t* bytes, size_t size) {
  const CompressionFormat named = format_by_input_name(name);
  if (named != CompressionFormat::kNone) return named;
  return input_decoding() == InputDecoding::kSniff ? format_by_magic(bytes, size) : CompressionFormat::kNone;
}

}  // namespace gsort
