// Compressed run files on the library: RunWriter / RunReader round trips
// in any batch size and on a pool, a damaged frame is a DataError before
// any of its records is handed out, and so are frames out of order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "io/run/run_file.h"
#include "src/core/errors.h"
#include "src/core/thread_pool.h"
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

// Frames compressed on several threads, one group compressed while the
// group before is written: the run reads back whole and in order.
TEST(ZstdRunFile, FramesCompressedOnAPoolWhileTheLastGroupIsWrittenKeepTheirOrder) {
  TempDir dir;
  Rng rng(18);
  const std::string data = numbered_u32_records(rng, 20000, 20000, true);
  gsort::ThreadPool pool(4);
  gsort::RunCompression c;
  c.enabled = true;
  c.frame_bytes = 160;  // 10 records a frame: 2000 frames, 500 groups of 4
  c.pool = &pool;
  {
    gsort::RunWriter w(dir.file("run"), 16, c);
    for (size_t at = 0; at < 20000;) {
      const size_t n = std::min<size_t>(20000 - at, 1 + at % 997);
      w.append(reinterpret_cast<const uint8_t*>(data.data()) + at * 16, n);
      at += n;
    }
    w.finish();
  }
  gsort::RunReader r(dir.file("run"), 16);
  std::string back(20000 * 16, '\0');
  ASSERT_EQ(r.read(reinterpret_cast<uint8_t*>(back.data()), 20000), 20000u);
  EXPECT_TRUE(back == data);
}

// Each frame checks its own records; the run's checksum, over the frames'
// checksums in order, finds two intact frames that changed places.
TEST(ZstdRunFile, SwappedFramesAreADataError) {
  TempDir dir;
  Rng rng(19);
  std::string data(1000 * 16, '\0');  // random bytes: zstd stores them, every frame one size
  for (size_t i = 0; i < data.size(); i += 8) {
    const uint64_t word = rng.next();
    std::memcpy(&data[i], &word, 8);
  }
  gsort::RunCompression c;
  c.enabled = true;
  c.frame_bytes = 100 * 16;
  {
    gsort::RunWriter w(dir.file("run"), 16, c);
    w.append(reinterpret_cast<const uint8_t*>(data.data()), 1000);
    w.finish();
  }
  std::string run = read_file(dir.file("run"));
  std::vector<size_t> starts;
  for (size_t at = 64; at < run.size();) {
    starts.push_back(at);
    uint32_t stored = 0;
    std::memcpy(&stored, &run[at], 4);
    at += 16 + stored;
  }
  ASSERT_EQ(starts.size(), 10u);
  const size_t length = starts[3] - starts[2];
  ASSERT_EQ(starts[4] - starts[3], length) << "frames 3 and 4 must be the same size to swap";
  const std::string third = run.substr(starts[2], length);
  run.replace(starts[2], length, run.substr(starts[3], length));
  run.replace(starts[3], length, third);
  write_file(dir.file("bad"), run);
  gsort::RunReader r(dir.file("bad"), 16);
  std::vector<uint8_t> buf(1000 * 16);
  EXPECT_THROW(r.read(buf.data(), 1000), gsort::DataError);
}

}  // namespace
}  // namespace gsort_test
