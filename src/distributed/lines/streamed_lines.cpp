#include "src/distributed/lines/streamed_lines.h"

#include <algorithm>
#include <memory>

#include "io/input/input_set.h"
#include "io/input/line_source.h"
#include "src/core/test_hooks.h"
#include "src/distributed/exchange/rank0_stream.h"
#include "src/distributed/lines/line_router.h"
#include "src/distributed/ranks/rank_config.h"

namespace gsort {
namespace {

// Rank 0: every input's lines, the first ones held for the splitters.
void read_and_route(RankContext& rank, const LineComparator& compare, const std::vector<std::string>& inputs,
                    Rank0Buckets& buckets, uint64_t sample_bytes, RankStats& stats) {
  const uint8_t eol = compare.spec().eol;
  const uint64_t max_line = rank_max_line(rank.config);
  LineRouter router(compare, compare.spec().unique);
  std::vector<LineSample> first;
  uint64_t first_bytes = 0, place = 0;
  bool routing = false;
  const auto start_routing = [&] {
    router.choose(first, first_bytes, rank.group.size);
    for (const LineSample& l : first) {
      const auto* p = reinterpret_cast<const uint8_t*>(l.line.data());
      buckets.add(router.rank_of(p, l.line.size(), l.at), p, l.line.size(), eol);
    }
    first.clear();
    routing = true;
  };
  rank.fence.attempt([&] {
    for (const std::string& name : inputs) {
      LineSource lines(std::make_unique<InputFile>(name, 1), eol, 1 << 20, max_line);
      while (lines.advance()) {
        stats.slice_records += lines.length() + 1;
        if (!routing) {
          const auto weight = static_cast<double>(lines.length() + 1);
          first.push_back(LineSample{0, place++, weight, std::string(reinterpret_cast<const char*>(lines.line()), lines.length())});
          first_bytes += lines.length() + 1;
          if (first_bytes >= sample_bytes) start_routing();
          continue;
        }
        buckets.add(router.rank_of(lines.line(), lines.length(), place++), lines.line(), lines.length(), eol);
      }
    }
    if (!routing) start_routing();
    test_fault_point("exchange", 0);
  });
  buckets.end();
}

}  // namespace

void stream_lines_to_ranks(RankContext& rank, const LineComparator& compare, const std::vector<std::string>& inputs,
                           ReceivedFiles& received, RankStats& stats) {
  if (rank.group.rank == 0) {
    Rank0Buckets buckets(rank, received, rank0_flush_bytes(rank));
    read_and_route(rank, compare, inputs, buckets, rank0_sample_bytes(rank), stats);
  } else {
    receive_from_rank0(rank, received);
  }
}

}  // namespace gsort
