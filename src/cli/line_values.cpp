#include "src/cli/line_values.h"

#include <utility>

#include "src/core/errors.h"
#include "src/lines/keys/line_key_spec.h"

namespace gsort {

namespace {

// --sort=WORD names the same orderings as the letters: these are those
// gsort lacks (numeric and human-numeric are -n and -h, options.cpp).
const std::pair<const char*, char> kRefusedSortWords[] = {
    {"general-numeric", 'g'}, {"month", 'M'}, {"random", 'R'}, {"version", 'V'}};

void refuse_sort_word(const std::string& word) {
  if (word.empty()) return;
  for (const auto& [name, letter] : kRefusedSortWords) {
    if (word == name) throw UsageError("--sort=" + word + " (-" + letter + ") is not supported; use -n");
  }
  throw UsageError("--sort=" + word + ": unknown sort (gsort sorts bytewise, or numerically with -n or -h)");
}

// The global ordering options as GNU sort's letters (--sort=WORD as its letter).
std::string global_orderings(const RawLineOptions& o) {
  std::string letters;
  const std::pair<bool, char> given[] = {{o.dictionary, 'd'},    {o.fold, 'f'},        {o.general_numeric, 'g'},
                                         {o.human_numeric, 'h'}, {o.nonprinting, 'i'}, {o.month, 'M'},
                                         {o.numeric, 'n'},       {o.random, 'R'},      {o.version_sort, 'V'}};
  for (const auto& [on, letter] : given) {
    if (on) letters += letter;
  }
  for (const auto& [name, letter] : kRefusedSortWords) {
    if (o.sort_word == name) letters += letter;
  }
  return letters;
}

}  // namespace

void refuse_incompatible_gnu_orderings(const RawLineOptions& o, const std::vector<std::string>& keys) {
  bool taken = keys.empty();  // the global options make the whole line a key
  for (const std::string& k : keys) taken |= !looks_like_record_key(k) && !parse_line_key(k).has_options;
  if (taken) refuse_incompatible_orderings(global_orderings(o));
}

void refuse_unsupported_gnu_options(const RawLineOptions& o) {
  if (o.general_numeric) throw UsageError("-g (general numeric) is not supported; use -n (no exponents)");
  if (o.month) throw UsageError("-M (month names) is not supported; use a numeric month with -n");
  if (o.version_sort) throw UsageError("-V (version sort) is not supported; use -n on each part (-t. -k1,1n -k2,2n ...)");
  if (o.random) throw UsageError("-R (random order) is not supported; use shuf");
  if (o.dictionary) throw UsageError("-d (dictionary order) is not supported; lines compare as bytes without it");
  if (o.nonprinting) throw UsageError("-i (ignore non-printing) is not supported; lines compare as bytes without it");
  if (!o.random_source.empty()) throw UsageError("--random-source is not supported (nor -R)");
  refuse_sort_word(o.sort_word);
}

namespace {

int parse_separator(const RawLineOptions& o) {
  if (!o.separator_given) return kBlankSeparated;
  const std::string& t = o.separator;
  if (t.empty()) throw UsageError("empty tab");
  if (t.size() == 1) return static_cast<unsigned char>(t[0]);
  if (t == "\\0") return 0;
  throw UsageError("multi-character tab '" + t + "'");
}

}  // namespace

void set_line_options(const RawLineOptions& o, const std::vector<std::string>& keys, bool stable, SortConfig& c) {
  LineOptions& l = c.lines;
  l.enabled = true;
  for (const std::string& k : keys) {
    if (looks_like_record_key(k)) {
      throw UsageError("-k '" + k + "' is gsort's record key (OFFSET:TYPE), which needs --record-size or --format; "
                       "lines take GNU sort's -k POS1[,POS2], e.g. -k 2,2n");
    }
  }
  l.keys = keys;
  l.separator = parse_separator(o);
  l.numeric = o.numeric;
  l.human_numeric = o.human_numeric;
  l.fold = o.fold;
  l.ignore_blanks = o.ignore_blanks;
  l.stable = stable;
  l.zero_terminated = o.zero_terminated;
  make_line_spec(l, c.reverse, c.unique);  // a malformed key fails now
}

void refuse_line_options_for_records(const RawLineOptions& o) {
  const char* what = o.separator_given ? "-t" : o.numeric ? "-n" : o.human_numeric ? "-h" : o.fold ? "-f"
                   : o.ignore_blanks ? "-b" : o.zero_terminated ? "-z" : nullptr;
  if (what) {
    throw UsageError(std::string(what) + " is for text lines, not records (--record-size, --format): records take "
                     "typed keys, -k OFFSET:TYPE");
  }
}

std::string gnu_key_in_record_mode(const std::string& spec) {
  return "-k '" + spec + "' is GNU sort's field key, for text lines (without --record-size or --format); records "
         "take -k OFFSET:LENGTH or OFFSET:TYPE[:desc], byte offsets";
}

}  // namespace gsort
