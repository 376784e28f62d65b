#include "src/distributed/ranks/shared_fields.h"

#include <cstdint>

namespace gsort {
namespace {

void put(std::string& out, const std::string& s) {
  out += std::to_string(s.size());
  out += ':';
  out += s;
}

// Reads one put() string at `at`; false where the text ends or is malformed.
bool take(const std::string& text, size_t& at, std::string* s) {
  const size_t colon = text.find(':', at);
  if (colon == std::string::npos || colon == at || colon - at > 19) return false;
  uint64_t size = 0;
  for (size_t i = at; i < colon; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    size = size * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (size > text.size() - colon - 1) return false;
  *s = text.substr(colon + 1, static_cast<size_t>(size));
  at = colon + 1 + static_cast<size_t>(size);
  return true;
}

bool alike(const SharedField& a, const SharedField& b) {
  return a.subject == b.subject && a.aspect == b.aspect && a.value == b.value;
}

}  // namespace

std::string encode_fields(const SharedFields& fields) {
  std::string out;
  for (const SharedField& f : fields) {
    put(out, f.subject);
    put(out, f.aspect);
    put(out, f.value);
  }
  return out;
}

SharedFields decode_fields(const std::string& text) {
  SharedFields fields;
  size_t at = 0;
  SharedField f;
  while (take(text, at, &f.subject) && take(text, at, &f.aspect) && take(text, at, &f.value)) fields.push_back(f);
  return fields;
}

std::string first_difference(const SharedFields& mine, const SharedFields& rank0s) {
  const std::string from = " differs from rank 0's";
  for (size_t i = 0; i < mine.size() && i < rank0s.size(); ++i) {
    const SharedField& m = mine[i];
    const SharedField& r = rank0s[i];
    if (alike(m, r)) continue;
    // The lists are made alike up to here, so the same field stands at i;
    // only different builds of gsort could put others there.
    if (m.subject != r.subject || m.aspect != r.aspect) {
      return "the request" + from + " (" + m.subject + " against " + r.subject + ")";
    }
    const std::string aspect = m.aspect.empty() ? "" : m.aspect + " ";
    return m.subject + from + " (" + aspect + m.value + " against " + r.value + ")" +
           (m.note.empty() ? "" : ": " + m.note);
  }
  if (mine.size() != rank0s.size()) return "the request" + from;
  return std::string();
}

}  // namespace gsort
