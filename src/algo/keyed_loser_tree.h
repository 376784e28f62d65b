// A loser tree (loser_tree.h) whose nodes carry each head's 64-bit key
// prefix beside its source: a replay compares the prefixes it holds and
// reaches into the records only where two prefixes tie, so the hot loop of
// a k-way merge of records touches one small array. For the parallel
// merge's ranges (src/merge/range_worker.h), where every output record costs
// one replay.
//
// `tie(i, j)`: sources i and j's heads have equal prefixes; true when i's
// sorts first (the rest of the key, then the source number for a stable
// merge).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gsort {

template <typename Tie>
class KeyedLoserTree {
 public:
  // prefixes[i]: source i's first head; live[i]: whether it has one.
  KeyedLoserTree(const std::vector<uint64_t>& prefixes, const std::vector<bool>& live, Tie tie) : tie_(tie) {
    leaves_ = 1;
    while (leaves_ < prefixes.size()) leaves_ *= 2;
    std::vector<Entry> leaf(leaves_, Entry{0, kDone});
    for (size_t i = 0; i < prefixes.size(); ++i) {
      if (live[i]) leaf[i] = Entry{prefixes[i], static_cast<uint32_t>(i)};
    }
    nodes_.assign(leaves_, Entry{0, kDone});
    winner_ = leaves_ > 1 ? play(1, leaf) : leaf[0];
  }

  bool empty() const { return winner_.source == kDone; }
  size_t winner() const { return winner_.source; }

  // The winner's head moved on: its next prefix, or the source ended.
  void advance(bool still_live, uint64_t prefix) {
    const uint32_t w = winner_.source;
    Entry e = still_live ? Entry{prefix, w} : Entry{0, kDone};
    for (size_t node = (w + leaves_) / 2; node >= 1; node /= 2) {
      if (beats(nodes_[node], e)) std::swap(nodes_[node], e);
    }
    winner_ = e;
  }

 private:
  static constexpr uint32_t kDone = UINT32_MAX;
  struct Entry {
    uint64_t prefix;
    uint32_t source;  // kDone: an ended source, after every live one
  };

  bool beats(const Entry& a, const Entry& b) const {
    if (a.source == kDone) return false;
    if (b.source == kDone) return true;
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return tie_(a.source, b.source);
  }

  // Plays the subtree under `node`, storing losers; returns its winner.
  Entry play(size_t node, const std::vector<Entry>& leaf) {
    if (node >= leaves_) return leaf[node - leaves_];
    Entry a = play(2 * node, leaf), b = play(2 * node + 1, leaf);
    if (beats(b, a)) std::swap(a, b);
    nodes_[node] = b;
    return a;
  }

  Tie tie_;
  size_t leaves_;
  std::vector<Entry> nodes_;  // nodes_[n], n >= 1: the loser at node n
  Entry winner_;
};

}  // namespace gsort
