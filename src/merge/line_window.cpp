#include "src/merge/line_window.h"

#include <algorithm>
#include <cstring>

#include "src/core/errors.h"
#include "src/keys/line_image.h"

namespace gsort {

namespace {

constexpr uint64_t kFirstBufferBytes = 256 << 10;  // a window starts this large and doubles while its source goes on
constexpr uint64_t kFirstIndexLines = 4096;

}  // namespace

LineWindow::LineWindow(std::unique_ptr<RecordSource> source, uint8_t eol, uint64_t buffer_bytes, uint64_t max_lines,
                       uint64_t max_line)
    : source_(std::move(source)),
      eol_(eol),
      window_(std::max<uint64_t>(buffer_bytes, 256)),
      max_lines_(std::max<uint64_t>(max_lines, 1)),
      max_line_(max_line) {
  buf_.resize(std::min(window_, kFirstBufferBytes) + 1);
  starts_.assign(1, 0);
}

bool LineWindow::wants_refill() const {
  if (ended()) return false;
  if (lines() == 0) return true;
  const uint64_t window = buf_.size() - 1;
  return fill_ - starts_[first_] < window / 2 || lines() < max_lines_ / 2 || window < window_;
}

bool LineWindow::read_more() {
  const uint64_t window = buf_.size() - 1;
  while (fill_ < window) {
    const uint64_t got = source_->read(buf_.data() + fill_, window - fill_);
    if (got == 0) return false;
    fill_ += got;
  }
  return true;
}

void LineWindow::grow_index() {
  const uint64_t lines = std::min(max_lines_, std::max<uint64_t>(kFirstIndexLines, 2 * (starts_.size() - 1)));
  starts_.resize(lines + 1);
  words_.resize(kWords * lines);
}

void LineWindow::find_lines() {
  uint64_t at = starts_[count_];
  while (count_ < max_lines_ && at < fill_) {
    if (count_ + 1 >= starts_.size()) grow_index();
    const void* hit = std::memchr(buf_.data() + at, eol_, fill_ - at);
    if (!hit) {
      if (!ended_) break;
      buf_[fill_++] = eol_;  // the last line lacks its terminator
      hit = buf_.data() + fill_ - 1;
    }
    at = static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - buf_.data()) + 1;
    starts_[++count_] = at;
  }
}

void LineWindow::refill() {
  // What is left moves to the front, its index with it.
  const uint64_t from = starts_[first_];
  if (from > 0) {
    std::memmove(buf_.data(), buf_.data() + from, fill_ - from);
    fill_ -= from;
    for (uint64_t i = first_; i <= count_; ++i) starts_[i - first_] = starts_[i] - from;
    std::copy(words_.begin() + static_cast<ptrdiff_t>(kWords * first_),
              words_.begin() + static_cast<ptrdiff_t>(kWords * count_), words_.begin());
    count_ -= first_;
    first_ = 0;
  }
  new_from_ = count_;
  // A source that went on past the buffer gets a larger one, up to the
  // window: a small input never takes a window's memory.
  if (!ended_ && buf_.size() - 1 < window_ && counted_ > 0) {
    buf_.resize(std::min(window_, 2 * (buf_.size() - 1)) + 1);
  }
  for (;;) {
    if (!ended_) ended_ = !read_more();
    find_lines();
    // New lines, or old ones left to take first (they make room).
    if (count_ > new_from_ || ended() || count_ > 0) break;
    // One line fills the buffer: it grows, up to the longest line allowed.
    if (buf_.size() - 1 >= max_line_) {
      throw DataError(source_->name() + ": a line is longer than " + std::to_string(max_line_) +
                      " bytes, a quarter of the memory budget (-S); give a larger -S");
    }
    buf_.resize(std::min<uint64_t>(max_line_, 2 * (buf_.size() - 1)) + 1);
  }
  counted_ += count_ - new_from_;
}

void LineWindow::index_words(const LineImageSpec& image, uint64_t begin, uint64_t end) {
  uint64_t sum = 0;
  for (uint64_t i = new_from_ + begin; i < new_from_ + end; ++i) {
    const uint8_t* p = buf_.data() + starts_[i];
    const uint64_t len = starts_[i + 1] - starts_[i] - 1;
    const LineImageView v = view_line_image(image, p, len);
    for (int w = 0; w < kWords; ++w) words_[kWords * i + static_cast<uint64_t>(w)] = line_image_word(image, v, w);
    if (verify_) sum += hash_line(p, len);
  }
  if (verify_) hash_sum_.fetch_add(sum, std::memory_order_relaxed);
}

void LineWindow::consume(uint64_t n) { first_ += n; }

void LineWindow::finish() {
  if (verify_) verify_->input(counted_, hash_sum_.load());
  verify_ = nullptr;
}

}  // namespace gsort
