#include "src/cli/line_values.h"

#include "src/cli/random_source.h"
#include "src/config/line_locale.h"
#include "src/core/errors.h"
#include "src/keys/line_spec.h"

namespace gsort {

void refuse_incompatible_gnu_orderings(const RawLineOptions& o, const std::vector<std::string>& keys) {
  bool taken = keys.empty();  // the global options make the whole line a key
  for (const std::string& k : keys) taken |= !looks_like_record_key(k) && !parse_line_key(k).has_options;
  if (!taken) return;
  LineOptions global;
  set_orderings(o, global);
  global.fold = o.fold;
  global.numeric = o.numeric;
  global.human_numeric = o.human_numeric;
  refuse_incompatible_orderings(global_orderings(global));
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

// The orderings beyond -n -h -f: -d -g -i -M -R -V.
void set_orderings(const RawLineOptions& o, LineOptions& l) {
  l.general_numeric = o.general_numeric;
  l.month = o.month;
  l.random = o.random;
  l.version = o.version_sort;
  l.dictionary = o.dictionary;
  l.printable = o.nonprinting;
}

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
  set_orderings(o, l);
  l.ignore_blanks = o.ignore_blanks;
  l.stable = stable;
  l.zero_terminated = o.zero_terminated;
  // A malformed key fails now; -R's seed is read once, for every chunk and merge.
  if (uses_random(make_line_spec(l, c.reverse, c.unique))) l.random_seed = random_seed(o.random_source);
  // After the check above, which is the C locale's: the library may name
  // another locale (Options::locale), and the sort checks the one it takes.
  l.locale = line_locale_from_environment();
}

void refuse_line_options_for_records(const RawLineOptions& o) {
  const char* what = o.separator_given ? "-t" : o.numeric ? "-n" : o.human_numeric ? "-h" : o.fold ? "-f"
                   : o.ignore_blanks ? "-b" : o.zero_terminated ? "-z" : o.general_numeric ? "-g" : o.month ? "-M"
                   : o.random ? "-R" : o.version_sort ? "-V" : o.dictionary ? "-d" : o.nonprinting ? "-i"
                   : !o.random_source.empty() ? "--random-source" : nullptr;
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
