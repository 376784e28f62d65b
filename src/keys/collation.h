// A locale's collation (its LC_COLLATE), as GNU sort compares text in a
// locale other than C and POSIX: with strcoll, over strings that end at a
// NUL, a key or line with NULs in it compared segment by segment; and the
// byte image strxfrm gives a string, whose memcmp order is strcoll's. Host
// only. One object per locale name, kept for the life of the process, so
// that plain data (line_key.h's LineImageSpec) can point at it.
#pragma once

#include <cstdint>
#include <string>

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
  uint64_t head(const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap) const;

  // strxfrm's image of every segment of the text, each followed by a NUL,
  // appended to out: what GNU sort's -R hashes in a locale. A text that
  // ends with a NUL has no empty segment after it.
  void transform_segments(const uint8_t* text, uint64_t len, std::string& out) const;

  ~Collation();
  Collation(const Collation&) = delete;
  Collation& operator=(const Collation&) = delete;

 private:
  Collation(std::string name, void* locale) : name_(std::move(name)), locale_(locale) {}
  // strxfrm of the NUL-ended string s, appended to out (without its NUL).
  void transform(const char* s, std::string& out) const;

  std::string name_;
  void* locale_;  // a locale_t
};

}  // namespace gsort
