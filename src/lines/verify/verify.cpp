#include "src/lines/verify/verify.h"

#include <vector>

#include "io/file/checksum.h"
#include "src/core/errors.h"

namespace gsort {

void LineVerify::input(uint64_t lines, uint64_t hash_sum) {
  in_lines_.fetch_add(lines);
  in_sum_.fetch_add(hash_sum);
}

void LineVerify::written(uint64_t lines, uint64_t hash_sum) {
  out_lines_.fetch_add(lines);
  out_sum_.fetch_add(hash_sum);
}

void LineVerify::dropped(uint64_t lines, uint64_t hash_sum) {
  drop_lines_.fetch_add(lines);
  drop_sum_.fetch_add(hash_sum);
}

void LineVerify::disorder(uint64_t number) {
  uint64_t none = 0;
  first_disorder_.compare_exchange_strong(none, number);
}

void LineVerify::finish() const {
  if (const uint64_t at = first_disorder_.load()) {
    throw DataError("--verify: the output is out of order at line " + std::to_string(at));
  }
  const uint64_t out = out_lines_.load() + drop_lines_.load();
  if (out != in_lines_.load()) {
    throw DataError("--verify: " + std::to_string(in_lines_.load()) + " lines in, " + std::to_string(out) +
                    " out (with those -u dropped)");
  }
  if (out_sum_.load() + drop_sum_.load() != in_sum_.load()) {
    throw DataError("--verify: the output's lines are not the input's (checksum " +
                    checksum_hex(out_sum_.load() + drop_sum_.load()) + ", input's " + checksum_hex(in_sum_.load()) + ")");
  }
}

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
