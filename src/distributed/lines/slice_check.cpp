#include "src/distributed/lines/slice_check.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "src/core/errors.h"
#include "src/distributed/lines/line_slice.h"
#include "src/distributed/lines/slice_window.h"

namespace gsort {
namespace {

constexpr uint64_t kLeastTaskBytes = uint64_t{16} << 10;  // smaller windows take fewer tasks

// A line where it lies in a window.
struct Line {
  uint64_t at = 0, length = 0;  // its offset, its bytes without the terminator
};

// One task's lines of a window: how many, its first and last, its first
// disorder within it and its first line longer than the limit (each the
// line's number in the task from 1, 0 for none), and the lines there.
struct TaskCheck {
  uint64_t lines = 0;
  Line first, last;
  uint64_t disorder = 0, too_long = 0;
  Line before_disorder, at_disorder;
};

// Whether line b may not follow line a (sorted_check.h), strictly under -u.
bool lines_out_of_order(const LineComparator& compare, const uint8_t* a, uint64_t alen, const uint8_t* b,
                        uint64_t blen) {
  return out_of_order(compare.compare(a, alen, b, blen), compare.spec().unique);
}

class SliceChecker {
 public:
  SliceChecker(const LineComparator& compare, uint8_t eol, uint64_t max_line, ThreadPool& pool)
      : compare_(compare), eol_(eol), max_line_(max_line), pool_(pool) {}

  // The window's lines, `text` of `size` bytes, each ended by a terminator;
  // a line too long before the first disorder throws, named by `source`.
  void window(const uint8_t* text, uint64_t size, const std::function<std::string()>& source) {
    const size_t tasks = std::clamp<size_t>(size / kLeastTaskBytes, 1, pool_.balanced_task_count());
    std::vector<uint64_t> starts(tasks + 1, size);
    starts[0] = 0;
    for (size_t t = 1; t < tasks; ++t) {
      starts[t] = std::max(starts[t - 1], line_start_at_or_after(text, size, eol_, split_point(size, tasks, t)));
    }
    std::vector<TaskCheck> checks(tasks);
    const bool checking = r_.local.sorted;  // past a disorder, lines are only counted
    pool_.parallel_for(tasks, [&](size_t t) { checks[t] = check_task(text, starts[t], starts[t + 1], checking); });
    for (size_t t = 0; t < tasks; ++t) take(text, checks[t], source);
    r_.bytes += size;
  }

  SliceCheck& result() { return r_; }

 private:
  TaskCheck check_task(const uint8_t* text, uint64_t begin, uint64_t end, bool checking) const {
    TaskCheck c;
    for (uint64_t at = begin; at < end;) {
      const auto* stop = static_cast<const uint8_t*>(std::memchr(text + at, eol_, end - at));
      const Line line{at, static_cast<uint64_t>(stop - text) - at};
      ++c.lines;
      if (checking && c.too_long == 0 && line.length + 1 > max_line_) c.too_long = c.lines;
      if (c.lines == 1) {
        c.first = line;
      } else if (checking && c.disorder == 0 && out_of_order(text, c.last, line)) {
        c.disorder = c.lines;
        c.before_disorder = c.last;
        c.at_disorder = line;
      }
      c.last = line;
      at += line.length + 1;
    }
    return c;
  }

  bool out_of_order(const uint8_t* text, const Line& a, const Line& b) const {
    return out_of_order(text + a.at, a.length, text + b.at, b.length);
  }
  bool out_of_order(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) const {
    return lines_out_of_order(compare_, a, alen, b, blen);
  }

  // A task's lines after every line before them, in order: the first
  // event of the pair across (its first line), its own disorder, or a
  // line too long (read, in one process's check, before it is compared).
  void take(const uint8_t* text, const TaskCheck& c, const std::function<std::string()>& source) {
    if (c.lines == 0) return;
    if (r_.local.sorted) {
      const auto* last = reinterpret_cast<const uint8_t*>(r_.last.data());
      const bool across = r_.units > 0 && out_of_order(last, r_.last.size(), text + c.first.at, c.first.length);
      const uint64_t disorder = across ? 1 : c.disorder;
      if (c.too_long != 0 && (disorder == 0 || c.too_long <= disorder)) {
        throw DataError(source() + ": a line is longer than " + std::to_string(max_line_) +
                        " bytes, a quarter of the memory budget (-S); give a larger -S");
      }
      if (across) {
        note_disorder(r_.units + 1, r_.bytes + c.first.at, last, r_.last.size(), text + c.first.at, c.first.length);
      } else if (disorder != 0) {
        note_disorder(r_.units + disorder, r_.bytes + c.at_disorder.at, text + c.before_disorder.at,
                      c.before_disorder.length, text + c.at_disorder.at, c.at_disorder.length);
      }
    }
    if (r_.units == 0) r_.first.assign(reinterpret_cast<const char*>(text + c.first.at), c.first.length);
    r_.last.assign(reinterpret_cast<const char*>(text + c.last.at), c.last.length);
    r_.units += c.lines;
    if (r_.local.sorted) r_.local.records = r_.units;
  }

  void note_disorder(uint64_t line, uint64_t offset, const uint8_t* previous, uint64_t previous_length,
                     const uint8_t* bad, uint64_t length) {
    CheckResult& r = r_.local;
    r.sorted = false;
    r.bad_record = line;
    r.bad_offset = offset;
    r.records = line;
    r.previous_key.assign(previous, previous + previous_length);
    r.bad_key.assign(bad, bad + length);
  }

  const LineComparator& compare_;
  const uint8_t eol_;
  const uint64_t max_line_;
  ThreadPool& pool_;
  SliceCheck r_;
};

// The input holding byte `at`, for messages.
std::string input_name(const ConcatenatedInputs& inputs, uint64_t at) {
  return inputs.file(std::min(inputs.file_of(at), inputs.file_count() - 1)).display_name();
}

}  // namespace

SliceCheck check_line_slice_in_place(const ConcatenatedInputs& inputs, const RecordRange& slice,
                                     const LineComparator& compare, uint64_t max_line, ThreadPool& pool,
                                     uint64_t window_bytes) {
  const uint8_t eol = compare.spec().eol;
  SliceChecker checker(compare, eol, max_line, pool);
  WindowText text;
  for (uint64_t at = slice.begin; at < slice.end;) {
    const uint64_t place = at;
    at = read_window(inputs, eol, at, slice.end, window_bytes, pool, text);
    checker.window(text.data, text.size, [&inputs, place] { return input_name(inputs, place); });
  }
  return std::move(checker.result());
}

bool lines_in_order(const uint8_t* text, uint64_t size, const LineComparator& compare, ThreadPool& pool) {
  const uint8_t eol = compare.spec().eol;
  // The terminated lines, then the last line where it lacks its terminator.
  const auto* last_eol = static_cast<const uint8_t*>(size > 0 ? memrchr(text, eol, size) : nullptr);
  const uint64_t whole = last_eol ? static_cast<uint64_t>(last_eol - text) + 1 : 0;
  SliceChecker checker(compare, eol, UINT64_MAX, pool);
  checker.window(text, whole, [] { return std::string(); });
  const SliceCheck& r = checker.result();
  if (!r.local.sorted || whole == size || r.units == 0) return r.local.sorted;
  return !lines_out_of_order(compare, reinterpret_cast<const uint8_t*>(r.last.data()), r.last.size(), text + whole,
                       size - whole);
}

}  // namespace gsort
