// A run spilled as several segment files reads back as one source
// (io/run/run_segments.h): the segments' records in order, in any window size,
// plain and compressed; a damaged segment is a DataError naming it.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "io/run/run_file.h"
#include "io/run/run_segments.h"
#include "src/core/errors.h"
#include "tests/support/record_gen.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const uint8_t* bytes(const std::string& s, size_t offset = 0) {
  return reinterpret_cast<const uint8_t*>(s.data()) + offset;
}

// `data` (16-byte records) written as segments of `counts` records each.
std::vector<std::string> write_segments(const TempDir& dir, const std::string& data,
                                        const std::vector<uint64_t>& counts, bool compressed) {
  gsort::RunCompression c;
  c.enabled = compressed;
  c.frame_bytes = 40 * 16;
  std::vector<std::string> paths;
  uint64_t at = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    paths.push_back(dir.file("seg." + std::to_string(i)));
    gsort::RunWriter w(paths.back(), 16, c);
    w.append(bytes(data, at * 16), counts[i]);
    w.finish();
    at += counts[i];
  }
  return paths;
}

std::unique_ptr<gsort::RunSegmentsReader> open_segments(const std::vector<std::string>& paths) {
  std::vector<std::unique_ptr<gsort::RecordSource>> readers;
  for (const std::string& p : paths) readers.push_back(std::make_unique<gsort::RunReader>(p, 16));
  return std::make_unique<gsort::RunSegmentsReader>(std::move(readers), 16);
}

std::string read_all(gsort::RecordSource& source, uint64_t window) {
  std::string buf(window * 16, '\0'), all;
  for (;;) {
    const uint64_t n = source.read(reinterpret_cast<uint8_t*>(buf.data()), window);
    if (n == 0) return all;
    EXPECT_LE(n, window);
    all.append(buf.data(), n * 16);
  }
}

TEST(RunSegments, ReadBackInOrderInAnyWindow) {
  TempDir dir;
  Rng rng(31);
  const std::string data = numbered_u32_records(rng, 1000, 300, true);
  for (bool compressed : {false, true}) {
    SCOPED_TRACE(compressed ? "compressed" : "plain");
    const std::vector<std::string> paths = write_segments(dir, data, {333, 1, 0, 400, 266}, compressed);
    for (uint64_t window : {1, 7, 40, 41, 333, 334, 1000, 5000}) {
      auto reader = open_segments(paths);
      EXPECT_EQ(reader->size_hint(), 1000u);
      EXPECT_TRUE(read_all(*reader, window) == data) << "window " << window;
      EXPECT_EQ(reader->read(nullptr, 0), 0u);
    }
  }
}

TEST(RunSegments, DamagedSegmentIsADataErrorNamingIt) {
  TempDir dir;
  Rng rng(32);
  const std::string data = numbered_u32_records(rng, 300, 300, true);
  const std::vector<std::string> paths = write_segments(dir, data, {100, 100, 100}, false);
  std::string second = read_file(paths[1]);
  second[64 + 5 * 16] ^= 1;
  write_file(paths[1], second);
  auto reader = open_segments(paths);
  try {
    read_all(*reader, 64);
    FAIL() << "a corrupted segment was read";
  } catch (const gsort::DataError& e) {
    EXPECT_NE(std::string(e.what()).find("seg.1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gsort_test
