#include "src/verify/line_ledger.h"

#include <vector>

#include "io/file/checksum.h"

namespace gsort {

uint64_t hash_line(const uint8_t* line, uint64_t len) { return hash_record(line, static_cast<size_t>(len)); }

uint64_t hash_lines(ThreadPool& pool, const LineSpan& lines) {
  const size_t tasks = lines.count < 4096 ? 1 : pool.balanced_task_count();
  std::vector<uint64_t> sums(tasks, 0);
  pool.parallel_for(tasks, [&](size_t t) {
    uint64_t sum = 0;
    for (uint64_t i = split_point(lines.count, tasks, t), e = split_point(lines.count, tasks, t + 1); i < e; ++i) {
      sum += hash_line(lines.line(i), lines.length(i));
    }
    sums[t] = sum;
  });
  uint64_t total = 0;
  for (uint64_t s : sums) total += s;
  return total;
}

}  // namespace gsort
