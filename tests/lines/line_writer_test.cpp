// The lines' writer (src/output/line_writer.h over src/output/block_writer.h)
// through write-behind buffers and through a mapped range of the output
// file, whose written pages it drops as it goes: for every blocking, lines
// shorter and longer than a block, -u with equal lines across a block's
// end, and --verify, the bytes are the lines in order, each with its
// terminator, the first of each run of equal lines kept under -u; the
// ledger's counts and sums agree with the input; a line out of order fails
// --verify.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "io/file/file.h"
#include "io/output/mapped_output_range.h"
#include "io/output/mapped_window.h"
#include "src/core/errors.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/output/line_writer.h"
#include "src/verify/line_ledger.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

using gsort_test::Rng;
using gsort_test::TempDir;

LineSpec whole_line() { return make_line_spec(LineOptions{}, false, false); }

// Sorted lines from few values (-u drops many), some longer than a block.
std::vector<std::string> sorted_lines(uint64_t seed, size_t n) {
  Rng rng(seed);
  std::vector<std::string> lines;
  for (size_t i = 0; i < n; ++i) {
    const size_t len = rng.below(20) == 0 ? 5000 + rng.below(9000) : rng.below(40);
    lines.push_back(std::string(len, static_cast<char>('a' + rng.below(3))) + std::to_string(rng.below(50)));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::string expected_bytes(const std::vector<std::string>& lines, bool unique) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (unique && i > 0 && lines[i] == lines[i - 1]) continue;
    out += lines[i] + '\n';
  }
  return out;
}

// The lines as a chunk: text and starts, and the identity order.
struct Chunk {
  std::string text;
  std::vector<uint64_t> starts{0};
  std::vector<uint32_t> order;
  explicit Chunk(const std::vector<std::string>& lines) {
    for (const std::string& l : lines) {
      text += l + '\n';
      starts.push_back(text.size());
    }
    order.resize(lines.size());
    std::iota(order.begin(), order.end(), 0u);
  }
  LineSpan span() const {
    return LineSpan{reinterpret_cast<const uint8_t*>(text.data()), starts.data(), order.size()};
  }
};

// The chunk through `out`: sorted batches of `step` lines, single lines
// (the merge's path) and line references in turn.
void write_all(LineWriter& out, ThreadPool& pool, const Chunk& chunk, uint64_t step) {
  const LineSpan span = chunk.span();
  for (uint64_t at = 0; at < span.count;) {
    const uint64_t n = std::min<uint64_t>(step, span.count - at);
    out.append_sorted(pool, span, chunk.order.data() + at, n);
    at += n;
    if (at < span.count) {
      out.append(span.line(at), span.length(at));
      ++at;
    }
    std::vector<LineRef> refs;
    for (uint64_t k = 0; k < step && at < span.count; ++k, ++at) {
      refs.push_back(LineRef{span.line(at), span.length(at)});
    }
    out.append_lines(pool, refs.data(), refs.size());
  }
  out.finish();
}

std::string through_write_behind(ThreadPool& pool, const Chunk& chunk, const LineComparator* unique, LineVerify* verify,
                                 uint64_t step) {
  std::string bytes;
  LineWriter out([&](const uint8_t* d, size_t n) { bytes.append(reinterpret_cast<const char*>(d), n); }, 4096, '\n',
                 unique);
  if (verify) out.verify_with(verify);
  write_all(out, pool, chunk, step);
  return bytes;
}

std::string through_mapping(ThreadPool& pool, const Chunk& chunk, const LineComparator* unique, uint64_t step,
                            uint64_t block) {
  TempDir dir;
  const std::string path = dir.file("out");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  EXPECT_GE(fd, 0);
  File file(fd, path, true);
  const uint64_t bytes = chunk.text.size();
  std::unique_ptr<MappedOutputRange> range = MappedOutputRange::map(file, 0, bytes);
  EXPECT_TRUE(range) << "fallocate and mmap work on the test's file system";
  if (!range) return "";
  auto window = std::make_unique<MappedWindow>(range->data(), bytes, block);
  const MappedWindow* seen = window.get();
  LineWriter out(std::move(window), '\n', unique);
  write_all(out, pool, chunk, step);
  const uint64_t filled = seen->filled();
  EXPECT_EQ(filled, out.bytes_written());
  range->finish(false);
  EXPECT_EQ(::ftruncate(file.fd(), static_cast<off_t>(filled)), 0);
  return gsort_test::read_file(path);
}

