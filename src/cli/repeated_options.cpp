#include "src/cli/repeated_options.h"

#include <algorithm>
#include <map>

#include "src/core/errors.h"

namespace gsort {
namespace {

// The setting an option's occurrence sets: --no-verify and --verify are one.
std::string setting_of(const std::string& key) {
  if (key == "no-verify") return "verify";
  if (key == "no-progress") return "progress";
  return key;
}

// The first value of option `key` that differs from its first one, or null.
const std::string* differing_value(const std::vector<boost::program_options::option>& parsed, const char* key,
                                   const std::string** first_value) {
  const std::string* first = nullptr;
  for (const boost::program_options::option& o : parsed) {
    if (o.string_key != key || o.value.empty()) continue;
    if (first && *first != o.value.front()) {
      *first_value = first;
      return &o.value.front();
    }
    if (!first) first = &o.value.front();
  }
  return nullptr;
}

void refuse_differing_repeats(const std::vector<boost::program_options::option>& parsed) {
  const std::string* first = nullptr;
  if (const std::string* other = differing_value(parsed, "output", &first)) {
    throw UsageError("two output files given: '" + *first + "' and '" + *other + "' (give -o once)");
  }
  if (differing_value(parsed, "compress-program", &first)) throw UsageError("multiple compress programs specified");
}

}  // namespace

void keep_last_occurrences(std::vector<boost::program_options::option>& parsed,
                           const std::vector<std::string>& lists) {
  refuse_differing_repeats(parsed);
  std::map<std::string, size_t> last;  // setting -> index of its last occurrence
  for (size_t i = 0; i < parsed.size(); ++i) last[setting_of(parsed[i].string_key)] = i;
  size_t kept = 0;
  for (size_t i = 0; i < parsed.size(); ++i) {
    const std::string& key = parsed[i].string_key;
    const bool is_list = std::find(lists.begin(), lists.end(), key) != lists.end();
    if (!is_list && !parsed[i].unregistered && last[setting_of(key)] != i) continue;
    if (kept != i) parsed[kept] = std::move(parsed[i]);
    ++kept;
  }
  parsed.erase(parsed.begin() + static_cast<std::ptrdiff_t>(kept), parsed.end());
}

}  // namespace gsort
