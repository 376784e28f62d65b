// A collation's first level read from a table, not from strxfrm: each
// character's first-level weights, taken once from strxfrm per character,
// end to end. That is the first level of strxfrm's image of a whole string
// only where no characters combine (a contraction, such as Czech "ch"):
// the table holds the characters it checked pair by pair, the common ones
// (ASCII, Latin-1, Latin Extended-A, and every byte in a locale of
// single-byte characters), and a string with any other stops it. glibc's
// strxfrm of a 48-byte prefix takes 0.6 us (en_US.UTF-8, 2.36); the table
// about 20 ns, and some 20 ms to build. Host only (collation.h).
#pragma once

#include <locale.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/keys/ascii_heads.h"
#include "src/keys/head_table.h"

namespace gsort {

// strxfrm's image of the NUL-ended s in the collation `l`, appended to out.
void append_strxfrm(locale_t l, const char* s, std::string& out);
// An image cut to its first level: up to its first 0x01 byte, which glibc
// writes after each level.
void keep_first_level(std::string& image);

class FirstLevelWeights {
 public:
  // The table of the collation `collate` (a locale_t whose LC_COLLATE is
  // the locale named `name`); null where it checks no character.
  static std::unique_ptr<FirstLevelWeights> build(locale_t collate, const char* name);

  // The first `cap` bytes of the first level of the image of the text's
  // first segment (up to a NUL) into out, and their count in *written; false where the
  // table cannot say them (a character it does not hold comes too soon).
  bool head(const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap, uint64_t* written) const;

  // Whether mapping each byte b to map[b] (a key's -f: its upper case)
  // changes no head the table gives: every byte it changes is a character
  // of the table (ASCII where characters are UTF-8) and so is what it
  // becomes, with the same weights. Then a folded key's head is its own.
  bool keeps_heads_under(const uint8_t map[256]) const;
  // Characters the table holds.
  uint64_t held() const;
  // The table as plain data (head_table.h), pointing into this object.
  HeadTable view() const;

 private:
  bool utf8_ = false;
  std::vector<CharacterWeights> by_character_;  // by code point (UTF-8) or by byte
  // Bytes below 0x80, a character each in every locale the table serves:
  // by_character_'s first 128, apart, so that head() reads them without
  // asking how the text is encoded; NUL's marks a segment's end.
  CharacterWeights ascii_[128];
  // ascii_'s heads 64 bytes at a time (after build, where the CPU can).
  std::unique_ptr<AsciiHeads> fast_;
};

}  // namespace gsort
