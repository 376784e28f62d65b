// A held run gathered where it is held (src/merge/device/device_line_gather.h):
// the GPU's store puts a sorted chunk's lines in order into its memory,
// byte for byte what the host's writer would have copied in, each run
// after the one before; where --gpu-memory leaves no room for its scratch
// it appends nothing, and the caller's writer takes over.
// Skips without a usable GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "src/algo/line_index.h"
#include "src/core/device_budget.h"
#include "src/merge/device/held_runs_on_device.h"
#include "tests/gpu/require_gpu.h"

namespace gsort {
namespace {

// A chunk of `count` lines of 0 to 400 bytes after `skip` bytes of
// another chunk's tail, and an order of them (any permutation).
struct Chunk {
  std::string text;
  std::vector<uint64_t> starts;
  std::vector<uint32_t> order;
  LineSpan span() const { return LineSpan{reinterpret_cast<const uint8_t*>(text.data()), starts.data(), order.size()}; }
  // The lines in order, each with its terminator: what the run must hold.
  std::string expected() const {
    std::string out;
    for (uint32_t i : order) out.append(text, starts[i], starts[i + 1] - starts[i]);
    return out;
  }
};

Chunk chunk(uint64_t seed, uint32_t count, uint64_t skip) {
  std::mt19937_64 rng(seed);
  Chunk c;
  c.text.assign(skip, 'x');
  for (uint32_t i = 0; i < count; ++i) {
    c.starts.push_back(c.text.size());
    const uint64_t len = rng() % 50 == 0 ? rng() % 400 : rng() % 40;
    for (uint64_t k = 0; k < len; ++k) c.text.push_back(static_cast<char>('a' + rng() % 26));
    c.text.push_back('\n');
  }
  c.starts.push_back(c.text.size());
  c.order.resize(count);
  std::iota(c.order.begin(), c.order.end(), 0u);
  std::shuffle(c.order.begin(), c.order.end(), rng);
  return c;
}

std::string run_bytes(const HeldRuns& store, size_t r) {
  const std::unique_ptr<MergeRun> run = store.run(r);
  std::string out(run->size(), '\0');
  run->read_span(0, run->size(), reinterpret_cast<uint8_t*>(out.data()), nullptr);
  return out;
}

TEST(HeldRunsGather, EachRunIsGatheredInOrderWhereItIsHeld) {
  GSORT_REQUIRE_GPU();
  const Chunk first = chunk(1, 200000, 0), second = chunk(2, 150000, 4093);
  const uint64_t bytes = first.span().bytes() + second.span().bytes();
  std::string why;
  std::unique_ptr<HeldRuns> store = hold_runs_on_device(0, bytes, nullptr, &why);
  ASSERT_NE(store, nullptr) << why;
  ASSERT_TRUE(store->gather_lines(first.span(), first.order.data()));
  store->end_run();
  ASSERT_TRUE(store->gather_lines(second.span(), second.order.data()));
  store->end_run();
  EXPECT_EQ(store->gathered(), 2u);
  ASSERT_EQ(store->runs(), 2u);
  EXPECT_EQ(store->used(), bytes);
  EXPECT_TRUE(run_bytes(*store, 0) == first.expected()) << "the first run differs";
  EXPECT_TRUE(run_bytes(*store, 1) == second.expected()) << "the second run differs";
}

TEST(HeldRunsGather, WithoutRoomForItsScratchItAppendsNothing) {
  GSORT_REQUIRE_GPU();
  const Chunk c = chunk(3, 100000, 17);
  const uint64_t bytes = c.span().bytes();
  // --gpu-memory that holds the store and little more.
  auto budget = std::make_shared<DeviceBudget>(bytes + 4096);
  std::string why;
  std::unique_ptr<HeldRuns> store = hold_runs_on_device(0, bytes, budget, &why);
  ASSERT_NE(store, nullptr) << why;
  EXPECT_FALSE(store->gather_lines(c.span(), c.order.data()));
  EXPECT_EQ(store->used(), 0u);
  EXPECT_EQ(store->gathered(), 0u);
  // The writer's way still fills the run.
  const std::string expected = c.expected();
  store->append(reinterpret_cast<const uint8_t*>(expected.data()), expected.size());
  store->end_run();
  EXPECT_TRUE(run_bytes(*store, 0) == expected);
}

}  // namespace
}  // namespace gsort
