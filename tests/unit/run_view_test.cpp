// A run read at any range (io/run/run_view.h), as the parallel merge reads
// it: any [begin, end) of a run of several segments, plain or compressed,
// through a buffer of one block or of many, gives the run's records;
// read_at and partition_point see the same records. A block moved within a
// plain run, with its sum, is damage too.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/run/run_blocks.h"
#include "io/run/run_file.h"
#include "io/run/run_view.h"
#include "src/core/errors.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

constexpr uint32_t kRs = 12;

const uint8_t* bytes(const std::string& s, size_t at = 0) { return reinterpret_cast<const uint8_t*>(s.data()) + at; }

// `data` written as `segments` run files in `dir`, opened into `files`.
std::unique_ptr<gsort::RunView> view_of(const TempDir& dir, const std::string& data, unsigned segments,
                                        bool compressed, std::vector<gsort::File>& files,
                                        gsort::RunDecoderPool& decoders) {
  gsort::RunCompression c;
  c.enabled = compressed;
  c.frame_bytes = 100 * kRs;
  const uint64_t count = data.size() / kRs;
  files.clear();
  files.reserve(segments);
  std::vector<gsort::RunViewSegment> views;
  for (unsigned s = 0; s < segments; ++s) {
    const uint64_t from = count * s / segments, to = count * (s + 1) / segments;
    const std::string path = dir.file("seg" + std::to_string(s));
    gsort::RunWriter w(path, kRs, c);
    w.append(bytes(data, from * kRs), to - from);
    w.finish();
    files.push_back(gsort::File::open_read(path));
    views.push_back(gsort::RunViewSegment{&files.back(), gsort::RunIdentity()});
  }
  return std::make_unique<gsort::RunView>(std::move(views), kRs, &decoders);
}

std::string read_range(const gsort::RunView& view, uint64_t begin, uint64_t end, uint64_t buffer_bytes) {
  std::vector<uint8_t> buffer(buffer_bytes);
  gsort::RunCursor cursor(buffer.data(), buffer.size());
  cursor.open(view, begin, end);
  std::string out;
  uint64_t n = 0;
  while (const uint8_t* at = cursor.next(&n)) {
    if (n == 0) break;
    out.append(reinterpret_cast<const char*>(at), n * kRs);
  }
  return out;
}

TEST(RunView, AnyRangeInAnyBufferGivesTheRunsRecords) {
  TempDir dir;
  Rng rng(71);
  // Sorted by their first 4 bytes (big-endian order of a counter).
  const uint64_t count = 20000;
  std::string data;
  for (uint64_t i = 0; i < count; ++i) {
    std::string rec = rng.bytes(kRs);
    const uint32_t key = static_cast<uint32_t>(i / 3);
    for (int b = 0; b < 4; ++b) rec[b] = static_cast<char>(key >> (24 - 8 * b));
    data += rec;
  }
  for (const bool compressed : {false, true}) {
    for (const unsigned segments : {1u, 3u}) {
      SCOPED_TRACE(std::string(compressed ? "zstd" : "plain") + ", " + std::to_string(segments) + " segments");
      std::vector<gsort::File> files;
      gsort::RunDecoderPool decoders;
      const auto view = view_of(dir, data, segments, compressed, files, decoders);
      ASSERT_EQ(view->size(), count);
      const uint64_t unit = view->least_buffer_bytes();
      for (int round = 0; round < 30; ++round) {
        const uint64_t a = rng.below(count + 1), b = rng.below(count + 1);
        const uint64_t begin = std::min(a, b), end = std::max(a, b);
        for (const uint64_t buffer : {unit, 5 * unit}) {
          EXPECT_TRUE(read_range(*view, begin, end, buffer) == data.substr(begin * kRs, (end - begin) * kRs))
              << begin << ".." << end;
        }
        std::string one(kRs, '\0');
        view->read_at({begin == count ? 0 : begin}, reinterpret_cast<uint8_t*>(&one[0]));
        EXPECT_TRUE(one == data.substr((begin == count ? 0 : begin) * kRs, kRs));
        // The first record whose key is at least begin / 3.
        const uint32_t key = static_cast<uint32_t>(begin / 3);
        const uint64_t at = view->partition_point(0, count, [&](const uint8_t* rec) {
          const uint32_t k = uint32_t{rec[0]} << 24 | uint32_t{rec[1]} << 16 | uint32_t{rec[2]} << 8 | rec[3];
          return k < key;
        });
        EXPECT_EQ(at, std::min<uint64_t>(uint64_t{key} * 3, count));
      }
    }
  }
}

TEST(RunView, ABlockMovedWithItsSumIsDetected) {
  TempDir dir;
  Rng rng(73);
  const uint64_t per_block = gsort::run_block_records(kRs);
  const std::string data = rng.bytes(per_block * 4 * kRs);
  std::vector<gsort::File> files;
  gsort::RunDecoderPool decoders;
  view_of(dir, data, 1, false, files, decoders);
  std::string run = read_file(dir.file("seg0"));
  const uint64_t block = per_block * kRs, table = 64 + data.size();
  // Blocks 1 and 2 swapped, and their sums with them.
  std::string swapped = run;
  swapped.replace(64 + block, block, run.substr(64 + 2 * block, block));
  swapped.replace(64 + 2 * block, block, run.substr(64 + block, block));
  swapped.replace(table + 8, 8, run.substr(table + 16, 8));
  swapped.replace(table + 16, 8, run.substr(table + 8, 8));
  write_file(dir.file("seg0"), swapped);
  gsort::File file = gsort::File::open_read(dir.file("seg0"));
  gsort::RunView view({gsort::RunViewSegment{&file, gsort::RunIdentity()}}, kRs, &decoders);
  EXPECT_THROW(read_range(view, 0, view.size(), block), gsort::DataError);
  gsort::RunReader reader(dir.file("seg0"), kRs);
  std::vector<uint8_t> buf(data.size());
  EXPECT_THROW(reader.read(buf.data(), view.size()), gsort::DataError);
}

}  // namespace
}  // namespace gsort_test
