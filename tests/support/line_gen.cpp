#include "tests/support/line_gen.h"

namespace gsort_test {
namespace {

const char* const kWords[] = {"a", "A", "b", "B", "abc", "ABC", "abd", "Abc", "zz", "x y", "foo", "Foo", "FOO", "bar",
                              "2024-01-01T00:00:01", "2024-01-01T00:00:02", "2024-01-02", "\xc3\xa9t\xc3\xa9",
                              "\xff\xfe", "\x80", "a\rb", "tab\there", "-", ".", "-.", "+", "e",
                              // -M's months, -g's numbers, -V's versions, -d's and -i's punctuation
                              // (no NaN: GNU sort 9.1 compares NaNs by stack garbage, see line_orders.h)
                              "jan", "FEB", "Mar", "  apr", "december", "Sept", "jun\x80", "1e5", "-2.5E-3", "0x1A",
                              "inf", "-inf", "Infinity", "0x1p-3", "1e4000", "1.2.10", "1.2.9",
                              "v1.10a", "foo-1.0~rc1.tar.gz", "foo-1.0.tar.gz", "a.b", ".x", "..", "~", "it's",
                              "a-b", "a_b!"};

std::string random_number(Rng& rng) {
  std::string s;
  const uint64_t blanks = rng.chance(20) ? rng.below(3) : 0;
  for (uint64_t i = 0; i < blanks; ++i) s += rng.chance(50) ? ' ' : '\t';
  if (rng.chance(35)) s += '-';
  else if (rng.chance(5)) s += '+';
  if (rng.chance(25)) s += std::string(rng.below(4), '0');
  const uint64_t int_digits = rng.chance(10) ? rng.range(10, 30) : rng.below(5);
  for (uint64_t i = 0; i < int_digits; ++i) {
    s += static_cast<char>('0' + rng.below(10));
    // It ends the number; coreutils 9.1 to 9.4 on x86 skipped it as a
    // thousands separator (tests/lines/gnu_diff.h: comparable_line_input).
    if (rng.chance(3)) s += '\x80';
  }
  if (rng.chance(35)) {
    s += '.';
    const uint64_t frac = rng.below(6);
    for (uint64_t i = 0; i < frac; ++i) s += static_cast<char>('0' + (rng.chance(30) ? 0 : rng.below(10)));
    if (rng.chance(15)) s += "000";
  }
  // -h's units, an unknown letter, and the IEC "i" after a unit. Not R or
  // Q: the GNU sort these tests run beside (coreutils 9.1) predates them.
  if (rng.chance(20)) s += "kKMGTPEZYBi"[rng.below(11)];
  if (rng.chance(3)) s += 'i';
  if (rng.chance(5)) s += rng.chance(50) ? "e5" : ",000";
  if (rng.chance(10)) s += rng.chance(50) ? "x" : ".5";
  return s;
}

std::string random_word(Rng& rng, bool zero_terminated) {
  if (rng.chance(60)) return kWords[rng.below(sizeof kWords / sizeof kWords[0])];
  std::string s;
  const uint64_t n = rng.below(12);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t kind = rng.below(20);
    if (kind == 0) s += '\0';
    else if (kind == 1) s += '\r';
    else if (kind == 2) s += static_cast<char>(0x80 + rng.below(128));
    else if (kind == 3) s += zero_terminated ? '\n' : ' ';
    else if (kind < 10) s += static_cast<char>('a' + rng.below(4));
    else if (kind < 14) s += static_cast<char>('A' + rng.below(4));
    else s += static_cast<char>('0' + rng.below(10));
  }
  return s;
}

std::string random_blanks(Rng& rng) {
  std::string s;
  const uint64_t n = rng.range(1, 3);
  for (uint64_t i = 0; i < n; ++i) s += rng.chance(70) ? ' ' : '\t';
  return s;
}

std::string random_line(Rng& rng, const LineOptionsCase& o, const std::vector<std::string>& pool) {
  if (!pool.empty() && rng.chance(25)) return pool[rng.below(pool.size())];
  if (rng.chance(3)) return "";
  if (rng.chance(1)) return std::string(rng.range(2000, 20000), static_cast<char>('a' + rng.below(3)));
  std::string line;
  if (!o.has_separator && rng.chance(30)) line += random_blanks(rng);
  const uint64_t fields = rng.below(6);
  for (uint64_t f = 0; f < fields; ++f) {
    if (f > 0) line += o.has_separator ? std::string(1, o.separator) : random_blanks(rng);
    line += random_line_field(rng, o.zero_terminated);
  }
  if (rng.chance(10)) line += o.has_separator ? std::string(1, o.separator) : std::string(" ");
  return line;
}

// A position F[.C] and its modifiers; `order` is the key's ordering
// modifiers (n h g M, or d i R V in a mix GNU sort takes).
std::string random_pos(Rng& rng, bool end, const std::string& order) {
  std::string p = std::to_string(rng.range(1, 5));
  if (rng.chance(35)) p += "." + std::to_string(end ? rng.below(5) : rng.range(1, 4));
  if (rng.chance(15)) p += 'b';
  if (rng.chance(15)) p += 'f';
  for (char m : order) {
    if (rng.chance(40)) p += m;
  }
  if (rng.chance(15)) p += 'r';
  return p;
}

// One ordering for a key or the global options, as GNU sort allows them
// together: one of n h g M, or d or i with R or V or neither; often none.
std::string random_ordering(Rng& rng) {
  const uint64_t kind = rng.below(12);
  if (kind < 4) return "";
  if (kind < 8) return std::string(1, "nhgM"[kind - 4]);
  std::string o;
  if (rng.chance(50)) o += rng.chance(70) ? 'd' : 'i';
  if (rng.chance(50)) o += rng.chance(50) ? 'R' : 'V';
  if (rng.chance(10)) o += 'V';  // with R, R wins
  return o;
}

}  // namespace

