// The GPU partition (src/distributed/partition/gpu_partition.h) against the host's
// Partitioner, which partition_test.cpp checks against a reference: the
// same bucket sizes and the same bytes in every bucket, for every key kind,
// -r, wide keys that tie on their first word, heavy duplicates, record
// sizes that no word divides, slices that start inside a page, and the
// two-call scatter of the whole-slice exchange. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/distributed/partition/gpu_partition.h"
#include "src/distributed/partition/partition.h"
#include "src/distributed/partition/splitters.h"
#include "src/keys/key_layout.h"
#if GSORT_HAVE_CUDA
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#endif

namespace {

constexpr uint64_t kFirstIndex = 123456789;

bool have_gpu() {
#if GSORT_HAVE_CUDA
  return gsort::gpu_usable(0, nullptr);
#else
  return false;
#endif
}

struct Shape {
  std::string name;
  std::vector<gsort::KeyField> fields;
  uint32_t record_size;
  bool reverse;
};

gsort::KeyField field(uint32_t offset, uint32_t length, gsort::KeyKind kind, bool descending = false) {
  gsort::KeyField f;
  f.offset = offset;
  f.length = length;
  f.kind = kind;
  f.descending = descending;
  return f;
}

std::vector<Shape> shapes() {
  using gsort::KeyKind;
  return {
      {"gensort", {field(0, 10, KeyKind::kBytes)}, 100, false},
      {"u64_16", {field(0, 8, KeyKind::kUnsigned)}, 16, false},
      {"u64_16_reverse", {field(0, 8, KeyKind::kUnsigned)}, 16, true},
      {"f64_desc", {field(4, 8, KeyKind::kFloat, true)}, 12, false},
      {"f32_i16_bytes", {field(0, 4, KeyKind::kFloat), field(4, 2, KeyKind::kSigned), field(6, 7, KeyKind::kBytes)},
       13, false},
      {"wide_bytes_6", {field(0, 6, KeyKind::kBytes)}, 6, false},
      {"long_key_24", {field(1, 20, KeyKind::kBytes)}, 23, false},
  };
}

// Records copied from `distinct` random templates, so that keys repeat;
// floats get NaN, -0.0, +0.0 and infinities among them; long keys share
// their first 12 bytes, so that ties reach past the first word.
std::vector<uint8_t> make_records(const Shape& shape, uint64_t count, unsigned distinct, unsigned seed) {
  std::mt19937_64 rng(seed);
  const uint32_t rs = shape.record_size;
  std::vector<uint8_t> templates(static_cast<size_t>(distinct) * rs);
  for (auto& b : templates) b = static_cast<uint8_t>(rng());
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), -0.0, 0.0,
                             std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (unsigned t = 0; t < distinct; ++t) {
    uint8_t* r = &templates[static_cast<size_t>(t) * rs];
    for (const gsort::KeyField& f : shape.fields) {
      if (f.kind == gsort::KeyKind::kFloat && t % 3 == 0) {
        const double d = specials[t / 3 % 5];
        if (f.length == 8) {
          std::memcpy(r + f.offset, &d, 8);
        } else {
          const float s = static_cast<float>(d);
          std::memcpy(r + f.offset, &s, 4);
        }
      }
      if (f.length > 16) std::memset(r + f.offset, 0x5a, 12);
    }
  }
  std::vector<uint8_t> records(count * rs);
  for (uint64_t i = 0; i < count; ++i) {
    std::memcpy(&records[i * rs], &templates[(rng() % distinct) * rs], rs);
  }
  return records;
}

// Splitters at evenly spaced records, in position order.
gsort::Splitters splitters_for(const gsort::KeyLayout& layout, const std::vector<uint8_t>& records, int ranks) {
  const uint32_t rs = layout.record_size(), bytes = layout.width() + 8;
  const uint64_t count = records.size() / rs;
  std::vector<std::vector<uint8_t>> positions;
  for (int s = 1; s < ranks && count > 0; ++s) {
    const uint64_t row = count * static_cast<uint64_t>(s) / static_cast<uint64_t>(ranks);
    std::vector<uint8_t> p(bytes);
    gsort::write_order_position(layout, &records[row * rs], kFirstIndex + row, p.data());
    positions.push_back(p);
  }
  std::sort(positions.begin(), positions.end());
  std::vector<uint8_t> flat;
  for (const auto& p : positions) flat.insert(flat.end(), p.begin(), p.end());
  return gsort::Splitters(bytes, flat);
}

struct Buckets {
  std::vector<uint64_t> counts;
  std::vector<std::vector<uint8_t>> bytes;
};

