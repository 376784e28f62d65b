// A tournament (loser) tree over k sources for a k-way merge: the winner is
// the source whose head sorts first; after it advances, one leaf-to-root
// replay of log2(k) comparisons finds the next winner.
//
// `less(i, j)` compares the heads of live sources i and j and must be a
// strict total order (break key ties by source number for a stable merge).
// Exhausted sources sort after every live one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gsort {

template <typename Less>
class LoserTree {
 public:
  LoserTree(size_t sources, Less less) : less_(less), k_(sources) {
    leaves_ = 1;
    while (leaves_ < sources) leaves_ *= 2;
    live_.assign(leaves_, 0);
    for (size_t i = 0; i < sources; ++i) live_[i] = 1;
    tree_.assign(leaves_, 0);
    tree_[0] = play(1);
  }

  bool empty() const { return !live_[tree_[0]]; }
  size_t winner() const { return tree_[0]; }
  size_t sources() const { return k_; }

  // The winner's head changed: it moved to its next record, or the source
  // ended (`still_live` false). Replays the winner's path to the root.
  void advance(bool still_live) {
    size_t w = tree_[0];
    live_[w] = still_live ? 1 : 0;
    for (size_t node = (w + leaves_) / 2; node >= 1; node /= 2) {
      if (beats(tree_[node], w)) {
        const size_t t = tree_[node];
        tree_[node] = w;
        w = t;
      }
    }
    tree_[0] = w;
  }

 private:
  bool beats(size_t i, size_t j) const { return live_[i] && (!live_[j] || less_(i, j)); }

  // Plays the subtree under `node`, storing losers; returns its winner.
  size_t play(size_t node) {
    if (node >= leaves_) return node - leaves_;
    const size_t a = play(2 * node);
    const size_t b = play(2 * node + 1);
    if (beats(b, a)) {
      tree_[node] = a;
      return b;
    }
    tree_[node] = b;
    return a;
  }

  Less less_;
  size_t k_;
  size_t leaves_;
  std::vector<uint8_t> live_;  // bytes, not std::vector<bool>'s bits: read on every comparison
  std::vector<size_t> tree_;  // tree_[0]: winner; tree_[n], n >= 1: loser at node n
};

}  // namespace gsort