TEST(LineWriter, SameBytesThroughWriteBehindAndMappingForEveryBlocking) {
  ThreadPool pool(4);
  const LineSpec spec = whole_line();
  const LineComparator compare(spec);
  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<std::string> lines = sorted_lines(seed, 3000);
    const Chunk chunk(lines);
    for (bool unique : {false, true}) {
      const LineComparator* u = unique ? &compare : nullptr;
      const std::string expected = expected_bytes(lines, unique);
      for (uint64_t step : {1, 7, 300, 5000}) {
        SCOPED_TRACE("seed " + std::to_string(seed) + (unique ? " -u" : "") + " step " + std::to_string(step));
        EXPECT_EQ(through_write_behind(pool, chunk, u, nullptr, step), expected);
        // Mapped blocks of a page and of many: written pages dropped beside the rest.
        for (uint64_t block : {uint64_t{4096}, uint64_t{1} << 20}) {
          EXPECT_EQ(through_mapping(pool, chunk, u, step, block), expected) << "block " << block;
        }
      }
    }
  }
}

// One buffer, scribbled over once handed over and then handed out again:
// what a target may do with a block once it has it.
class OneBuffer final : public BlockTarget {
 public:
  explicit OneBuffer(std::string* out) : out_(out), buffer_(4096) {}
  uint8_t* buffer() const override { return const_cast<uint8_t*>(buffer_.data()); }
  size_t capacity() const override { return buffer_.size(); }
  void submit(size_t bytes) override {
    out_->append(reinterpret_cast<const char*>(buffer_.data()), bytes);
    std::fill(buffer_.begin(), buffer_.end(), uint8_t{'#'});
  }
  void finish() override {}

 private:
  std::string* out_;
  std::vector<uint8_t> buffer_;
};

TEST(LineWriter, MinusUComparesWithTheLastKeptLineAfterItsBlockIsReused) {
  ThreadPool pool(2);
  const LineComparator compare(make_line_spec(LineOptions{}, false, true));
  for (uint64_t seed : {4, 5}) {
    const std::vector<std::string> lines = sorted_lines(seed, 2000);
    const Chunk chunk(lines);
    for (uint64_t step : {1, 7, 300}) {
      std::string bytes;
      LineWriter out(std::make_unique<OneBuffer>(&bytes), '\n', &compare);
      write_all(out, pool, chunk, step);
      EXPECT_EQ(bytes, expected_bytes(lines, true)) << "seed " << seed << " step " << step;
    }
  }
}

TEST(LineWriter, VerifyCountsWhatWentAndWhatMinusUDropped) {
  ThreadPool pool(4);
  const std::vector<std::string> lines = sorted_lines(7, 2000);
  const Chunk chunk(lines);
  uint64_t input_sum = 0;
  for (const std::string& l : lines) input_sum += hash_line(reinterpret_cast<const uint8_t*>(l.data()), l.size());
  for (bool unique : {false, true}) {
    const LineSpec s = make_line_spec(LineOptions{}, false, unique);
    LineVerify verify(s);
    const LineComparator compare(s);
    verify.input(lines.size(), input_sum);
    const std::string bytes = through_write_behind(pool, chunk, unique ? &compare : nullptr, &verify, 33);
    EXPECT_EQ(bytes, expected_bytes(lines, unique));
    EXPECT_NO_THROW(verify.finish());
    EXPECT_EQ(verify.written_units() + verify.dropped_units(), lines.size());
    EXPECT_EQ(unique, verify.dropped_units() > 0);
  }
}

TEST(LineWriter, VerifyFailsOnALineOutOfOrder) {
  ThreadPool pool(2);
  const LineSpec spec = whole_line();
  std::vector<std::string> lines = sorted_lines(9, 500);
  std::swap(lines[100], lines.back());  // a line far out of its place
  const Chunk chunk(lines);
  LineVerify verify(spec);
  uint64_t input_sum = 0;
  for (const std::string& l : lines) input_sum += hash_line(reinterpret_cast<const uint8_t*>(l.data()), l.size());
  verify.input(lines.size(), input_sum);
  (void)through_write_behind(pool, chunk, nullptr, &verify, 50);
  EXPECT_THROW(verify.finish(), DataError);
}

}  // namespace
}  // namespace gsort
