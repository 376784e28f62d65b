#include "src/distributed/lines/slice_window.h"

#include <algorithm>

#include "src/distributed/lines/line_slice.h"

namespace gsort {
namespace {

constexpr uint64_t kReadPieceBytes = uint64_t{4} << 20;  // read by one thread at a time

}  // namespace

uint64_t read_window(const ConcatenatedInputs& inputs, uint8_t eol, uint64_t at, uint64_t end, uint64_t bytes,
                     ThreadPool& pool, WindowText& w) {
  const uint64_t in_end = input_end(inputs, at);
  const uint64_t limit = std::min(end, in_end);
  uint64_t stop = std::min(limit, at + bytes);
  if (stop < limit) stop = std::min(limit, line_start_at_or_after(inputs, eol, stop));
  const uint64_t n = stop - at;
  w.mapped.reset();
  uint8_t last = eol;
  if (stop == in_end && n > 0) inputs.read(stop - 1, 1, &last);
  if (last == eol && n > 0 && (w.mapped = inputs.map(at, n)) != nullptr) {
    w.mapped->populate(pool);
    w.data = w.mapped->bytes();
    w.size = n;
    return stop;
  }
  std::vector<uint8_t>& buf = w.copy;
  buf.resize(n + 1);
  const size_t pieces = static_cast<size_t>((n + kReadPieceBytes - 1) / kReadPieceBytes);
  pool.parallel_for(pieces, [&](size_t p) {
    const uint64_t from = p * kReadPieceBytes;
    inputs.read(at + from, std::min(kReadPieceBytes, n - from), buf.data() + from);
  });
  buf.resize(n);
  if (last != eol) buf.push_back(eol);
  w.data = buf.data();
  w.size = buf.size();
  return stop;
}

}  // namespace gsort
