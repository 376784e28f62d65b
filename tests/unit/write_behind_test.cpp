// WriteBehind over buffers of its own and over borrowed ones: the sink gets
// every submitted block, in order, from the buffers it was given.
#include "io/output/write_behind.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void write_through(gsort::WriteBehind& w) {
  for (int block = 0; block < 40; ++block) {
    const std::string text = "block " + std::to_string(block) + std::string(static_cast<size_t>(block % 7), '.');
    std::memcpy(w.buffer(), text.data(), text.size());
    w.submit(text.size());
  }
  w.finish();
}

std::string expected() {
  std::string all;
  for (int block = 0; block < 40; ++block) {
    all += "block " + std::to_string(block) + std::string(static_cast<size_t>(block % 7), '.');
  }
  return all;
}

TEST(WriteBehind, HandsEveryBlockToTheSinkInOrder) {
  std::string sunk;
  gsort::WriteBehind w([&sunk](const uint8_t* d, size_t n) { sunk.append(reinterpret_cast<const char*>(d), n); }, 64);
  write_through(w);
  EXPECT_EQ(sunk, expected());
}

TEST(WriteBehind, FillsOnlyTheBorrowedBuffersItIsGiven) {
  std::vector<std::vector<uint8_t>> storage(3, std::vector<uint8_t>(64));
  std::vector<uint8_t*> borrowed;
  for (auto& b : storage) borrowed.push_back(b.data());
  std::string sunk;
  std::set<const uint8_t*> from;
  gsort::WriteBehind w(
      [&](const uint8_t* d, size_t n) {
        from.insert(d);
        sunk.append(reinterpret_cast<const char*>(d), n);
      },
      64, borrowed);
  write_through(w);
  EXPECT_EQ(sunk, expected());
  // Which of the three the writer reaches depends on how fast it frees them,
  // so the test asks only that every block came from one of them; the first
  // two blocks are filled before anything can be freed, so two at least.
  const std::set<const uint8_t*> given(borrowed.begin(), borrowed.end());
  for (const uint8_t* d : from) EXPECT_EQ(given.count(d), 1u) << "a block from a buffer it was not given";
  EXPECT_GE(from.size(), 2u);
}

TEST(WriteBehind, RefusesFewerThanTwoBorrowedBuffers) {
  std::vector<uint8_t> one(64);
  const auto sink = [](const uint8_t*, size_t) {};
  EXPECT_THROW(gsort::WriteBehind(sink, 64, std::vector<uint8_t*>{one.data()}), std::invalid_argument);
}

}  // namespace
