#include "src/lines/keys/line_key_spec.h"

#include <cctype>
#include <cstdlib>
#include <limits>

#include "src/core/errors.h"

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

// What gsort offers instead of an ordering it lacks.
const char* closest_to(char option) {
  switch (option) {
    case 'g': return "-g (general numeric) is not supported; use -n (no exponents)";
    case 'M': return "-M (month names) is not supported; use a numeric month with -n";
    case 'V': return "-V (version sort) is not supported; use -n on each part (-t. -k1,1n -k2,2n ...)";
    case 'R': return "-R (random order) is not supported; use shuf";
    case 'd': return "-d (dictionary order) is not supported; compare whole bytes without it";
    case 'i': return "-i (ignore non-printing) is not supported; compare whole bytes without it";
    default: return nullptr;
  }
}

// The OPTS after a POS: b f h n r, and GNU's d g i M R V, which are
// refused once the whole key is read (after its syntax and GNU's
// incompatibilities, as GNU sort reports those first).
size_t parse_options(const std::string& spec, size_t at, bool end, ParsedLineKey* k) {
  for (; at < spec.size(); ++at) {
    const char c = spec[at];
    switch (c) {
      case 'b': (end ? k->key.skip_end_blanks : k->key.skip_start_blanks) = true; break;
      case 'f': k->key.fold = true; break;
      case 'h': k->key.human = true; break;
      case 'n': k->key.numeric = true; break;
      case 'r': k->key.reverse = true; break;
      case 'd': case 'g': case 'i': case 'M': case 'R': case 'V': break;
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
  for (char c : k.orderings) {
    if (const char* why = closest_to(c)) throw UsageError("key '" + spec + "': " + why);
  }
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
  for (const LineKey& key : keys) all.push_back(LineImageSpec{key, separator});
  if (last_resort()) {
    LineImageSpec whole;  // the whole line, bytewise
    whole.key.reverse = reverse;
    all.push_back(whole);
  }
  return all;
}

LineSpec make_line_spec(const LineOptions& options, bool reverse, bool unique) {
  LineSpec spec;
  spec.separator = options.separator;
  spec.reverse = reverse;
  spec.stable = options.stable;
  spec.unique = unique;
  spec.eol = options.zero_terminated ? '\0' : '\n';
  LineKey global;
  global.skip_start_blanks = global.skip_end_blanks = options.ignore_blanks;
  global.fold = options.fold;
  global.numeric = options.numeric;
  global.human = options.human_numeric;
  global.reverse = reverse;
  bool inherited = false;  // a key took the global options
  for (const std::string& text : options.keys) {
    ParsedLineKey parsed = parse_line_key(text);
    if (!parsed.has_options) {
      parsed.key.skip_start_blanks = global.skip_start_blanks;
      parsed.key.skip_end_blanks = global.skip_end_blanks;
      parsed.key.fold = global.fold;
      parsed.key.numeric = global.numeric;
      parsed.key.human = global.human;
      parsed.key.reverse = global.reverse;
      inherited = true;
    }
    spec.keys.push_back(parsed.key);
  }
  // GNU sort: with no -k, options other than -r make the whole line a key.
  const bool whole_line_key = options.ignore_blanks || options.fold || options.numeric || options.human_numeric;
  if (spec.keys.empty() && whole_line_key) spec.keys.push_back(global);
  if (inherited || options.keys.empty()) {
    refuse_incompatible_orderings(std::string(options.fold ? "f" : "") + (options.human_numeric ? "h" : "") +
                                  (options.numeric ? "n" : ""));
  }
  return spec;
}

}  // namespace gsort
