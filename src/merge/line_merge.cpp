#include "src/merge/line_merge.h"

#include <algorithm>
#include <atomic>

#include "src/algo/loser_tree.h"

namespace gsort {
namespace {

constexpr uint64_t kPieceLines = 1 << 14;  // fewer lines than this in a piece: not worth a task of its own
constexpr uint64_t kSamplesPerPiece = 8;   // splitters are picked from this many samples per piece

// A line of the batch: line i of window s. The batch's order is the
// lines' comparison, then the source, then the place in it.
struct Pos {
  size_t s;
  uint64_t i;
};

class Batch {
 public:
  Batch(std::vector<std::unique_ptr<LineWindow>>& windows, const LineComparator& compare, ThreadPool& pool)
      : w_(windows), compare_(compare), image_(compare.spec().image()), pool_(pool), checked_(windows.size(), 0) {}

  // Refills the windows that run low; false when every window is spent.
  bool refill();
  // Whether every window's lines are in order (then the batch may be
  // found by the frontier and merged in pieces; otherwise take_in_sequence).
  bool in_order();
  // Each window's lines up to the frontier; returns how many in all.
  uint64_t take_to_frontier();
  // The batch's lines, in order, into refs (as many as take_to_frontier said).
  void pick(LineRef* refs);
  // For windows out of order: what sort -m writes, one line at a time the
  // least head (ties to the earlier source), until the window of a source
  // that goes on runs dry. The lines go into refs; returns how many.
  uint64_t take_in_sequence(std::vector<LineRef>& refs);
  // Each window's share of the batch is consumed; returns its bytes.
  uint64_t consume();

 private:
  // <0, 0, >0 as line i of x sorts before, with, after line j of y.
  int order(const LineWindow& x, uint64_t i, const LineWindow& y, uint64_t j) const {
    for (int k = 0; k < LineWindow::kWords; ++k) {
      if (x.word(i, k) != y.word(j, k)) return x.word(i, k) < y.word(j, k) ? -1 : 1;
    }
    return compare_.compare(x.line(i), x.length(i), y.line(j), y.length(j));
  }
  bool less(const Pos& a, const Pos& b) const {
    if (a.s == b.s) return a.i < b.i;
    const int d = order(*w_[a.s], a.i, *w_[b.s], b.i);
    return d != 0 ? d < 0 : a.s < b.s;
  }
  // How many of window s's first `count` lines sort before x (with
  // `inclusive`, also x itself).
  uint64_t rank(size_t s, uint64_t count, const Pos& x, bool inclusive) const;
  // bounds[p][s]: where piece p begins in window s (pieces + 1 rows).
  std::vector<std::vector<uint64_t>> split(size_t pieces) const;
  // Merges window s's lines [from[s], to[s]) into refs.
  void merge_piece(const std::vector<uint64_t>& from, const std::vector<uint64_t>& to, LineRef* refs) const;

