// A merge source's window: the next part of a sorted stream of lines (a
// spilled run, or an input of -m) in a buffer, its whole lines indexed
// (where each starts, and its image words 0, 1 and 2 for the merge's
// comparisons: the first words are often the same for many lines, a date).
// The merge takes lines from the front (consume) and refills a window that
// runs low: what is left moves to the front and the buffer is filled up.
// A line longer than the buffer grows it, up to max_line bytes (its
// terminator included; longer is a DataError). A last line without its
// terminator is a line all the same (the window gives it one). The buffer
// and the index start small and grow while the source goes on, so that a
// small input (-m of many short files) takes little memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/file/record_source.h"
#include "src/keys/line_key.h"
#include "src/verify/line_ledger.h"

namespace gsort {

class LineWindow {
 public:
  // buffer_bytes: the window; max_lines: the most lines it indexes at once.
  LineWindow(std::unique_ptr<RecordSource> source, uint8_t eol, uint64_t buffer_bytes, uint64_t max_lines,
             uint64_t max_line);

  // --verify: the lines read are the input's (-m); their count and hashes
  // go to `verify`.
  void count_into(LineVerify* verify) { verify_ = verify; }

  // Whether the merge should refill it before its next batch: it has no
  // lines left, or less than half a buffer or half the lines it may index,
  // and there is more.
  bool wants_refill() const;
  // Moves what is left to the front, reads until the buffer is full or the
  // source ends (at least one whole line unless it ended), and finds the
  // new lines' starts. Their words come from index_words().
  void refill();
  // How many lines the last refill() found, and their first image words (and,
  // with count_into, their hashes): [begin, end) of those, so that several
  // threads share them.
  uint64_t new_lines() const { return count_ - new_from_; }
  void index_words(const LineImageSpec& image, uint64_t begin, uint64_t end);

  // The lines indexed and not yet consumed: line i from the front.
  uint64_t lines() const { return count_ - first_; }
  const uint8_t* line(uint64_t i) const { return buf_.data() + starts_[first_ + i]; }
  uint64_t length(uint64_t i) const { return starts_[first_ + i + 1] - starts_[first_ + i] - 1; }
  // Image word w (below kWords) of line i.
  static constexpr int kWords = 3;
  uint64_t word(uint64_t i, int w) const { return words_[kWords * (first_ + i) + static_cast<uint64_t>(w)]; }
  // Takes the first n lines (the memory stays valid until the next refill).
  void consume(uint64_t n);
  // Whether the source has nothing beyond the indexed lines.
  bool ended() const { return ended_ && starts_[count_] == fill_; }
  bool exhausted() const { return ended() && lines() == 0; }
  std::string name() const { return source_->name(); }
  // At the end: the lines counted for --verify go to it.
  void finish();

 private:
  // Reads into buf_[fill_, size); false at the source's end.
  bool read_more();
  // Indexes whole lines from starts_[count_] on, at most max_lines_ in all.
  void find_lines();
  // Makes room in the index for more lines (up to max_lines_).
  void grow_index();

  std::unique_ptr<RecordSource> source_;
  uint8_t eol_;
  uint64_t window_;  // the buffer's size once its source has shown it needs that much
  uint64_t max_lines_, max_line_;
  std::vector<uint8_t> buf_;  // one byte more than the window, for a last line's terminator
  uint64_t fill_ = 0;
  bool ended_ = false;
  std::vector<uint64_t> starts_;  // count_ + 1 entries in use
  std::vector<uint64_t> words_;  // kWords per line
  uint64_t first_ = 0, count_ = 0, new_from_ = 0;
  LineVerify* verify_ = nullptr;
  uint64_t counted_ = 0;
  std::atomic<uint64_t> hash_sum_{0};
};

}  // namespace gsort