// Scatters in two calls: every other rank's bucket, then `self`'s.
Buckets scatter_all(gsort::SlicePartition& partition, const uint8_t* records, uint32_t rs, int self) {
  Buckets out;
  out.counts = partition.counts();
  const size_t ranks = out.counts.size();
  out.bytes.resize(ranks);
  std::vector<uint8_t*> others(ranks, nullptr), mine(ranks, nullptr);
  for (size_t d = 0; d < ranks; ++d) {
    out.bytes[d].assign(out.counts[d] * rs + 1, 0xEE);  // one guard byte past each bucket
    (static_cast<int>(d) == self ? mine : others)[d] = out.bytes[d].data();
  }
  partition.scatter(records, others, gsort::BucketMemory::kPrivate);
  partition.scatter(records, mine, gsort::BucketMemory::kShared);
  return out;
}

void expect_same_partition(const Shape& shape, uint64_t count, unsigned distinct, int ranks, size_t misalign) {
  const gsort::KeyLayout layout(shape.fields, shape.record_size, shape.reverse);
  const uint32_t rs = shape.record_size;
  const std::vector<uint8_t> made = make_records(shape, count, distinct, 11);
  // The slice starts `misalign` bytes into its buffer, as a mapped slice
  // starts inside a page.
  std::vector<uint8_t> buffer(misalign + made.size() + 1);
  std::copy(made.begin(), made.end(), buffer.begin() + static_cast<ptrdiff_t>(misalign));
  const uint8_t* records = buffer.data() + misalign;
  const gsort::Splitters splitters = splitters_for(layout, made, ranks);

  gsort::ThreadPool pool(4);
  gsort::Partitioner host(layout, splitters, ranks, &pool);
  host.classify(records, count, kFirstIndex);
  const Buckets expected = scatter_all(host, records, rs, ranks / 2);

  gsort::SortConfig config;
  std::string why;
  auto gpu = gsort::partition_on_gpu(config, layout, splitters, ranks, records, count, kFirstIndex, &why);
  ASSERT_NE(gpu, nullptr) << why;
  const Buckets got = scatter_all(*gpu, records, rs, ranks / 2);
  ASSERT_EQ(got.counts, expected.counts);
  for (int d = 0; d < ranks; ++d) {
    EXPECT_EQ(got.bytes[static_cast<size_t>(d)], expected.bytes[static_cast<size_t>(d)]) << "bucket " << d;
  }
}

class GpuPartition : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  }
};

TEST_F(GpuPartition, MatchesTheHostForEveryKeyShape) {
  for (const Shape& shape : shapes()) {
    SCOPED_TRACE(shape.name);
    expect_same_partition(shape, 100000, 1000, 4, 0);
    expect_same_partition(shape, 70001, 70001, 3, 5);
  }
}

TEST_F(GpuPartition, HeavyDuplicatesAndAllEqualKeysSplitByRecordNumber) {
  const Shape shape = shapes()[1];
  expect_same_partition(shape, 200000, 3, 4, 0);
  expect_same_partition(shape, 200000, 1, 5, 0);
  expect_same_partition(shapes()[6], 50000, 2, 7, 3);  // ties past the first word
}

TEST_F(GpuPartition, ManyRanksAndTinySlices) {
  const Shape shape = shapes()[0];
  expect_same_partition(shape, 100000, 100000, 300, 0);  // 16-bit destinations, 9 bits sorted
  expect_same_partition(shape, 1, 1, 2, 0);
  expect_same_partition(shape, 2, 2, 4, 1);
  expect_same_partition(shape, 65537, 100, 2, 0);
}

// The slice crosses in pieces of 512 MiB of whole pages: 100-byte records
// straddle their ends, and the slice starts inside a page.
TEST_F(GpuPartition, SlicesOfSeveralPiecesMatchTheHost) {
  expect_same_partition(shapes()[0], 12000000, 100000, 3, 7);
}

TEST_F(GpuPartition, RefusesWhereItShouldNot) {
  const Shape shape = shapes()[1];
  const gsort::KeyLayout layout(shape.fields, shape.record_size, false);
  const std::vector<uint8_t> records = make_records(shape, 1000, 1000, 3);
  const gsort::Splitters splitters = splitters_for(layout, records, 2);
  std::string why;
  gsort::SortConfig cpu;
  cpu.backend = gsort::BackendChoice::kCpu;
  EXPECT_EQ(gsort::partition_on_gpu(cpu, layout, splitters, 2, records.data(), 1000, 0, &why), nullptr);
  EXPECT_EQ(why, "--backend cpu");
  gsort::SortConfig small;
  small.gpu_memory = 1000;  // bytes: less than the slice itself
  EXPECT_EQ(gsort::partition_on_gpu(small, layout, splitters, 2, records.data(), 1000, 0, &why), nullptr);
  EXPECT_NE(why.find("device memory"), std::string::npos) << why;
}

}  // namespace
