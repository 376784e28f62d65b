#include "src/keys/collation.h"

#include <locale.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

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

void Collation::build_table_now() const {
  bool expected = false;
  if (building_.compare_exchange_strong(expected, true)) {
    const auto start = std::chrono::steady_clock::now();
    table_owner_ = FirstLevelWeights::build(handle(locale_), name_.c_str());
    table_built_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    table_.store(table_owner_.get(), std::memory_order_release);
    built_.store(true, std::memory_order_release);
  }
  while (!built_.load(std::memory_order_acquire)) std::this_thread::yield();  // (tests: another thread builds it)
}

CollationTableAhead::CollationTableAhead(const Collation* collation) {
  if (collation != nullptr) building_ = std::thread([collation] { collation->build_table_now(); });
}

CollationTableAhead::~CollationTableAhead() {
  if (building_.joinable()) building_.join();
}

uint64_t Collation::head(const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap) const {
  constexpr uint64_t kHeadsBeforeTable = 20000;
  const FirstLevelWeights* table = table_.load(std::memory_order_acquire);
  // (Counted only until the table is tried: where it could not be built,
  // no shared counter is touched a head.)
  if (table == nullptr && !building_.load(std::memory_order_relaxed) &&
      heads_.fetch_add(1, std::memory_order_relaxed) == kHeadsBeforeTable) {
    // This thread builds it (some 20 ms); the others go on with strxfrm
    // until it is there.
    build_table_now();
    table = table_.load(std::memory_order_acquire);
  }
  uint64_t written = 0;
  if (table != nullptr && table->head(text, len, out, cap, &written)) return written;
  by_strxfrm_.fetch_add(1, std::memory_order_relaxed);
  return head_by_strxfrm(text, len, out, cap);
}

std::string Collation::heads_made() const {
  const FirstLevelWeights* table = built_.load(std::memory_order_acquire) ? table_.load() : nullptr;
  char buf[160];
  if (table != nullptr) {
    std::snprintf(buf, sizeof buf, "heads by a table of %llu characters (built in %.3f s), %llu by strxfrm",
                  static_cast<unsigned long long>(table->held()), table_built_s_,
                  static_cast<unsigned long long>(by_strxfrm_.load()));
  } else {
    std::snprintf(buf, sizeof buf, "heads by strxfrm alone (%llu; no table%s)",
                  static_cast<unsigned long long>(by_strxfrm_.load()),
                  built_.load() ? ": the collation has no character it could hold" : " yet");
  }
  return buf;
}

bool Collation::head_folded(const uint8_t* text, uint64_t len, const uint8_t fold[256], uint8_t* out, uint64_t cap,
                            uint64_t* written) const {
  const FirstLevelWeights* table = table_.load(std::memory_order_acquire);
  if (table == nullptr) return false;  // (head() counts the heads that build it)
  // Each map is checked once, by the thread that asks first (a few maps
  // are kept; more, which no sort has, go the slow way).
  int kept = -1;
  for (FoldAnswer& f : folds_) {
    const uint8_t* map = f.map.load(std::memory_order_acquire);
    if (map == nullptr) {
      if (f.map.compare_exchange_strong(map, fold)) {
        f.kept.store(table->keeps_heads_under(fold) ? 1 : 0, std::memory_order_release);
      }
    }
    if (f.map.load(std::memory_order_acquire) == fold) {
      kept = f.kept.load(std::memory_order_acquire);  // -1: another thread is checking it
      break;
    }
  }
  return kept == 1 && table->head(text, len, out, cap, written);
}

uint64_t Collation::head_by_strxfrm(const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap) const {
  thread_local std::string buf, image;
  const uint8_t* nul = static_cast<const uint8_t*>(std::memchr(text, 0, len));
  const uint64_t segment = nul != nullptr ? static_cast<uint64_t>(nul - text) : len;
  // strxfrm of a prefix, not of the whole segment: a whole log line's
  // image is six times the line and takes 2.7 us (en_US.UTF-8, glibc
  // 2.36), its first 48 bytes' 0.6 us. A prefix's first level is the
  // segment's but for the last few characters' weights (a contraction cut
  // in two), so it is taken only where it reaches kHeadMargin bytes past
  // the head; else the prefix doubles, up to the whole segment.
  constexpr uint64_t kFirstPrefix = 48, kHeadMargin = 8;
  for (uint64_t prefix = kFirstPrefix;; prefix *= 2) {
    uint64_t take = prefix < segment ? prefix : segment;
    if (take < segment) {
      while (take > 0 && (text[take] & 0xC0) == 0x80) --take;  // not into a UTF-8 character
    }
    image.clear();
    append_strxfrm(handle(locale_), terminated(text, take, buf), image);
    keep_first_level(image);
    if (take == segment || image.size() >= cap + kHeadMargin) break;
  }
  const uint64_t n = image.size() < cap ? image.size() : cap;
  std::memcpy(out, image.data(), n);
  return n;
}

void Collation::transform_segments(const uint8_t* text, uint64_t len, std::string& out) const {
  thread_local std::string buf;
  const char* s = terminated(text, len, buf);
  for (uint64_t at = 0; at < len;) {
    append_strxfrm(handle(locale_), s + at, out);
    out += '\0';
    at += std::strlen(s + at) + 1;
  }
}

}  // namespace gsort
