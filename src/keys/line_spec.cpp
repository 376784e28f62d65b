#include "src/keys/line_spec.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <utility>

#include "src/core/errors.h"
#include "src/keys/line_locale_rules.h"

namespace gsort {
namespace {

[[noreturn]] void bad_field_spec(const std::string& spec, const std::string& why) {
  throw UsageError(why + ": invalid field specification '" + spec + "'");
}

// A field or character count at `s` (GNU's parse_field_count): leading
// blanks and a '+' allowed, a '-' not; overflow saturates. Returns the
// position after its digits.
size_t parse_count(const std::string& spec, size_t s, uint64_t* value, const char* what) {
  size_t at = s;
  while (at < spec.size() && std::isspace(static_cast<unsigned char>(spec[at]))) ++at;
  if (at < spec.size() && spec[at] == '+') ++at;
  if (at >= spec.size() || !std::isdigit(static_cast<unsigned char>(spec[at]))) {
    throw UsageError(std::string(what) + ": invalid count at start of '" + spec.substr(s) + "'");
  }
  uint64_t v = 0;
  for (; at < spec.size() && std::isdigit(static_cast<unsigned char>(spec[at])); ++at) {
    const uint64_t d = static_cast<uint64_t>(spec[at] - '0');
    v = v > (std::numeric_limits<uint64_t>::max() - d) / 10 ? std::numeric_limits<uint64_t>::max() : v * 10 + d;
  }
  *value = v;
  return at;
}

// The OPTS after a POS: b d f g h i M n R r V.
size_t parse_options(const std::string& spec, size_t at, bool end, ParsedLineKey* k) {
  for (; at < spec.size(); ++at) {
    const char c = spec[at];
    switch (c) {
      case 'b': (end ? k->key.skip_end_blanks : k->key.skip_start_blanks) = true; break;
      case 'd': k->key.keep = kKeepDictionary; break;  // 'd' wins over 'i', whatever their order
      case 'f': k->key.fold = true; break;
      case 'g': k->key.general = true; break;
      case 'h': k->key.human = true; break;
      case 'i': if (k->key.keep == kKeepAll) k->key.keep = kKeepPrintable; break;
      case 'M': k->key.month = true; break;
      case 'n': k->key.numeric = true; break;
      case 'R': k->key.random = true; break;
      case 'r': k->key.reverse = true; break;
      case 'V': k->key.version = true; break;
      default: return at;
    }
    if (c != 'b' && c != 'r') k->orderings += c;
    k->has_options = true;
  }
  return at;
}

}  // namespace

ParsedLineKey parse_line_key(const std::string& spec) {
  ParsedLineKey k;
  uint64_t n = 0;
  size_t at = parse_count(spec, 0, &n, "invalid number at field start");
  if (n == 0) bad_field_spec(spec, "field number is zero");
  k.key.start_field = n - 1;
  if (at < spec.size() && spec[at] == '.') {
    at = parse_count(spec, at + 1, &n, "invalid number after '.'");
    if (n == 0) bad_field_spec(spec, "character offset is zero");
    k.key.start_char = n - 1;
  }
  at = parse_options(spec, at, false, &k);
  if (at < spec.size() && spec[at] == ',') {
    at = parse_count(spec, at + 1, &n, "invalid number after ','");
    if (n == 0) bad_field_spec(spec, "field number is zero");
    k.key.end_field = n - 1;
    if (at < spec.size() && spec[at] == '.') at = parse_count(spec, at + 1, &k.key.end_char, "invalid number after '.'");
    at = parse_options(spec, at, true, &k);
  }
  if (at != spec.size()) bad_field_spec(spec, "stray character in field spec");
  refuse_incompatible_orderings(k.orderings);
  return k;
}

void refuse_incompatible_orderings(const std::string& letters) {
  const auto has = [&](char c) { return letters.find(c) != std::string::npos; };
  const int ways = has('n') + has('g') + has('h') + has('M') + (has('d') || has('i') || has('R') || has('V'));
  if (ways < 2) return;
  std::string opts;  // in GNU's order; its 'd' hides 'i'
  for (char c : std::string("dfghiMnRV")) {
    if (has(c) && !(c == 'i' && has('d'))) opts += c;
  }
  throw UsageError("options '-" + opts + "' are incompatible");
}

bool looks_like_record_key(const std::string& spec) { return spec.find(':') != std::string::npos; }

LineImageSpec LineSpec::image() const { return images().front(); }

std::vector<LineImageSpec> LineSpec::images() const {
  std::vector<LineImageSpec> all;
  for (const LineKey& key : keys) {
    all.push_back(LineImageSpec{key, separator, {}, collation});
    std::copy(std::begin(seed), std::end(seed), all.back().seed);
  }
  if (last_resort()) {
    LineImageSpec whole;  // the whole line, bytewise or collated
    whole.key.reverse = reverse;
    whole.key.collate = collate_text;
    whole.collation = collation;
    all.push_back(whole);
  }
  return all;
}

LineKey global_line_key(const LineOptions& options) {
  LineKey global;
  global.skip_start_blanks = global.skip_end_blanks = options.ignore_blanks;
  global.fold = options.fold;
  global.numeric = options.numeric;
  global.human = options.human_numeric;
  global.general = options.general_numeric;
  global.month = options.month;
  global.random = options.random;
  global.version = options.version;
  global.keep = options.dictionary ? kKeepDictionary : options.printable ? kKeepPrintable : kKeepAll;
  return global;
}

bool orders_by_options(const LineKey& k) {
  return k.skip_start_blanks || k.skip_end_blanks || k.fold || reads_number(k) || k.general || k.month || k.random ||
         k.version || k.keep != kKeepAll;
}

LineKey with_global_options(const LineKey& global, const LineKey& key) {
  LineKey inherited = global;
  inherited.start_field = key.start_field, inherited.start_char = key.start_char;
  inherited.end_field = key.end_field, inherited.end_char = key.end_char;
  return inherited;
}

std::string global_orderings(const LineOptions& o) {
  std::string letters;
  const std::pair<bool, char> given[] = {{o.dictionary, 'd'}, {o.fold, 'f'},      {o.general_numeric, 'g'},
                                         {o.human_numeric, 'h'}, {o.printable, 'i'}, {o.month, 'M'},
                                         {o.numeric, 'n'},    {o.random, 'R'},    {o.version, 'V'}};
  for (const auto& [on, letter] : given) {
    if (on) letters += letter;
  }
  return letters;
}

LineSpec make_line_spec(const LineOptions& options, bool reverse, bool unique) {
  LineSpec spec;
  spec.separator = options.separator;
  spec.reverse = reverse;
  spec.stable = options.stable;
  spec.unique = unique;
  spec.eol = options.zero_terminated ? '\0' : '\n';
  std::copy(options.random_seed.begin(), options.random_seed.end(), spec.seed);
  LineKey global = global_line_key(options);
  global.reverse = reverse;
  bool inherited = false;  // a key took the global options
  for (const std::string& text : options.keys) {
    const ParsedLineKey parsed = parse_line_key(text);
    inherited |= !parsed.has_options;
    spec.keys.push_back(parsed.has_options ? parsed.key : with_global_options(global, parsed.key));
  }
  // GNU sort: with no -k, options other than -r make the whole line a key.
  if (spec.keys.empty() && orders_by_options(global)) spec.keys.push_back(global);
  if (inherited || options.keys.empty()) refuse_incompatible_orderings(global_orderings(options));
  refuse_unsupported_locale_rules(options.locale, spec.keys, spec.separator);
  spec.collation = line_collation(options.locale);
  spec.collate_text = spec.collation != nullptr && !collates_in_byte_order(options.locale);
  const NumberMarks marks = line_number_marks(options.locale.numeric);
  const LocaleRules* rules = line_locale_rules(options.locale);
  spec.ctype = line_ctype_handle(options.locale);
  for (LineKey& key : spec.keys) {
    key.collate = spec.collate_text;
    key.marks = marks;
    key.rules = rules;
  }
  return spec;
}

bool uses_random(const LineSpec& spec) {
  for (const LineKey& key : spec.keys) {
    if (key.random) return true;
  }
  return false;
}

}  // namespace gsort
