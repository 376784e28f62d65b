// The distinct images of one key level over a chunk, while they are few:
// a key of a few names, say, whose images differ in dozens of bits but
// take a dozen values. Their rank among themselves orders the lines as the
// images do, in a few bits (composite_pass.h's dictionary columns).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "src/keys/image_slot.h"

namespace gsort {

bool operator==(const Slot& a, const Slot& b);
bool operator<(const Slot& a, const Slot& b);  // the images' order

class FewSlots {
 public:
  // At most `most` distinct slots (below 2^31).
  explicit FewSlots(uint32_t most) : most_(most) {}

  // Adds s; false once more than `most` distinct slots were added (the
  // set then holds nothing, and stays so).
  bool add(const Slot& s);
  // Every slot of another set (false as add()).
  bool add_all(const FewSlots& other);
  bool over() const { return over_; }
  // Holds nothing from now on, as when over (a level not to be ranked).
  void drop();
  uint64_t size() const { return slots_.size(); }

  // Sorts the slots, so that find() gives each its rank.
  void rank();
  // After rank(): the slots in their order, and each one's rank in an
  // order other than their bytes' (a collation's, where different keys
  // may be equal and share a rank), which find() gives from then on.
  const std::vector<Slot>& slots() const { return slots_; }
  void set_ranks(std::vector<uint32_t> ranks) { ranks_ = std::move(ranks); }
  // The ranks set_ranks() gave, by place; empty where a slot's place is its rank.
  const std::vector<uint32_t>& ranks_by_place() const { return ranks_; }
  // The slot's rank, or kMissing.
  static constexpr uint32_t kMissing = ~uint32_t{0};
  uint32_t find(const Slot& s) const;

 private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};
  void place(uint32_t index);
  void grow();

  uint32_t most_;
  bool over_ = false;
  std::vector<Slot> slots_;
  std::vector<uint32_t> table_;  // open addressing: indices into slots_, a power of two in size
  std::vector<uint32_t> ranks_;  // by place, where set_ranks() gave them
};

}  // namespace gsort
