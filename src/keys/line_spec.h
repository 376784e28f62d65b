// GNU sort's key model for text lines: -k POS1[,POS2] parsed, and the
// global options (-b -d -f -g -h -i -M -n -R -r -V, -t, -s, -u, -z)
// resolved into the list of keys and the comparison's settings, as GNU
// sort resolves them:
//  - POS is F[.C][OPTS]: field F (from 1), character C (from 1; in POS2,
//    0 or absent means the end of the field); OPTS of b d f g h i M n R r
//    V. 'b' after POS1 skips the blanks before the start, after POS2
//    before the end.
//  - Orderings that exclude each other (n, g, h, M, and one of d i R V)
//    are refused in GNU's words, "options '-hn' are incompatible", on each
//    key as it orders.
//  - A key with no OPTS at all takes the global options; a key with any
//    OPT takes none of them.
//  - With no -k but a global ordering option (any but -r), the whole line
//    is one key with those options.
//  - Unless -s or -u, lines whose keys tie are compared as whole lines,
//    bytewise (reversed by the global -r).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/keys/line_key.h"
#include "src/keys/line_options.h"

namespace gsort {

// One parsed -k: the key, and whether it had any OPTS (then it takes no
// global option).
struct ParsedLineKey {
  LineKey key;
  bool has_options = false;
  std::string orderings;  // its OPTS but b and r, as given
};

// Parses one -k argument. Throws UsageError with GNU sort's words:
// "field number is zero: invalid field specification '0'".
ParsedLineKey parse_line_key(const std::string& spec);

// Throws UsageError in GNU sort's words when the ordering options in
// `letters` (of d f g h i M n R V) exclude each other.
void refuse_incompatible_orderings(const std::string& letters);
// The letters of the global ordering options that are on, as GNU sort
// names them (for refuse_incompatible_orderings).
std::string global_orderings(const LineOptions& options);

// The global ordering options as a key (GNU sort's gkey), -r aside.
LineKey global_line_key(const LineOptions& options);
// Whether a key orders by any of its options but 'r' (GNU sort's
// !default_key_compare): with no -k, such global options make the whole
// line a key.
bool orders_by_options(const LineKey& key);
// `global`'s options over `key`'s fields and characters: how a key without
// options of its own inherits the global ones.
LineKey with_global_options(const LineKey& global, const LineKey& key);

// Whether a -k argument is gsort's record key (OFFSET:TYPE), which has a
// ':' where GNU's POS never has one.
bool looks_like_record_key(const std::string& spec);

struct LineSpec {
  std::vector<LineKey> keys;       // empty: whole lines, bytewise
  int separator = kBlankSeparated; // -t
  bool reverse = false;            // global -r: reverses the last-resort comparison
  bool stable = false;             // -s
  bool unique = false;             // -u: lines with equal keys are duplicates
  uint8_t eol = '\n';              // '\0' with -z
  uint8_t seed[kRandomSeedBytes] = {};  // -R: hashed before each key
  // The locale's collation (locale_rules.h), null in C: -R hashes text
  // through it; text keys and the last resort compare by it where
  // collate_text (else bytewise).
  const Collation* collation = nullptr;
  bool collate_text = false;
  void* ctype = nullptr;  // --debug's columns: the LC_CTYPE locale_t outside C (locale_rules.h)
  // The last-resort comparison of whole lines applies when the keys tie.
  bool last_resort() const { return keys.empty() || !(stable || unique); }
  // The image's key (line_image.h): the first key, else the whole line.
  LineImageSpec image() const;
  // The images in the order the comparison goes: each key's, then, with
  // the last-resort comparison, the whole line's (reversed by -r).
  std::vector<LineImageSpec> images() const;
};

// The spec of a line sort from its options and the global -r and -u, in
// their locale. Throws UsageError on a malformed key, or an ordering whose
// rules the locale changes and gsort does not read yet.
LineSpec make_line_spec(const LineOptions& options, bool reverse, bool unique);

// Whether a key orders by -R (then the seed is read: --random-source, or random bytes).
bool uses_random(const LineSpec& spec);

}  // namespace gsort
