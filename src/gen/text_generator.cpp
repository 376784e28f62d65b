#include "src/gen/text_generator.h"

#include <cstdio>
#include <cstring>

namespace gsort::gen {
namespace {

constexpr const char* kLevels[] = {"INFO", "WARN", "ERROR", "DEBUG"};
constexpr const char* kComponents[] = {"api", "db", "cache", "auth", "queue", "web"};
constexpr const char* kWords[] = {"request", "served", "from", "upstream", "retry", "after", "timeout", "user",
                                  "session", "opened", "closed", "payload", "rejected", "accepted", "in", "ms"};
constexpr const char* kCsvWords[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};

template <typename T, size_t N>
constexpr size_t count_of(const T (&)[N]) {
  return N;
}

}  // namespace

TextGenerator::TextGenerator(const GenOptions& options)
    : format_(options.format), rng_(options.seed, Stream::kKeys) {}

size_t TextGenerator::line(uint8_t* out) {
  char* text = reinterpret_cast<char*>(out);
  return format_ == RecordFormat::kCsv ? csv_line(text) : log_line(text);
}

size_t TextGenerator::log_line(char* out) {
  // The line's length without its newline: 19 to 299 bytes.
  const size_t length = 19 + static_cast<size_t>(rng_.below(281));
  char head[kMaxLine];
  int n = std::snprintf(head, sizeof head, "2024-03-%02u %02u:%02u:%02u.%03u %s [%s] user=%u took=%ums",
                        static_cast<unsigned>(1 + rng_.below(31)), static_cast<unsigned>(rng_.below(24)),
                        static_cast<unsigned>(rng_.below(60)), static_cast<unsigned>(rng_.below(60)),
                        static_cast<unsigned>(rng_.below(1000)), kLevels[rng_.below(count_of(kLevels))],
                        kComponents[rng_.below(count_of(kComponents))], static_cast<unsigned>(rng_.below(100000)),
                        static_cast<unsigned>(rng_.below(10000)));
  size_t used = static_cast<size_t>(n);
  while (used < length) {
    const char* word = kWords[rng_.below(count_of(kWords))];
    const size_t w = std::strlen(word);
    if (used + 1 + w >= sizeof head) break;
    head[used++] = ' ';
    std::memcpy(head + used, word, w);
    used += w;
  }
  // Cut to the length (the words may fall short of it only at the very end).
  const size_t len = used < length ? used : length;
  std::memcpy(out, head, len);
  out[len] = '\n';
  return len + 1;
}

size_t TextGenerator::csv_line(char* out) {
  const uint64_t id = rng_.below(1000000000);
  const char* word = kCsvWords[rng_.below(count_of(kCsvWords))];
  const long long integer = static_cast<long long>(rng_.below(2000000)) - 1000000;
  const uint64_t milli = rng_.below(1000000);
  const int n = std::snprintf(out, kMaxLine, "%llu,%s,%lld,%llu.%03llu\n", static_cast<unsigned long long>(id), word,
                              integer, static_cast<unsigned long long>(milli / 1000),
                              static_cast<unsigned long long>(milli % 1000));
  return static_cast<size_t>(n);
}

}  // namespace gsort::gen
