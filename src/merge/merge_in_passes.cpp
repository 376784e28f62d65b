#include "src/merge/merge_in_passes.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace gsort {

std::vector<std::pair<size_t, size_t>> pass_groups(size_t waiting, size_t fan_in) {
  fan_in = std::max<size_t>(fan_in, 2);
  std::vector<std::pair<size_t, size_t>> groups;
  if (waiting <= fan_in) return groups;
  const bool last_but_one = waiting < 2 * fan_in;
  const size_t first_group = last_but_one ? waiting - fan_in + 1 : fan_in;
  for (size_t begin = 0; begin < waiting;) {
    const size_t width = begin == 0 ? first_group : (last_but_one ? 1 : fan_in);
    const size_t end = std::min(waiting, begin + width);
    if (end - begin > 1) groups.emplace_back(begin, end);
    begin = end;
  }
  return groups;
}

std::vector<PendingSource> merge_in_passes(std::vector<PendingSource> pending, GroupMerger& merges,
                                           const std::function<void(int pass)>& before_pass,
                                           const std::function<void(int pass, size_t left)>& after_pass) {
  const size_t fan_in = std::max<size_t>(merges.limits().fan_in, 2);
  for (int pass = 1; pending.size() > fan_in; ++pass) {
    if (before_pass) before_pass(pass);
    std::vector<PendingSource> next;
    size_t at = 0;
    for (const auto& [begin, end] : pass_groups(pending.size(), fan_in)) {
      for (; at < begin; ++at) next.push_back(std::move(pending[at]));
      std::vector<PendingSource> group(std::make_move_iterator(pending.begin() + static_cast<std::ptrdiff_t>(begin)),
                                       std::make_move_iterator(pending.begin() + static_cast<std::ptrdiff_t>(end)));
      next.push_back(merges.merge_to_run(std::move(group)));
      at = end;
    }
    for (; at < pending.size(); ++at) next.push_back(std::move(pending[at]));
    pending = std::move(next);
    if (after_pass) after_pass(pass, pending.size());
  }
  return pending;
}

}  // namespace gsort
