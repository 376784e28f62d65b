#include "src/distributed/lines/line_router.h"

#include <algorithm>

namespace gsort {

void LineRouter::choose(const std::vector<LineSample>& samples, uint64_t total, int ranks) {
  splitters_ = choose_line_splitters(samples, total, ranks, compare_, whole_keys_);
}

int LineRouter::rank_of(const uint8_t* line, uint64_t length, uint64_t place) const {
  // The splitters that the line does not sort before; a splitter itself
  // starts the next rank's range.
  const auto after = std::partition_point(splitters_.begin(), splitters_.end(), [&](const LineSample& s) {
    const int c = compare_.compare(reinterpret_cast<const uint8_t*>(s.line.data()), s.line.size(), line, length);
    return c < 0 || (c == 0 && (whole_keys_ || s.at <= place));
  });
  return static_cast<int>(after - splitters_.begin());
}

}  // namespace gsort
