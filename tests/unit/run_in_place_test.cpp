// io/run/run_in_place.h: a run finished in memory is byte for byte the file
// RunWriter writes for the same records, for any count (0, one block, a
// short last block), and reads back whole.
#include <gtest/gtest.h>

#include <string>

#include "io/run/run_file.h"
#include "io/run/run_in_place.h"
#include "src/core/thread_pool.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

TEST(RunInPlace, TheBytesRunWriterWrites) {
  TempDir dir;
  Rng rng(11);
  gsort::ThreadPool pool(3);
  for (const uint32_t rs : {1u, 16u, 100u}) {
    const uint64_t per_block = gsort::run_block_records(rs);
    for (const uint64_t records : {uint64_t{0}, uint64_t{1}, per_block, per_block + 1, 5 * per_block - 3}) {
      SCOPED_TRACE(std::to_string(records) + " records of " + std::to_string(rs) + " bytes");
      const std::string data = rng.bytes(records * rs);
      const std::string path = dir.file("run");
      {
        gsort::RunWriter w(path, rs);
        w.append(reinterpret_cast<const uint8_t*>(data.data()), records);
        w.finish();
      }
      std::string image(gsort::plain_run_bytes(records, rs), '\0');
      image.replace(sizeof(gsort::RunHeader), data.size(), data);
      gsort::finish_plain_run(reinterpret_cast<uint8_t*>(&image[0]), records, rs, gsort::RunIdentity(), pool);
      EXPECT_TRUE(image == read_file(path)) << "the run in place differs from RunWriter's";
      gsort::RunReader reader(path, rs);
      std::string back(data.size() + rs, '\0');
      EXPECT_EQ(reader.read(reinterpret_cast<uint8_t*>(&back[0]), records + 1), records);
      EXPECT_TRUE(back.substr(0, data.size()) == data);
    }
  }
}

}  // namespace
}  // namespace gsort_test
