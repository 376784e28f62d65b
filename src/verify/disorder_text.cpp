#include "src/verify/disorder_text.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gsort {
namespace {

constexpr size_t kShownBytes = 64;

// Hex of key[from, to), with ',' where a field ends and the next begins.
std::string hex(const std::vector<uint8_t>& key, const KeyLayout& layout, size_t from, size_t to) {
  static const char kDigits[] = "0123456789abcdef";
  std::vector<bool> field_starts(key.size() + 1, false);
  size_t start = 0;
  for (const KeyField& f : layout.fields()) {
    field_starts[start] = true;
    start += f.length;
  }
  std::string s;
  for (size_t i = from; i < to && i < key.size(); ++i) {
    if (i > from && field_starts[i]) s += ',';
    s += kDigits[key[i] >> 4];
    s += kDigits[key[i] & 15];
  }
  return s;
}

}  // namespace

std::string describe_disorder(const CheckResult& r, const KeyLayout& layout, bool strict) {
  const std::vector<uint8_t>& a = r.previous_key;
  const std::vector<uint8_t>& b = r.bad_key;
  const size_t width = std::min(a.size(), b.size());
  size_t from = 0, to = width;
  if (width > kShownBytes) {
    const size_t differ = static_cast<size_t>(std::mismatch(a.begin(), a.begin() + width, b.begin()).first - a.begin());
    from = differ < kShownBytes / 4 ? 0 : std::min(differ - kShownBytes / 4, width - kShownBytes);
    to = from + kShownBytes;
  }
  const bool equal = std::equal(a.begin(), a.end(), b.begin(), b.end());
  std::string s = "disorder at record " + std::to_string(r.bad_record) + " (counting from 1), byte offset " +
                  std::to_string(r.bad_offset) + ": key " + hex(b, layout, from, to) +
                  (equal ? " equals" : " sorts before") + " the previous record's key " + hex(a, layout, from, to);
  if (equal && strict) s += " (with -u, keys must differ)";
  if (width > kShownBytes) {
    s += " (key bytes " + std::to_string(from) + " to " + std::to_string(to - 1) + " of " + std::to_string(width) +
         ")";
  }
  return s;
}

}  // namespace gsort
