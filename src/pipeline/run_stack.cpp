#include "src/pipeline/run_stack.h"

#include <algorithm>
#include <iterator>

#include "src/core/stopwatch.h"
#include "src/pipeline/merge_passes.h"

namespace gsort {

size_t RunStack::trailing_at_level(int level) const {
  size_t n = 0;
  for (auto it = waiting_.rbegin(); it != waiting_.rend() && it->level == level; ++it) ++n;
  return n;
}

size_t RunStack::open_files() const {
  size_t n = 0;
  for (const PendingSource& p : waiting_) n += p.open_files();
  return n;
}

bool RunStack::push_would_merge(bool is_run, size_t runs_before, size_t files_per_run) const {
  const size_t level0 = waiting_.empty() || waiting_.back().level != 0 ? 0 : trailing_at_level(0);
  const size_t files = open_files() + (runs_before + 1) * files_per_run;
  return level0 + runs_before + 1 >= job_.limits.fan_in || (is_run && files >= job_.limits.max_open_runs);
}

void RunStack::push(PendingSource source) {
  waiting_.push_back(std::move(source));
  for (;;) {
    const size_t fan_in = job_.limits.fan_in;
    if (trailing_at_level(waiting_.back().level) >= fan_in) {
      merge_last(fan_in);
    } else if (open_files() >= job_.limits.max_open_runs && waiting_.size() >= 2) {
      merge_last(std::min(fan_in, waiting_.size()));
    } else {
      return;
    }
  }
}

void RunStack::merge_last(size_t count) {
  const Stopwatch t;
  std::vector<PendingSource> group(std::make_move_iterator(waiting_.end() - static_cast<std::ptrdiff_t>(count)),
                                   std::make_move_iterator(waiting_.end()));
  waiting_.resize(waiting_.size() - count);
  waiting_.push_back(merge_to_run(job_, std::move(group)));
  ++job_.report.early_merges;
  job_.report.add_phase("early merges", t.seconds());
  job_.ctx.log.info("merged " + plural(count, "source") + " early: " + plural(waiting_.size(), "run") + " waiting");
}

}  // namespace gsort
