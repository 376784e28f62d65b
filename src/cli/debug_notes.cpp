#include "src/cli/debug_notes.h"

#include "src/keys/line_locale_rules.h"
#include "src/keys/line_spec.h"

namespace gsort {
namespace {

// One key as GNU sort holds it after the global options are inherited:
// sword unset (SIZE_MAX) is a key from the start of the line.
struct NotedKey {
  LineKey key;
  bool from_line_start = false;  // GNU's sword == SIZE_MAX
  bool numeric() const { return key.numeric || key.human || key.general; }  // GNU's key_numeric
};

// The notes on key number n (from 1).
void note_key(const NotedKey& k, size_t n, bool separated, std::vector<std::string>& out) {
  const std::string number = std::to_string(n);
  const LineKey& key = k.key;
  const bool zero_width = !k.from_line_start && key.end_field != kToLineEnd && key.end_field < key.start_field;
  if (zero_width) out.push_back("key " + number + " has zero width and will be ignored");
  const bool line_offset = key.end_field == 0 && key.end_char != 0;  // -k1.x,1.y
  const bool implicit_skip = k.numeric() || key.month;
  if (!zero_width && !separated && !line_offset &&
      ((!key.skip_start_blanks && !implicit_skip) || (!key.skip_start_blanks && key.start_char != 0) ||
       (!key.skip_end_blanks && key.end_char != 0))) {
    out.push_back("leading blanks are significant in key " + number + "; consider also specifying 'b'");
  }
}

// Whether a numeric key spans fields (GNU's sword + 1 < eword + 1, or no end).
bool spans_fields(const NotedKey& k) {
  if (k.key.end_field == kToLineEnd) return true;
  const uint64_t start = k.from_line_start ? 1 : k.key.start_field + 1;
  return start < k.key.end_field + 1;
}

// The global options no key took, as letters (GNU's key_to_opts).
std::string ignored_letters(const LineKey& g) {
  std::string s;
  if (g.skip_start_blanks || g.skip_end_blanks) s += 'b';
  if (g.keep == kKeepDictionary) s += 'd';
  if (g.fold) s += 'f';
  if (g.general) s += 'g';
  if (g.human) s += 'h';
  if (g.keep == kKeepPrintable) s += 'i';
  if (g.month) s += 'M';
  if (g.numeric) s += 'n';
  if (g.random) s += 'R';
  if (g.reverse) s += 'r';
  if (g.version) s += 'V';
  return s;
}

// A note written with '...' quotes (an obsolescent key's), quoted as the
// locale quotes.
std::string requoted(const LocaleQuotes& quotes, const std::string& note) {
  if (quotes.open == "'" && quotes.close == "'") return note;
  std::string out;
  bool opening = true;
  for (const char c : note) {
    if (c != '\'') {
      out += c;
      continue;
    }
    out += opening ? quotes.open : quotes.close;
    opening = !opening;
  }
  return out;
}

std::vector<NotedKey> noted_keys(const RawOptions& o, const LineKey& global) {
  std::vector<NotedKey> keys;
  for (const std::string& text : o.keys) {
    const ParsedLineKey parsed = parse_line_key(text);
    NotedKey k{parsed.key, parsed.key.start_field == 0 && parsed.key.start_char == 0};
    if (!orders_by_options(k.key) && !k.key.reverse) k.key = with_global_options(global, k.key);
    keys.push_back(k);
  }
  return keys;
}

}  // namespace

std::vector<std::string> debug_notes(const RawOptions& o, const LineOptions& lines) {
  std::vector<std::string> out = locale_debug_notes(lines.locale);
  const LocaleQuotes quotes = locale_quotes(lines.locale);
  LineKey global = global_line_key(lines);  // GNU's gkey
  global.reverse = o.reverse;
  std::vector<NotedKey> keys = noted_keys(o, global);
  const bool global_only = keys.empty() && orders_by_options(global);
  if (global_only) keys.push_back(NotedKey{global, true});
  const bool separated = o.lines.separator_given;
  const int tab = separated && o.lines.separator.size() == 1 ? static_cast<unsigned char>(o.lines.separator[0]) : -1;
  LineKey unused = global;
  bool numeric = false, basic_numeric = false, numeric_span = false, general_span = false;
  for (size_t i = 0; i < keys.size(); ++i) {
    for (const auto& [index, warning] : o.lines.obsolete_keys) {
      if (index == i) out.push_back(requoted(quotes, warning));
    }
    if (!global_only) note_key(keys[i], i + 1, separated, out);
    numeric |= keys[i].numeric();
    basic_numeric |= reads_number(keys[i].key);
    if (!global_only && keys[i].numeric() && spans_fields(keys[i])) {
      out.push_back("key " + std::to_string(i + 1) + " is numeric and spans multiple fields");
      (keys[i].key.general ? general_span : numeric_span) = true;
    }
    const LineKey& k = keys[i].key;
    unused.skip_start_blanks &= !k.skip_start_blanks;
    unused.skip_end_blanks &= !k.skip_end_blanks;
    unused.fold &= !k.fold;
    unused.numeric &= !k.numeric;
    unused.human &= !k.human;
    unused.general &= !k.general;
    unused.month &= !k.month;
    unused.random &= !k.random;
    unused.version &= !k.version;
    if (unused.keep == k.keep) unused.keep = kKeepAll;
    unused.reverse &= !k.reverse;
  }
  bool separator_ignored = false;
  const NumberMarks marks = line_number_marks(lines.locale.numeric, &separator_ignored);
  const auto quoted = [&](int c) { return quotes(std::string(1, static_cast<char>(c))); };
  const auto blank = [](int c) { return c == ' ' || c == '\t'; };  // isblank: the locale's blanks are C's
  bool number_noted = false;  // GNU's number_locale_warned
  const bool any_span = numeric_span || general_span;
  const int group = marks.thousands_separator;
  if (numeric_span && (tab < 0 ? group != kNoThousandsSeparator && blank(group) : tab == group)) {
    out.push_back("field separator " + quoted(group) + " is treated as a group separator in numbers");
    number_noted = true;
  }
  // GNU tests the decimal point for a blank where fields are blank-separated.
  const int point = marks.decimal_point;
  if (any_span && (tab < 0 ? group != kNoThousandsSeparator && blank(point) : tab == point)) {
    out.push_back("field separator " + quoted(point) + " is treated as a decimal point in numbers");
    number_noted = true;
  } else if (any_span && tab == '-') {
    out.push_back("field separator " + quoted('-') + " is treated as a minus sign in numbers");
  } else if (general_span && tab == '+') {
    out.push_back("field separator " + quoted('+') + " is treated as a plus sign in numbers");
  }
  if (numeric && !number_noted) {
    // coreutils 9.7 and later: without the "note " that 9.1 to 9.6 put first.
    out.push_back("numbers use " + quoted(point) + " as a decimal point in this locale");
  }
  if (basic_numeric && separator_ignored) out.push_back("the multi-byte number group separator in this locale is not supported");
  const bool stable_or_unique = o.stable || o.unique;
  const bool any_keys = !keys.empty();
  if (orders_by_options(unused) || (unused.reverse && stable_or_unique && any_keys)) {
    LineKey shown = unused;
    if (!stable_or_unique) shown.reverse = false;
    const std::string letters = ignored_letters(shown);
    out.push_back((letters.size() == 1 ? "option '-" : "options '-") + letters + (letters.size() == 1 ? "' is ignored" : "' are ignored"));
  }
  if (unused.reverse && !stable_or_unique && any_keys) out.push_back("option '-r' only applies to last-resort comparison");
  return out;
}

}  // namespace gsort
