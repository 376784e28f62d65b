// The output writer over a mapped range of the output file (MappedWindow
// over MappedOutputRange) against the write-behind path: the same bytes for
// every blocking, with -u, and exact fills; a range that would overflow is
// an error, never a write past it; a disk without room fails before a byte.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "io/file/file.h"
#include "io/output/mapped_output_range.h"
#include "io/output/mapped_window.h"
#include "src/core/errors.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/output/output_writer.h"
#include "tests/support/record_gen.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tmpfs.h"

namespace gsort_test {
namespace {

constexpr uint32_t kRs = 16;

// Read and write, as the output's temporary file is (a shared mapping for
// writing needs both).
gsort::File create_rw(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  EXPECT_GE(fd, 0) << path;
  return gsort::File(fd, path, true);
}

// records[order] through `out`, in appends of `step` gathered entries and
// single records (the merge's path) in turn.
void write_all(gsort::OutputWriter& out, gsort::ThreadPool& pool, const std::string& records,
               const std::vector<uint32_t>& order, uint64_t step) {
  const auto* base = reinterpret_cast<const uint8_t*>(records.data());
  for (uint64_t at = 0; at < order.size();) {
    const uint64_t n = std::min<uint64_t>(step, order.size() - at);
    out.append_gathered(pool, base, order.data() + at, n);
    at += n;
    if (at < order.size()) out.append(base + uint64_t{order[at++]} * kRs);
  }
  out.finish();
}

std::string through_write_behind(gsort::ThreadPool& pool, const std::string& records,
                                  const std::vector<uint32_t>& order, const gsort::KeyLayout* unique, uint64_t step) {
  std::string bytes;
  gsort::OutputWriter out([&](const uint8_t* d, size_t n) { bytes.append(reinterpret_cast<const char*>(d), n); }, kRs,
                          4096, unique);
  write_all(out, pool, records, order, step);
  return bytes;
}

std::string through_mapping(gsort::ThreadPool& pool, const std::string& records, const std::vector<uint32_t>& order,
                            const gsort::KeyLayout* unique, uint64_t step, uint64_t block) {
  TempDir dir;
  gsort::File file = create_rw(dir.file("out"));
  const uint64_t bytes = order.size() * kRs;
  std::unique_ptr<gsort::MappedOutputRange> range = gsort::MappedOutputRange::map(file, 0, bytes);
  EXPECT_TRUE(range) << "fallocate and mmap work on the test's file system";
  if (!range) return "";
  auto window = std::make_unique<gsort::MappedWindow>(range->data(), bytes, block);
  const gsort::MappedWindow* seen = window.get();
  gsort::OutputWriter out(std::move(window), kRs, unique);
  write_all(out, pool, records, order, step);
  const uint64_t filled = seen->filled();
  EXPECT_EQ(filled, out.records_written() * kRs);
  range->finish(false);
  EXPECT_EQ(::ftruncate(file.fd(), static_cast<off_t>(filled)), 0);
  return read_file(dir.file("out"));
}

TEST(MappedOutput, SameBytesAsTheWriteBehindPathForEveryBlocking) {
  gsort::ThreadPool pool(3);
  Rng rng(5);
  const std::string records = numbered_u32_records(rng, 5000, 40);  // heavy duplicates for -u
  std::vector<uint32_t> order(5000);
  std::iota(order.begin(), order.end(), 0u);
  std::reverse(order.begin(), order.end());
  const gsort::KeyLayout layout({gsort::parse_key_spec("0:u32")}, kRs, false);
  for (const gsort::KeyLayout* unique : {static_cast<const gsort::KeyLayout*>(nullptr), &layout}) {
    for (uint64_t step : {1u, 7u, 1000u, 5000u}) {
      for (uint64_t block : {uint64_t{kRs}, uint64_t{kRs} * 3, uint64_t{4096}, uint64_t{1} << 20}) {
        SCOPED_TRACE(std::to_string(step) + " " + std::to_string(block) + (unique ? " -u" : ""));
        const std::string want = through_write_behind(pool, records, order, unique, step);
        EXPECT_TRUE(through_mapping(pool, records, order, unique, step, block) == want) << "the bytes differ";
      }
    }
  }
}

TEST(MappedOutput, OverflowingTheRangeIsAnError) {
  TempDir dir;
  gsort::File file = create_rw(dir.file("out"));
  auto range = gsort::MappedOutputRange::map(file, 0, 2 * kRs);
  ASSERT_TRUE(range);
  gsort::OutputWriter out(std::make_unique<gsort::MappedWindow>(range->data(), 2 * kRs, 4096), kRs, nullptr);
  const std::string record(kRs, 'x');
  const auto* r = reinterpret_cast<const uint8_t*>(record.data());
  out.append(r);
  out.append(r);
  EXPECT_THROW(out.append(r), gsort::Error);
  range->finish(false);
}

TEST(MappedOutput, NoRoomIsAnErrorBeforeAnyByte) {
  TempDir dir;
  const std::string small = dir.subdir("small");
  Tmpfs tmpfs(small, "1m");
  if (!tmpfs.mounted()) GTEST_SKIP() << "no tmpfs: " << tmpfs.error();
  gsort::File file = create_rw(small + "/out");
  EXPECT_THROW(gsort::MappedOutputRange::map(file, 0, uint64_t{64} << 20), gsort::IoError);
  EXPECT_EQ(file.size(), 0u);
}

}  // namespace
}  // namespace gsort_test
