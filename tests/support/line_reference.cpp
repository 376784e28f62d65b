#include "tests/support/line_reference.h"

#include <locale.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "src/cli/options.h"
#include "src/config/line_locale.h"
#include "tests/support/line_gen.h"

namespace gsort_test {

std::vector<std::string> split_lines(const std::string& input, char eol) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < input.size();) {
    size_t end = input.find(eol, at);
    if (end == std::string::npos) end = input.size();
    lines.push_back(input.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

std::vector<uint32_t> reference_order(const gsort::LineSpec& spec, const std::vector<std::string>& lines) {
  const gsort::LineComparator compare(spec);
  std::vector<uint32_t> order(lines.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const std::string& x = lines[a];
    const std::string& y = lines[b];
    return compare.compare(reinterpret_cast<const uint8_t*>(x.data()), x.size(),
                           reinterpret_cast<const uint8_t*>(y.data()), y.size()) < 0;
  });
  return order;
}

std::string reference_output(const gsort::LineSpec& spec, const std::vector<std::string>& lines) {
  const gsort::LineComparator compare(spec);
  std::string out;
  const std::string* last = nullptr;
  for (uint32_t i : reference_order(spec, lines)) {
    const std::string& line = lines[i];
    if (spec.unique && last &&
        compare.compare(reinterpret_cast<const uint8_t*>(last->data()), last->size(),
                        reinterpret_cast<const uint8_t*>(line.data()), line.size()) == 0) {
      continue;
    }
    out += line;
    out += static_cast<char>(spec.eol);
    last = &line;
  }
  return out;
}

LineChunk make_chunk(const std::vector<std::string>& lines, char eol) {
  LineChunk c;
  c.starts.push_back(0);
  for (const std::string& line : lines) {
    c.text += line;
    c.text += eol;
    c.starts.push_back(c.text.size());
  }
  return c;
}

std::string differences_from_reference(const std::vector<std::vector<std::string>>& cases,
                                       const std::vector<std::vector<std::string>>& arg_sets,
                                       const MakeSorter& make) {
  for (size_t c = 0; c < cases.size(); ++c) {
    for (const std::vector<std::string>& args : arg_sets) {
      const gsort::LineSpec spec = spec_of_args(args);
      if (order_by(*make(spec), spec, cases[c]) != reference_order(spec, cases[c])) {
        std::string joined;
        for (const std::string& a : args) joined += " " + a;
        return "case " + std::to_string(c) + ":" + joined;
      }
    }
  }
  return "";
}

std::string random_rounds_against_reference(uint64_t seed, int rounds, size_t max_lines, const MakeSorter& make) {
  Rng rng(seed);
  for (int round = 0; round < rounds; ++round) {
    const LineOptionsCase o = random_line_options(rng);
    const gsort::LineSpec spec = spec_of_args(o.args);
    const std::vector<std::string> lines =
        split_lines(random_line_input(rng, o, max_lines), o.zero_terminated ? '\0' : '\n');
    if (order_by(*make(spec), spec, lines) != reference_order(spec, lines)) {
      return "round " + std::to_string(round) + ": " + join_args(o.args);
    }
  }
  return "";
}

std::vector<uint32_t> order_by(gsort::LineSorter& sorter, const gsort::LineSpec& spec,
                               const std::vector<std::string>& lines) {
  const LineChunk chunk = make_chunk(lines, static_cast<char>(spec.eol));
  std::vector<uint32_t> order(lines.size());
  sorter.sort(chunk.span(), order.data());
  return order;
}

namespace {

// gsort's own command line: what a user's arguments give (it throws on
// what gsort refuses), never a spec of other options than asked.
gsort::SortConfig config_of_args(const std::vector<std::string>& args) {
  std::vector<const char*> argv = {"gsort"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  return gsort::parse_command_line(static_cast<int>(argv.size()), argv.data()).config;
}

}  // namespace

gsort::LineSpec spec_of_args(const std::vector<std::string>& args) {
  gsort::SortConfig c = config_of_args(args);
  // In C unless the test sets LC_ALL: the references (GNU sort through
  // c_locale, the comparison) are C's, whatever the shell's LANG says
  // (LANG=C.UTF-8 hashed -R's keys through its collation).
  const char* all = std::getenv("LC_ALL");
  if (all == nullptr || *all == '\0') c.lines.locale = gsort::line_locale_named("C");
  return gsort::make_line_spec(c.lines, c.reverse, c.unique);
}

gsort::LineSpec spec_in_locale(const std::string& locale, const std::vector<std::string>& args) {
  gsort::SortConfig c = config_of_args(args);
  c.lines.locale = gsort::line_locale_named(locale);
  return gsort::make_line_spec(c.lines, c.reverse, c.unique);
}

bool locale_installed(const std::string& name) {
  locale_t l = newlocale(LC_ALL_MASK, name.c_str(), static_cast<locale_t>(0));
  if (l == static_cast<locale_t>(0)) return false;
  freelocale(l);
  return true;
}

}  // namespace gsort_test
