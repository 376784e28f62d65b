// What a sort of lines takes from its locale (line_options.h's
// LineLocale), as GNU sort takes it: the collation of text outside the C
// locale (C, POSIX and C.UTF-8, whose collation is byte order, compare
// bytes); the upper case and classes of single bytes for -f -d -i; -M's
// month names; -n's and -h's decimal point and thousands separator, and
// -g's strtold. The one rule gsort does not read, blanks other than C's
// (no installed locale has them), is refused in one line.
#pragma once

#include <string>

#include "src/keys/collation.h"
#include "src/keys/line_key.h"
#include "src/keys/line_options.h"

namespace gsort {

// The locale's rules for a key ('f' 'd' 'i' 'M' 'g'), where they are not
// all C's (null: C's); kept for the life of the process.
const LocaleRules* line_locale_rules(const LineLocale& locale);

// The LC_CTYPE locale (a locale_t) outside C and POSIX, null in them;
// kept for the life of the process.
void* line_ctype_handle(const LineLocale& locale);

// The locale's collation, which -R hashes text through (null in C and
// POSIX); and whether text keys and the last resort may compare bytes
// instead, as they give its order (C, POSIX, C.UTF-8).
const Collation* line_collation(const LineLocale& locale);
bool collates_in_byte_order(const LineLocale& locale);

// -n's and -h's decimal point and thousands separator in LC_NUMERIC's
// locale, as GNU sort reads them; `separator_ignored`: the locale's
// separator is several bytes, which GNU sort reads as none.
NumberMarks line_number_marks(const std::string& numeric, bool* separator_ignored = nullptr);

// Throws UsageError where a key orders by a rule of the locale's that gsort
// does not read yet ("... is not supported yet ...").
void refuse_unsupported_locale_rules(const LineLocale& locale, const std::vector<LineKey>& keys, int separator);

// --debug's first lines, as sort writes them: "failed to set locale" where
// the environment named a locale that is not installed; how text is ordered.
std::vector<std::string> locale_debug_notes(const LineLocale& locale);
// The quotes GNU's quote() puts around text in the locale: curved ones
// where its characters are UTF-8, else '...'.
struct LocaleQuotes {
  std::string open, close;
  std::string operator()(const std::string& text) const { return open + text + close; }
};
LocaleQuotes locale_quotes(const LineLocale& locale);

}  // namespace gsort
