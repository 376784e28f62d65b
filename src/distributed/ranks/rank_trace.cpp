#include "src/distributed/ranks/rank_trace.h"

#include <algorithm>

#include "src/report/trace_file.h"

namespace gsort {

std::string ranks_trace_json(const std::vector<RankStats>& all) {
  std::vector<TracedProcess> ranks;
  for (size_t r = 0; r < all.size(); ++r) {
    const RankStats& s = all[r];
    TracedProcess rank{"rank " + std::to_string(r), {}};
    const auto span = [&](const char* name, double start_s, double seconds) {
      if (seconds > 0) rank.spans.push_back(PhaseSpan{name, "main", start_s, start_s + seconds});
    };
    const double steps = s.splitters_s + s.exchange_s + s.sort_s + s.write_s;
    double at = 0;
    const auto step = [&](const char* name, double seconds) {
      span(name, at, seconds);
      at += seconds;
    };
    step("prepare", std::max(0.0, s.total_s - steps));
    step("splitters", s.splitters_s);
    const double exchange_at = at;
    step("exchange", s.exchange_s);
    span("read and partition", exchange_at, std::min(s.read_s, s.exchange_s));
    const double wait = std::min(s.exchange_wait_s, s.exchange_s);
    span("in the collectives", exchange_at + s.exchange_s - wait, wait);
    step("local sort", s.sort_s);
    step("write", s.write_s);
    ranks.push_back(std::move(rank));
  }
  return chrome_trace_json(ranks);
}

}  // namespace gsort
