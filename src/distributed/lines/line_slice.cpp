#include "src/distributed/lines/line_slice.h"

#include <algorithm>
#include <cstring>
#include <vector>


namespace gsort {
namespace {

constexpr uint64_t kScanBytes = uint64_t{64} << 10;   // read at a time looking for a terminator
constexpr uint64_t kCopyBytes = uint64_t{8} << 20;    // copied at a time into the slice's file

}  // namespace

uint64_t input_end(const ConcatenatedInputs& inputs, uint64_t at) {
  const std::vector<uint64_t>& starts = inputs.file_starts();
  return *std::upper_bound(starts.begin(), starts.end(), at);
}

namespace {

bool starts_an_input(const ConcatenatedInputs& inputs, uint64_t at) {
  const std::vector<uint64_t>& starts = inputs.file_starts();
  return std::binary_search(starts.begin(), starts.end(), at);
}

}  // namespace

uint64_t line_start_at_or_after(const ConcatenatedInputs& inputs, uint8_t eol, uint64_t at) {
  const uint64_t total = inputs.total_records();
  if (at == 0 || at >= total || starts_an_input(inputs, at)) return std::min(at, total);
  uint8_t before = 0;
  inputs.read(at - 1, 1, &before);
  if (before == eol) return at;
  // The line that holds `at` ends at the next terminator, or with its input.
  const uint64_t end = input_end(inputs, at);
  std::vector<uint8_t> buf;
  for (uint64_t from = at; from < end;) {
    const uint64_t n = std::min(kScanBytes, end - from);
    buf.resize(n);
    inputs.read(from, n, buf.data());
    if (const void* hit = std::memchr(buf.data(), eol, n)) {
      return from + static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - buf.data()) + 1;
    }
    from += n;
  }
  return end;
}

uint64_t line_start_at_or_after(const uint8_t* bytes, uint64_t size, uint8_t eol, uint64_t at) {
  if (at == 0 || at >= size) return std::min(at, size);
  if (bytes[at - 1] == eol) return at;
  const void* end = std::memchr(bytes + at, eol, size - at);
  return end ? static_cast<uint64_t>(static_cast<const uint8_t*>(end) - bytes) + 1 : size;
}

std::string line_at(const ConcatenatedInputs& inputs, uint8_t eol, uint64_t at) {
  const uint64_t end = input_end(inputs, at);
  std::string line;
  std::vector<uint8_t> buf;
  for (uint64_t from = at; from < end;) {
    const uint64_t n = std::min(kScanBytes, end - from);
    buf.resize(n);
    inputs.read(from, n, buf.data());
    const void* hit = std::memchr(buf.data(), eol, n);
    const uint64_t take = hit ? static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - buf.data()) : n;
    line.append(reinterpret_cast<const char*>(buf.data()), take);
    if (hit) break;
    from += n;
  }
  return line;
}

RecordRange rank_line_slice(const ConcatenatedInputs& inputs, uint8_t eol, int rank, int ranks) {
  const uint64_t total = inputs.total_records();
  const RecordRange even = rank_slice(total, rank, ranks);
  RecordRange slice;
  slice.begin = line_start_at_or_after(inputs, eol, even.begin);
  slice.end = line_start_at_or_after(inputs, eol, even.end);
  slice.begin = std::min(slice.begin, slice.end);
  return slice;
}

uint64_t write_line_slice(const ConcatenatedInputs& inputs, const RecordRange& slice, uint8_t eol, File& out) {
  std::vector<uint8_t> buf;
  uint64_t written = 0;
  for (uint64_t at = slice.begin; at < slice.end;) {
    // Up to the end of the slice, of the input holding `at`, or of a copy's bytes.
    const uint64_t end = std::min(slice.end, input_end(inputs, at));
    const uint64_t n = std::min(kCopyBytes, end - at);
    buf.resize(n + 1);
    inputs.read(at, n, buf.data());
    uint64_t bytes = n;
    // The input's last byte, not a terminator: its last line ends here.
    if (at + n == end && end == input_end(inputs, at) && buf[n - 1] != eol) buf[bytes++] = eol;
    out.write_all(buf.data(), bytes);
    written += bytes;
    at += n;
  }
  return written;
}

}  // namespace gsort