  std::vector<std::unique_ptr<LineWindow>>& w_;
  const LineComparator& compare_;
  const LineImageSpec image_;
  ThreadPool& pool_;
  std::vector<uint64_t> take_;  // each window's share of the batch
  std::vector<uint64_t> checked_;  // each window's first lines known to be in order
  uint64_t total_ = 0;
};

bool Batch::refill() {
  std::vector<LineWindow*> low;
  for (auto& w : w_) {
    if (w->wants_refill()) low.push_back(w.get());
  }
  pool_.parallel_for(low.size(), [&](size_t k) { low[k]->refill(); });
  // The new lines' words, by all threads over all refilled windows.
  std::vector<uint64_t> first(low.size() + 1, 0);
  for (size_t k = 0; k < low.size(); ++k) first[k + 1] = first[k] + low[k]->new_lines();
  const uint64_t lines = first.back();
  const size_t tasks = lines < kPieceLines ? 1 : pool_.balanced_task_count();
  pool_.parallel_for(tasks, [&](size_t t) {
    const uint64_t begin = split_point(lines, tasks, t), end = split_point(lines, tasks, t + 1);
    size_t k = static_cast<size_t>(std::upper_bound(first.begin(), first.end(), begin) - first.begin()) - 1;
    for (uint64_t at = begin; at < end; ++k) {
      const uint64_t stop = std::min(end, first[k + 1]);
      if (stop > at) low[k]->index_words(image_, at - first[k], stop - first[k]);
      at = std::max(at, stop);
    }
  });
  return std::any_of(w_.begin(), w_.end(), [](const auto& w) { return !w->exhausted(); });
}

bool Batch::in_order() {
  // The pairs (i - 1, i) not checked yet, in spans of window s's [begin, end).
  struct Span {
    size_t s;
    uint64_t begin, end;
  };
  std::vector<Span> spans;
  for (size_t s = 0; s < w_.size(); ++s) {
    const uint64_t end = w_[s]->lines();
    for (uint64_t b = std::max<uint64_t>(checked_[s], 1); b < end; b += kPieceLines) {
      spans.push_back(Span{s, b, std::min(end, b + kPieceLines)});
    }
  }
  std::atomic<bool> sorted{true};
  pool_.parallel_for(spans.size(), [&](size_t k) {
    const LineWindow& w = *w_[spans[k].s];
    for (uint64_t i = spans[k].begin; i < spans[k].end; ++i) {
      if (order(w, i, w, i - 1) < 0) {
        sorted.store(false, std::memory_order_relaxed);
        return;
      }
    }
  });
  if (!sorted.load()) return false;
  for (size_t s = 0; s < w_.size(); ++s) checked_[s] = w_[s]->lines();
  return true;
}

uint64_t Batch::take_in_sequence(std::vector<LineRef>& refs) {
  take_.assign(w_.size(), 0);
  std::vector<size_t> src;  // the windows with lines, in order
  for (size_t s = 0; s < w_.size(); ++s) {
    if (w_[s]->lines() > 0) src.push_back(s);
  }
  const auto before = [&](size_t a, size_t b) { return less(Pos{src[a], take_[src[a]]}, Pos{src[b], take_[src[b]]}); };
  LoserTree<decltype(before)> tree(src.size(), before);
  refs.clear();
  while (!tree.empty()) {
    const size_t s = src[tree.winner()];
    const LineWindow& w = *w_[s];
    refs.push_back(LineRef{w.line(take_[s]), w.length(take_[s])});
    const bool more = ++take_[s] < w.lines();
    if (!more && !w.ended()) break;  // its next line is not read yet
    tree.advance(more);
  }
  total_ = refs.size();
  return total_;
}

uint64_t Batch::rank(size_t s, uint64_t count, const Pos& x, bool inclusive) const {
  if (s == x.s) return std::min(count, inclusive ? x.i + 1 : x.i);
  uint64_t lo = 0, hi = count;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    const Pos p{s, mid};
    if (inclusive ? !less(x, p) : less(p, x)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

uint64_t Batch::take_to_frontier() {
  // The frontier: the least last line of a window whose source goes on.
  bool bounded = false;
  Pos frontier{0, 0};
  for (size_t s = 0; s < w_.size(); ++s) {
    const LineWindow& w = *w_[s];
    if (w.ended() || w.lines() == 0) continue;
    const Pos last{s, w.lines() - 1};
    if (!bounded || less(last, frontier)) frontier = last;
    bounded = true;
  }
  take_.assign(w_.size(), 0);
  total_ = 0;
  for (size_t s = 0; s < w_.size(); ++s) {
    const uint64_t n = w_[s]->lines();
    take_[s] = bounded ? rank(s, n, frontier, true) : n;
    total_ += take_[s];
  }
  return total_;
}

std::vector<std::vector<uint64_t>> Batch::split(size_t pieces) const {
  const size_t k = w_.size();
  std::vector<std::vector<uint64_t>> bounds(pieces + 1, std::vector<uint64_t>(k, 0));
  bounds[pieces] = take_;
  if (pieces == 1) return bounds;
  // Samples spread evenly over each window's share, sorted; every
  // kSamplesPerPiece-th one is a splitter.
  std::vector<Pos> samples;
  const uint64_t step = std::max<uint64_t>(1, total_ / (pieces * kSamplesPerPiece));
  for (size_t s = 0; s < k; ++s) {
    for (uint64_t i = step / 2; i < take_[s]; i += step) samples.push_back(Pos{s, i});
  }
  std::sort(samples.begin(), samples.end(), [this](const Pos& a, const Pos& b) { return less(a, b); });
  pool_.parallel_for(pieces - 1, [&](size_t p) {
    if (samples.empty()) return;
    const Pos& splitter = samples[(p + 1) * samples.size() / pieces];
    for (size_t s = 0; s < k; ++s) bounds[p + 1][s] = rank(s, take_[s], splitter, false);
  });
  return bounds;
}

void Batch::merge_piece(const std::vector<uint64_t>& from, const std::vector<uint64_t>& to, LineRef* refs) const {
  std::vector<size_t> src;  // the windows with lines in this piece, in order
  for (size_t s = 0; s < w_.size(); ++s) {
    if (to[s] > from[s]) src.push_back(s);
  }
  std::vector<uint64_t> at(src.size());
  for (size_t j = 0; j < src.size(); ++j) at[j] = from[src[j]];
  const auto ref = [&](size_t j) {
    const LineWindow& w = *w_[src[j]];
    return LineRef{w.line(at[j]), w.length(at[j])};
  };
  uint64_t out = 0;
  if (src.size() == 1) {
    for (; at[0] < to[src[0]]; ++at[0]) refs[out++] = ref(0);
    return;
  }
  const auto before = [&](size_t a, size_t b) { return less(Pos{src[a], at[a]}, Pos{src[b], at[b]}); };
  LoserTree<decltype(before)> tree(src.size(), before);
  while (!tree.empty()) {
    const size_t j = tree.winner();
    refs[out++] = ref(j);
    ++at[j];
    tree.advance(at[j] < to[src[j]]);
  }
}

void Batch::pick(LineRef* refs) {
  const size_t pieces =
      static_cast<size_t>(std::clamp<uint64_t>(total_ / kPieceLines, 1, pool_.balanced_task_count()));
  const std::vector<std::vector<uint64_t>> bounds = split(pieces);
  std::vector<uint64_t> offset(pieces + 1, 0);
  for (size_t p = 0; p < pieces; ++p) {
    for (size_t s = 0; s < w_.size(); ++s) offset[p + 1] += bounds[p + 1][s] - bounds[p][s];
    offset[p + 1] += offset[p];
  }
  pool_.parallel_for(pieces, [&](size_t p) { merge_piece(bounds[p], bounds[p + 1], refs + offset[p]); });
}

uint64_t Batch::consume() {
  uint64_t bytes = 0;
  for (size_t s = 0; s < w_.size(); ++s) {
    LineWindow& w = *w_[s];
    if (take_[s] == 0) continue;
    bytes += static_cast<uint64_t>(w.line(take_[s] - 1) - w.line(0)) + w.length(take_[s] - 1) + 1;
    w.consume(take_[s]);
    checked_[s] -= std::min(checked_[s], take_[s]);
  }
  return bytes;
}

}  // namespace

MergeCount merge_lines(std::vector<std::unique_ptr<LineWindow>>& windows, const LineComparator& compare,
                       LineWriter& out, ThreadPool& pool) {
  Batch batch(windows, compare, pool);
  MergeCount count;
  std::vector<LineRef> refs;
  while (batch.refill()) {
    uint64_t n = 0;
    if (batch.in_order()) {
      n = batch.take_to_frontier();
      refs.resize(n);
      batch.pick(refs.data());
    } else {
      n = batch.take_in_sequence(refs);
    }
    out.append_lines(pool, refs.data(), n);
    count.lines += n;
    count.bytes += batch.consume();
  }
  for (auto& w : windows) w->finish();
  return count;
}

}  // namespace gsort
