// A locale's collation (its LC_COLLATE), as GNU sort compares text in a
// locale other than C and POSIX: with strcoll, over strings that end at a
// NUL, a key or line with NULs in it compared segment by segment; and the
// byte image strxfrm gives a string, whose memcmp order is strcoll's. Host
// only. One object per locale name, kept for the life of the process, so
// that plain data (line_key.h's LineImageSpec) can point at it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "src/keys/first_level_weights.h"

namespace gsort {

class Collation {
 public:
  // The collation of an installed locale; null where `name` is not one.
  static const Collation* named(const std::string& name);

  const std::string& name() const { return name_; }

  // GNU sort's comparison of two texts in the locale (keycompare's and
  // compare's, xmemcoll0 underneath): an empty text first; otherwise
  // strcoll over each NUL-ended segment in turn, the text that runs out of
  // segments first sorting first. <0, 0, >0; 0 where the locale finds the
  // texts equal, which it may for different bytes.
  int compare(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) const;

  // The first `cap` bytes (at most) of the first level of strxfrm's image
  // of the text's first segment (up to its first NUL) into out; returns
  // how many. Two texts whose heads differ, zero-padded to `cap`, compare()
  // in the heads' order; equal heads say nothing. The first level only:
  // glibc's strxfrm and strcoll disagree past it on some strings (control
  // bytes, which the first levels ignore: 303 of 3 million random pairs in
  // en_US.UTF-8, glibc 2.36), never on it (tests/lines/locale_test.cpp).
  // From the 20,000th head on, the head comes from a table of each
  // character's weights where it can (first_level_weights.h), the same
  // bytes; the thread that asks for the 20,000th builds it.
  uint64_t head(const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap) const;
  // The head of the text mapped byte by byte through `fold` (a key's -f),
  // read from the text as it is where the table shows that the mapping
  // changes no weight (first_level_weights.h); false where it cannot say
  // (the caller then maps the text and asks head()).
  bool head_folded(const uint8_t* text, uint64_t len, const uint8_t fold[256], uint8_t* out, uint64_t cap,
                   uint64_t* written) const;
  // The head from strxfrm alone (what the table must agree with).
  uint64_t head_by_strxfrm(const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap) const;
  // The table now, whatever the count (tests).
  void build_table_now() const;
  // The table, built now where it was not yet (some 20 ms, once); null
  // where the collation has no character it could hold. What the device
  // makes heads with.
  const FirstLevelWeights* table() const {
    build_table_now();
    return table_.load(std::memory_order_acquire);
  }
  // For -v: how heads were made so far, "heads by a table of N characters
  // (built in S s), M by strxfrm" (the table's characters, and heads that
  // had to ask strxfrm: before the table, or with a character it lacks).
  std::string heads_made() const;

  // strxfrm's image of every segment of the text, each followed by a NUL,
  // appended to out: what GNU sort's -R hashes in a locale. A text that
  // ends with a NUL has no empty segment after it.
  void transform_segments(const uint8_t* text, uint64_t len, std::string& out) const;

  ~Collation();
  Collation(const Collation&) = delete;
  Collation& operator=(const Collation&) = delete;

 private:
  Collation(std::string name, void* locale) : name_(std::move(name)), locale_(locale) {}

  std::string name_;
  void* locale_;  // a locale_t
  // The table, built once many heads have been asked for: building it
  // takes some 20 ms, which a small sort would feel.
  mutable std::atomic<uint64_t> heads_{0};
  mutable std::atomic<bool> building_{false}, built_{false};
  mutable std::atomic<const FirstLevelWeights*> table_{nullptr};
  mutable std::atomic<uint64_t> by_strxfrm_{0};  // heads strxfrm made (each costs far more than the count)
  mutable double table_built_s_ = 0;
  mutable std::unique_ptr<FirstLevelWeights> table_owner_;
  // Fold maps checked against the table, each with its answer (1 kept, 0 not, -1 being checked).
  struct FoldAnswer {
    std::atomic<const uint8_t*> map{nullptr};
    std::atomic<int> kept{-1};
  };
  mutable FoldAnswer folds_[4];
};

// A collation's table of heads built on a thread of its own from now
// (where it is not built yet), joined when this goes: for a large input,
// ready before the first pass asks, rather than built by the thread that
// makes the 20,000th head while the others make theirs by strxfrm (108k
// heads by strxfrm of 2 GB of log lines on the H100 host, 2026-12-06).
class CollationTableAhead {
 public:
  explicit CollationTableAhead(const Collation* collation);
  ~CollationTableAhead();
  CollationTableAhead(const CollationTableAhead&) = delete;
  CollationTableAhead& operator=(const CollationTableAhead&) = delete;

 private:
  std::thread building_;
};

}  // namespace gsort
