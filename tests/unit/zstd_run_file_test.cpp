// Compressed run files on the library: RunWriter / RunReader round trips
// in any batch size, and a damaged frame is a DataError before any of its
// records is handed out.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "io/run/run_file.h"
#include "src/core/errors.h"
#include "tests/support/record_gen.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

TEST(ZstdRunFile, RoundTripInAnyBatchSize) {
  TempDir dir;
  Rng rng(16);
  const std::string data = numbered_u32_records(rng, 5000, 50, true);
  gsort::RunCompression c;
  c.enabled = true;
  c.frame_bytes = 1000;  // 62 records a frame
  {
    gsort::RunWriter w(dir.file("run"), 16, c);
    w.append(reinterpret_cast<const uint8_t*>(data.data()), 3000);
    w.append(reinterpret_cast<const uint8_t*>(data.data()) + 3000 * 16, 2000);
    w.finish();
    EXPECT_LT(w.file_bytes(), data.size() / 2);
  }
  for (uint64_t batch : {1, 7, 62, 63, 500, 6000}) {
    gsort::RunReader r(dir.file("run"), 16);
    EXPECT_TRUE(r.compressed());
    EXPECT_EQ(r.record_count(), 5000u);
    std::string back(static_cast<size_t>(batch) * 16, '\0'), all;
    for (;;) {
      const uint64_t n = r.read(reinterpret_cast<uint8_t*>(back.data()), batch);
      if (n == 0) break;
      all.append(back.data(), n * 16);
    }
    EXPECT_TRUE(all == data) << "batch " << batch;
  }
}

TEST(ZstdRunFile, CorruptedFrameIsADataErrorBeforeItsRecordsAreUsed) {
  TempDir dir;
  Rng rng(17);
  const std::string data = numbered_u32_records(rng, 1000, 1000);
  gsort::RunCompression c;
  c.enabled = true;
  c.frame_bytes = 100 * 16;  // 10 frames of 100 records
  {
    gsort::RunWriter w(dir.file("run"), 16, c);
    w.append(reinterpret_cast<const uint8_t*>(data.data()), 1000);
    w.finish();
  }
  const std::string good = read_file(dir.file("run"));
  // Find the 4th frame: 64-byte header, then [16-byte frame header, frame]...
  size_t at = 64;
  for (int f = 0; f < 3; ++f) {
    uint32_t stored = 0;
    std::memcpy(&stored, &good[at], 4);
    at += 16 + stored;
  }
  uint32_t stored = 0;
  std::memcpy(&stored, &good[at], 4);
  for (size_t offset : {size_t{16 + 2}, size_t{16} + stored / 2, size_t{16} + stored - 1, size_t{5}, size_t{9}}) {
    SCOPED_TRACE("byte " + std::to_string(offset) + " of frame 4");
    std::string bad = good;
    bad[at + offset] ^= 0x10;
    write_file(dir.file("bad"), bad);
    gsort::RunReader r(dir.file("bad"), 16);
    std::vector<uint8_t> buf(100 * 16);
    for (int f = 0; f < 3; ++f) ASSERT_EQ(r.read(buf.data(), 100), 100u) << "frame " << f + 1 << " is intact";
    try {
      r.read(buf.data(), 100);
      ADD_FAILURE() << "the damaged frame was handed out";
    } catch (const gsort::DataError& e) {
      EXPECT_NE(std::string(e.what()).find(dir.file("bad")), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gsort_test