std::string random_line_field(Rng& rng, bool zero_terminated) {
  const uint64_t kind = rng.below(10);
  if (kind < 4) return random_number(rng);
  if (kind < 8) return random_word(rng, zero_terminated);
  if (kind == 8) return "";
  return random_blanks(rng) + random_word(rng, zero_terminated);
}

LineOptionsCase random_line_options(Rng& rng) {
  LineOptionsCase c;
  c.zero_terminated = rng.chance(10);
  if (rng.chance(45)) {
    static const char kSeparators[] = {',', ':', '\t', ' ', 'a', '.', '-'};
    c.has_separator = true;
    c.separator = kSeparators[rng.below(sizeof kSeparators)];
    c.args.push_back("-t");
    c.args.push_back(std::string(1, c.separator));
  }
  if (c.zero_terminated) c.args.push_back("-z");
  const char* const globals[] = {"-r", "-u", "-s", "-f", "-b"};
  for (const char* g : globals) {
    if (rng.chance(20)) c.args.push_back(g);
  }
  if (rng.chance(40)) {
    for (char m : random_ordering(rng)) c.args.push_back(std::string("-") + m);
  }
  const uint64_t keys = rng.chance(25) ? 0 : rng.range(1, 3);
  for (uint64_t k = 0; k < keys; ++k) {
    const std::string order = random_ordering(rng);
    std::string spec = random_pos(rng, false, order);
    if (rng.chance(70)) spec += "," + random_pos(rng, true, order);
    c.args.push_back("-k" + spec);
  }
  for (const std::string& a : c.args) {
    if (a.find('R') != std::string::npos) {
      // The same seed for GNU sort and gsort: the first 16 bytes of a file both can read.
      c.args.push_back("--random-source=/usr/bin/sort");
      break;
    }
  }
  return c;
}

std::string random_line_input(Rng& rng, const LineOptionsCase& o, size_t max_lines) {
  const char eol = o.zero_terminated ? '\0' : '\n';
  std::vector<std::string> pool;
  const uint64_t pooled = rng.below(6);
  for (uint64_t i = 0; i < pooled; ++i) pool.push_back(random_line(rng, o, {}));
  const uint64_t n = rng.below(max_lines + 1);
  std::string input;
  for (uint64_t i = 0; i < n; ++i) {
    std::string line = random_line(rng, o, pool);
    if (!o.zero_terminated) {
      for (char& ch : line) {
        if (ch == '\n') ch = ' ';
      }
    }
    input += line;
    input += eol;
  }
  if (!input.empty() && rng.chance(15)) input.pop_back();  // no final terminator
  return input;
}

std::string join_args(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) {
    if (!s.empty()) s += ' ';
    const bool plain = !a.empty() && a.find_first_of(" \t'\\") == std::string::npos;
    s += plain ? a : "'" + a + "'";
  }
  return s;
}

}  // namespace gsort_test
