#include "src/verify/line_check.h"

#include <memory>
#include <vector>

#include "io/input/input_set.h"
#include "io/input/line_source.h"

namespace gsort {

CheckResult check_sorted_lines(const std::string& input, const LineComparator& compare, uint64_t max_line,
                               std::atomic<uint64_t>* bytes_read) {
  auto file = std::make_unique<InputFile>(input, 1);
  InputFile& in = *file;
  LineSource lines(std::move(file), compare.spec().eol, 1 << 20, max_line);
  const bool strict = compare.spec().unique;
  CheckResult r;
  std::vector<uint8_t> previous;
  uint64_t counted = 0;
  while (lines.advance()) {
    ++r.records;
    if (r.records > 1) {
      const int d = compare.compare(previous.data(), previous.size(), lines.line(), lines.length());
      if (out_of_order(d, strict)) {
        r.sorted = false;
        r.bad_record = r.records;
        r.bad_offset = lines.bytes() - lines.length() - 1;
        r.previous_key = previous;
        r.bad_key.assign(lines.line(), lines.line() + lines.length());
        in.check_unchanged();  // a disorder in a file written meanwhile says nothing of it
        break;
      }
    }
    previous.assign(lines.line(), lines.line() + lines.length());
    if (bytes_read && lines.bytes() - counted >= (1 << 20)) {
      bytes_read->fetch_add(lines.bytes() - counted, std::memory_order_relaxed);
      counted = lines.bytes();
    }
  }
  return r;
}

std::string describe_line_disorder(const std::string& input, const CheckResult& r) {
  return input + ":" + std::to_string(r.bad_record) + ": disorder: " +
         std::string(r.bad_key.begin(), r.bad_key.end());
}

}  // namespace gsort
