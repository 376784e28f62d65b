// The run formation's chunk reader (src/pipeline/chunk_reader.h): every
// record of a plain file, in order, in chunks of the plan's size, read ahead
// into the other buffer, whether one thread reads or several (the readers'
// own pool, which a sort on fewer than 8 threads never makes); a chunk
// shorter than the plan's ends the input, and several inputs follow one
// another.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "io/input/input_set.h"
#include "src/chunk_sort/cpu/cpu_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/pipeline/chunk_reader.h"
#include "tests/support/record_gen.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace {

using gsort_test::TempDir;

std::string random_text(size_t bytes, uint64_t seed) {
  gsort_test::Rng rng(seed);
  const std::vector<uint8_t> b = gsort_test::random_bytes(bytes, rng);
  return std::string(b.begin(), b.end());
}

constexpr uint32_t kRs = 100;

// Every record the reader hands over, chunk after chunk, and the chunks' sizes.
std::string read_all(const std::vector<std::string>& paths, uint64_t chunk, unsigned readers,
                              std::vector<uint64_t>* counts) {
  gsort::ThreadPool pool(2);
  const gsort::KeyLayout layout({gsort::parse_key_spec("0:10")}, kRs, false);
  std::unique_ptr<gsort::SortBackend> backend = gsort::make_cpu_backend(layout, pool);
  gsort::InputSet inputs(paths, kRs);
  gsort::ChunkReader chunks(inputs, *backend, chunk, kRs, readers);
  std::string got;
  chunks.read_first();
  do {
    counts->push_back(chunks.count());
    chunks.read_ahead();
    got.append(reinterpret_cast<const char*>(chunks.records()), chunks.count() * kRs);
  } while (chunks.advance());
  return got;
}

TEST(ChunkReader, EveryRecordInOrderByOneReaderOrSeveral) {
  const TempDir dir;
  // A chunk of 1 MiB or more is read in 256 KiB pieces shared by the readers.
  const std::string a = random_text(300000 * kRs, 5), b = random_text(1234 * kRs, 6);
  gsort_test::write_file(dir.file("a"), a);
  gsort_test::write_file(dir.file("b"), b);
  const std::string both = a + b;
  for (unsigned readers : {1u, 3u}) {
    for (uint64_t chunk : {uint64_t{100000}, uint64_t{300000}, uint64_t{1000000}}) {
      SCOPED_TRACE("readers " + std::to_string(readers) + ", chunks of " + std::to_string(chunk));
      std::vector<uint64_t> counts;
      const std::string got = read_all({dir.file("a"), dir.file("b")}, chunk, readers, &counts);
      EXPECT_TRUE(got == both) << got.size() << " bytes against " << both.size();
      // Full chunks, then one short one (empty where the input ends on a chunk's end).
      for (size_t i = 0; i + 1 < counts.size(); ++i) EXPECT_EQ(counts[i], chunk);
      ASSERT_FALSE(counts.empty());
      EXPECT_LT(counts.back(), chunk);
    }
  }
}

TEST(ChunkReader, AQuarterOfTheSortsThreadsReadAtMostFour) {
  EXPECT_EQ(gsort::ChunkReader::readers_for(1), 1u);
  EXPECT_EQ(gsort::ChunkReader::readers_for(7), 1u);
  EXPECT_EQ(gsort::ChunkReader::readers_for(8), 2u);
  EXPECT_EQ(gsort::ChunkReader::readers_for(16), 4u);
  EXPECT_EQ(gsort::ChunkReader::readers_for(128), 4u);
}

TEST(ChunkReader, AnEmptyInputIsOneEmptyChunk) {
  const TempDir dir;
  gsort_test::write_file(dir.file("e"), "");
  for (unsigned readers : {1u, 3u}) {
    std::vector<uint64_t> counts;
    EXPECT_TRUE(read_all({dir.file("e")}, 1000, readers, &counts).empty());
    EXPECT_EQ(counts, std::vector<uint64_t>{0});
  }
}

}  // namespace
