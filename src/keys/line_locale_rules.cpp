#include "src/keys/line_locale_rules.h"

#include <langinfo.h>
#include <locale.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "src/core/errors.h"
#include "src/keys/line_fields.h"

namespace gsort {
namespace {

// A category's locale, freed on the way out (the registries below keep
// theirs as long as the process, and leave nothing for a leak checker to
// find at its end).
class CategoryLocale {
 public:
  CategoryLocale(int mask, const std::string& name) : l_(newlocale(mask, name.c_str(), static_cast<locale_t>(0))) {}
  ~CategoryLocale() {
    if (l_ != static_cast<locale_t>(0)) freelocale(l_);
  }
  CategoryLocale(const CategoryLocale&) = delete;
  CategoryLocale& operator=(const CategoryLocale&) = delete;
  locale_t get() const { return l_; }

 private:
  locale_t l_;
};

// Whether the locale's blanks are the C locale's (GNU sort's inittables:
// '\n' and what isblank says).
bool blanks_as_in_c(const LineLocale& locale) {
  const locale_t l = static_cast<locale_t>(line_ctype_handle(locale));
  if (l == static_cast<locale_t>(0)) return true;  // C, or not installed: C
  for (int c = 0; c < 256; ++c) {
    if ((c == '\n' || isblank_l(c, l) != 0) != is_line_blank(static_cast<uint8_t>(c))) return false;
  }
  return true;
}

// LocaleRules, and the -g locale it holds.
struct RulesDeleter {
  void operator()(LocaleRules* rules) const {
    if (rules->numeric != nullptr) freelocale(static_cast<locale_t>(rules->numeric));
    delete rules;
  }
};
using OwnedRules = std::unique_ptr<LocaleRules, RulesDeleter>;

// The locale's rules for a key, built once per locale (null: all C's).
OwnedRules read_locale_rules(const LineLocale& locale) {
  const bool c_ctype = is_c_locale_name(locale.ctype), c_time = is_c_locale_name(locale.time);
  const NumberMarks marks = line_number_marks(locale.numeric);
  if (c_ctype && c_time && marks.decimal_point == '.') return nullptr;
  OwnedRules rules(new LocaleRules);
  bool as_c = true;
  // Bytes: the ctype locale's (C's where it is C or not installed).
  const CategoryLocale ctype(LC_CTYPE_MASK, c_ctype ? std::string("C") : locale.ctype);
  const locale_t l = ctype.get();
  LineKey c_key;
  for (uint8_t keep : {kKeepAll, kKeepDictionary, kKeepPrintable}) {
    c_key.keep = keep;
    for (int c = 0; c < 256; ++c) {
      const uint8_t b = static_cast<uint8_t>(c);
      bool kept = keeps_byte(c_key, b);
      if (l != static_cast<locale_t>(0)) {
        const bool blank = c == '\n' || isblank_l(c, l) != 0;
        if (keep == kKeepDictionary) kept = blank || isalnum_l(c, l) != 0;
        if (keep == kKeepPrintable) kept = isprint_l(c, l) != 0;
      }
      rules->keeps[keep][c] = kept;
      as_c &= kept == keeps_byte(c_key, b);
    }
  }
  for (int c = 0; c < 256; ++c) {
    const uint8_t b = static_cast<uint8_t>(c);
    rules->upper[c] = l != static_cast<locale_t>(0) ? static_cast<uint8_t>(toupper_l(c, l)) : fold_upper(b);
    as_c &= rules->upper[c] == fold_upper(b);
  }
  // Months: GNU sort reads the locale's names outside C and POSIX, blanks
  // out, in the ctype locale's upper case, sorted by their bytes.
  if (!c_time) {
    const CategoryLocale time(LC_TIME_MASK, locale.time);
    std::vector<std::pair<std::string, int>> names;
    for (int m = 0; time.get() != static_cast<locale_t>(0) && m < 12; ++m) {
      std::string name;
      for (const char* p = nl_langinfo_l(ABMON_1 + m, time.get()); *p != '\0'; ++p) {
        const uint8_t b = static_cast<uint8_t>(*p);
        const bool blank = l != static_cast<locale_t>(0) ? isblank_l(b, l) != 0 : (b == ' ' || b == '\t');
        if (!blank) name += static_cast<char>(rules->upper[b]);
      }
      names.emplace_back(name.substr(0, kMonthNameBytes), m + 1);
    }
    static const char* const kC[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
    bool c_names = names.size() == 12;
    for (size_t m = 0; c_names && m < 12; ++m) c_names = names[m].first == kC[m];
    if (!c_names && names.size() == 12) {
      std::sort(names.begin(), names.end());
      rules->month_count = 12;
      for (int m = 0; m < 12; ++m) {
        std::memcpy(rules->month_name[m], names[m].first.data(), names[m].first.size());
        rules->month_length[m] = static_cast<uint8_t>(names[m].first.size());
        rules->month_number[m] = static_cast<uint8_t>(names[m].second);
      }
      as_c = false;
    }
  }
  // -g: strtold in LC_NUMERIC's locale, where its decimal point is not C's.
  if (marks.decimal_point != '.') {
    rules->numeric = newlocale(LC_NUMERIC_MASK, locale.numeric.c_str(), static_cast<locale_t>(0));
    as_c &= rules->numeric == nullptr;
  }
  if (as_c) rules.reset();
  return rules;
}

}  // namespace

NumberMarks line_number_marks(const std::string& numeric, bool* separator_ignored) {
  NumberMarks marks;
  if (separator_ignored != nullptr) *separator_ignored = false;
  if (is_c_locale_name(numeric)) return marks;
  const CategoryLocale l(LC_NUMERIC_MASK, numeric);
  if (l.get() == static_cast<locale_t>(0)) return marks;
  const char* point = nl_langinfo_l(RADIXCHAR, l.get());
  const char* thousands = nl_langinfo_l(THOUSEP, l.get());
  if (point[0] != '\0' && point[1] == '\0') marks.decimal_point = static_cast<uint8_t>(point[0]);
  if (thousands[0] != '\0' && thousands[1] == '\0') marks.thousands_separator = static_cast<uint8_t>(thousands[0]);
  if (separator_ignored != nullptr) *separator_ignored = thousands[0] != '\0' && thousands[1] != '\0';
  return marks;
}

namespace {

[[noreturn]] void refuse(const std::string& what, const std::string& locale, const std::string& rule,
                         const char* category) {
  throw UsageError(what + " in the locale '" + locale + "' is not supported yet (" + rule + "); set " + category +
                   "=C, or LC_ALL=C, for C's rules");
}

}  // namespace

const LocaleRules* line_locale_rules(const LineLocale& locale) {
  static std::mutex mutex;
  static std::map<std::string, OwnedRules> known;
  const std::string name = locale.ctype + '\n' + locale.time + '\n' + locale.numeric;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known.find(name);
  if (it == known.end()) it = known.emplace(name, read_locale_rules(locale)).first;
  return it->second.get();
}

void* line_ctype_handle(const LineLocale& locale) {
  if (is_c_locale_name(locale.ctype)) return nullptr;
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<CategoryLocale>> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known.find(locale.ctype);
  if (it == known.end()) it = known.emplace(locale.ctype, std::make_unique<CategoryLocale>(LC_CTYPE_MASK, locale.ctype)).first;
  return it->second->get();
}

const Collation* line_collation(const LineLocale& locale) {
  return is_c_locale_name(locale.collate) ? nullptr : Collation::named(locale.collate);
}

bool collates_in_byte_order(const LineLocale& locale) {
  // glibc's C.UTF-8 collates by code point, which is byte order in UTF-8
  // and strcmp's over any bytes (tests/lines/locale_test.cpp checks).
  const std::string& name = locale.collate;
  return is_c_locale_name(name) || name == "C.UTF-8" || name == "C.utf8";
}

void refuse_unsupported_locale_rules(const LineLocale& locale, const std::vector<LineKey>& keys, int separator) {
  bool blanks = separator == kBlankSeparated && !keys.empty();
  for (const LineKey& k : keys) blanks |= k.skip_start_blanks || k.skip_end_blanks || reads_number(k) || k.month;
  if (blanks && !blanks_as_in_c(locale)) refuse("A key", locale.ctype, "its blanks", "LC_CTYPE");
}

LocaleQuotes locale_quotes(const LineLocale& locale) {
  const locale_t l = static_cast<locale_t>(line_ctype_handle(locale));
  const bool utf8 = l != static_cast<locale_t>(0) && std::strcmp(nl_langinfo_l(CODESET, l), "UTF-8") == 0;
  return utf8 ? LocaleQuotes{"\xE2\x80\x98", "\xE2\x80\x99"} : LocaleQuotes{"'", "'"};
}

std::vector<std::string> locale_debug_notes(const LineLocale& locale) {
  std::vector<std::string> out;
  if (locale.failed) out.push_back("failed to set locale");
  if (is_c_locale_name(locale.collate)) {
    out.push_back("text ordering performed using simple byte comparison");
  } else {
    out.push_back("text ordering performed using " + locale_quotes(locale)(locale.collate) + " sorting rules");
  }
  return out;
}

}  // namespace gsort
