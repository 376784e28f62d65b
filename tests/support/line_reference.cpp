#include "tests/support/line_reference.h"

#include <algorithm>
#include <numeric>

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

gsort::LineSpec spec_of_args(const std::vector<std::string>& args) {
  gsort::LineOptions o;
  bool reverse = false, unique = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-t") o.separator = static_cast<unsigned char>(args[++i][0]);
    else if (a == "-n") o.numeric = true;
    else if (a == "-f") o.fold = true;
    else if (a == "-b") o.ignore_blanks = true;
    else if (a == "-s") o.stable = true;
    else if (a == "-z") o.zero_terminated = true;
    else if (a == "-r") reverse = true;
    else if (a == "-u") unique = true;
    else if (a.rfind("-k", 0) == 0) o.keys.push_back(a.substr(2));
  }
  return gsort::make_line_spec(o, reverse, unique);
}

}  // namespace gsort_test
