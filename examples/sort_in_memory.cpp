// sort_in_memory: sorts an array of structs in place with gsort (on the GPU
// when one is usable and the array is large enough), by score descending
// and then id ascending, and checks the result.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <gsort/gsort.h>

// A record as it lies in memory: gsort sorts it as 16 bytes with keys at
// these offsets (little-endian, as on x86 and ARM).
struct Entry {
  uint64_t id;     // offset 0
  float score;     // offset 8
  uint32_t extra;  // offset 12
};
static_assert(sizeof(Entry) == 16, "Entry must have no padding");

int main() {
  std::vector<Entry> entries(1000000);
  std::mt19937_64 rng(7);
  for (size_t i = 0; i < entries.size(); ++i) {
    entries[i] = Entry{rng() % 100000, static_cast<float>(rng() % 1000) / 10.0f, static_cast<uint32_t>(i)};
  }
  gsort::Options options;
  options.record_size = sizeof(Entry);
  options.keys = {"8:f32:desc", "0:u64"};
  try {
    gsort::sort_records(entries.data(), entries.size(), options);
  } catch (const gsort::Error& e) {
    std::fprintf(stderr, "sort_in_memory: %s\n", e.what());
    return 2;
  }
  for (size_t i = 1; i < entries.size(); ++i) {
    const Entry& a = entries[i - 1];
    const Entry& b = entries[i];
    const bool in_order = a.score > b.score || (a.score == b.score && a.id <= b.id);
    if (!in_order) {
      std::fprintf(stderr, "sort_in_memory: entries %zu and %zu are out of order\n", i - 1, i);
      return 1;
    }
  }
  std::printf("sorted %zu entries; first: id %llu score %.1f\n", entries.size(),
              static_cast<unsigned long long>(entries[0].id), entries[0].score);
  return 0;
}
