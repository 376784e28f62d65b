#include "src/keys/collation.h"

#include <locale.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace gsort {
namespace {

locale_t handle(void* p) { return static_cast<locale_t>(p); }

// The text and a NUL after it, in a buffer of this thread's: strcoll and
// strxfrm read strings.
const char* terminated(const uint8_t* text, uint64_t len, std::string& buf) {
  buf.assign(reinterpret_cast<const char*>(text), len);
  return buf.c_str();
}

}  // namespace

const Collation* Collation::named(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Collation>> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known.find(name);
  if (it == known.end()) {
    locale_t l = newlocale(LC_COLLATE_MASK, name.c_str(), static_cast<locale_t>(0));
    std::unique_ptr<Collation> c(l ? new Collation(name, l) : nullptr);
    it = known.emplace(name, std::move(c)).first;
  }
  return it->second.get();
}

Collation::~Collation() { freelocale(handle(locale_)); }

int Collation::compare(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) const {
  if (alen == 0) return blen == 0 ? 0 : -1;
  if (blen == 0) return 1;
  if (alen == blen && std::memcmp(a, b, alen) == 0) return 0;
  thread_local std::string abuf, bbuf;
  const char* s = terminated(a, alen, abuf);
  const char* t = terminated(b, blen, bbuf);
  // Sizes count each segment's NUL, the last one's too (gnulib's memcoll0).
  uint64_t ssize = alen + 1, tsize = blen + 1;
  for (;;) {
    const int diff = strcoll_l(s, t, handle(locale_));
    if (diff != 0) return diff < 0 ? -1 : 1;
    const uint64_t sseg = std::strlen(s) + 1, tseg = std::strlen(t) + 1;
    s += sseg, t += tseg;
    ssize -= sseg, tsize -= tseg;
    if (ssize == 0) return tsize == 0 ? 0 : -1;
    if (tsize == 0) return 1;
  }
}

void Collation::transform(const char* s, std::string& out) const {
  const size_t at = out.size();
  size_t room = 3 * std::strlen(s) + 16;
  for (;;) {
    out.resize(at + room);
    const size_t need = strxfrm_l(&out[at], s, room, handle(locale_));
    if (need < room) {
      out.resize(at + need);
      return;
    }
    room = need + 1;
  }
}

uint64_t Collation::head(const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap) const {
  thread_local std::string buf, image;
  image.clear();
  transform(terminated(text, len, buf), image);
  // The first level's weights: glibc ends each level with a 0x01 byte.
  const size_t first_level = image.find('\x01');
  if (first_level != std::string::npos) image.resize(first_level);
  const uint64_t n = image.size() < cap ? image.size() : cap;
  std::memcpy(out, image.data(), n);
  return n;
}

void Collation::transform_segments(const uint8_t* text, uint64_t len, std::string& out) const {
  thread_local std::string buf;
  const char* s = terminated(text, len, buf);
  for (uint64_t at = 0; at < len;) {
    transform(s + at, out);
    out += '\0';
    at += std::strlen(s + at) + 1;
  }
}

}  // namespace gsort
