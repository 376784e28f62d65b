#include "src/merge/run_stack.h"

#include <algorithm>
#include <iterator>

#include "src/core/stopwatch.h"

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
  const MergeLimits& limits = merges_.limits();
  return level0 + runs_before + 1 >= limits.fan_in || (is_run && files >= limits.max_open_runs);
}

void RunStack::push(PendingSource source) {
  waiting_.push_back(std::move(source));
  merge_early();
}

void RunStack::push_input(PendingSource input) {
  if (!waiting_.empty()) merge_early();
  waiting_.push_back(std::move(input));
}

void RunStack::merge_early() {
  for (;;) {
    const size_t fan_in = merges_.limits().fan_in;
    if (trailing_at_level(waiting_.back().level) >= fan_in) {
      merge_last(fan_in);
    } else if (open_files() >= merges_.limits().max_open_runs && waiting_.size() >= 2) {
      merge_last(std::min(fan_in, waiting_.size()));
    } else {
      return;
    }
  }
}

void RunStack::merge_down_to(size_t most) {
  most = std::max<size_t>(most, 1);
  while (waiting_.size() > most) merge_last(std::min(merges_.limits().fan_in, waiting_.size() - most + 1));
}

void RunStack::merge_last(size_t count) {
  const Stopwatch t;
  std::vector<PendingSource> group(std::make_move_iterator(waiting_.end() - static_cast<std::ptrdiff_t>(count)),
                                   std::make_move_iterator(waiting_.end()));
  waiting_.resize(waiting_.size() - count);
  waiting_.push_back(merges_.merge_to_run(std::move(group)));
  ++report_.early_merges;
  report_.add_phase("early merges", t.seconds());
  merges_.log().info("merged " + plural(count, "source") + " early: " + plural(waiting_.size(), "run") + " waiting");
}

void RunStack::push_inputs(std::vector<PendingSource> inputs, size_t fan_in, OutputTarget* aside) {
  const bool set_aside = aside && aside->set_aside();
  for (PendingSource& input : inputs) push_input(std::move(input));
  merge_down_to(fan_in);
  if (set_aside) aside->take_back();
}

}  // namespace gsort
