// The content check's pieces and views (src/distributed/partition/
// content_pieces.h, src/distributed/ranks/input_views.h): the pieces tile
// the concatenated inputs exactly, each within one file; every view hashes
// every piece exactly once, each rank its own slice among them; ranks share
// a view only where their host, kernel and files are the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "src/distributed/partition/content_pieces.h"
#include "src/distributed/partition/input_slice.h"
#include "src/distributed/ranks/input_views.h"

namespace {

using gsort::ContentPiece;
using Slices = std::vector<std::vector<ContentPiece>>;

std::vector<uint64_t> starts_of(const std::vector<uint64_t>& file_records) {
  std::vector<uint64_t> starts{0};
  for (uint64_t n : file_records) starts.push_back(starts.back() + n);
  return starts;
}

// The pieces, in order, cover every byte of every file once, each within its
// file, none empty, numbered 0, 1, ...; each slice's pieces cover exactly it.
void expect_tiling(const std::vector<uint64_t>& file_records, uint32_t record_size, int ranks) {
  const std::vector<uint64_t> starts = starts_of(file_records);
  const Slices slices = gsort::content_pieces(starts, record_size, ranks);
  ASSERT_EQ(slices.size(), static_cast<size_t>(ranks));
  size_t index = 0, file = 0;
  uint64_t offset = 0;  // in `file`, bytes
  for (int r = 0; r < ranks; ++r) {
    const gsort::RecordRange slice = gsort::rank_slice(starts.back(), r, ranks);
    uint64_t covered = 0;
    for (const ContentPiece& p : slices[static_cast<size_t>(r)]) {
      while (offset == file_records[file] * record_size) {  // past the files that end here
        ++file;
        offset = 0;
      }
      EXPECT_EQ(p.index, index++);
      EXPECT_EQ(p.file, file);
      EXPECT_EQ(p.offset, offset);
      EXPECT_GT(p.bytes, 0u);
      EXPECT_LE(p.offset + p.bytes, file_records[file] * record_size);
      offset += p.bytes;
      covered += p.bytes;
    }
    EXPECT_EQ(covered, slice.size() * record_size) << "slice " << r;
  }
  // Past the last piece, nothing: its file ends there, and the files after it are empty.
  uint64_t left = 0;
  for (size_t f = file; f < file_records.size(); ++f) left += file_records[f] * record_size;
  EXPECT_EQ(left, offset) << "files " << file_records.size() << ", ranks " << ranks;
}

TEST(ContentPieces, TileTheInputsWithinTheirFiles) {
  const std::vector<std::vector<uint64_t>> layouts = {
      {100000}, {7001, 0, 13, 9000}, {0, 0, 5}, {1}, {0}, {3, 3, 3, 3, 3, 3, 3}, {2, 0, 0, 1000003, 0}};
  for (const auto& layout : layouts) {
    for (uint32_t record_size : {1u, 7u, 100u}) {
      for (int ranks = 1; ranks <= 7; ++ranks) expect_tiling(layout, record_size, ranks);
    }
  }
}

TEST(ContentPieces, ASliceSpanningFilesIsCutAtTheirEnds) {
  // 10 + 0 + 10 records, two ranks: slice 0 is file 0, slice 1 is file 2.
  const Slices three = gsort::content_pieces({0, 10, 10, 20}, 4, 2);
  ASSERT_EQ(three[0].size(), 1u);
  ASSERT_EQ(three[1].size(), 1u);
  EXPECT_EQ(three[1][0].file, 2u);
  // One rank over the three: one piece in each non-empty file.
  const Slices one = gsort::content_pieces({0, 10, 10, 20}, 4, 1);
  ASSERT_EQ(one[0].size(), 2u);
  EXPECT_EQ(one[0][0].bytes, 40u);
  EXPECT_EQ(one[0][1].file, 2u);
  EXPECT_EQ(one[0][1].offset, 0u);
}

// Every view hashes every piece exactly once, and each rank hashes its own
// slice; a view's ranks share the others' slices within one of each other.
void expect_every_view_covers_all(const std::vector<std::string>& keys, const Slices& slices) {
  const gsort::InputViews views(keys);
  const int ranks = views.ranks();
  size_t pieces = 0;
  for (const auto& s : slices) pieces += s.size();
  for (int view = 0; view < ranks; ++view) {
    if (views.view_of(view) != view) continue;  // not a view's lowest rank
    std::vector<int> times(pieces, 0);
    size_t least = SIZE_MAX, most = 0;
    for (int r = 0; r < ranks; ++r) {
      if (views.view_of(r) != view) continue;
      const std::vector<ContentPiece> mine = gsort::pieces_to_hash(slices, views, r);
      for (const ContentPiece& p : mine) ++times[p.index];
      for (const ContentPiece& p : slices[static_cast<size_t>(r)]) {
        bool found = false;
        for (const ContentPiece& m : mine) found = found || m.index == p.index;
        EXPECT_TRUE(found) << "rank " << r << " does not hash its own slice";
      }
      // Slices are of one size (within a record): count the slices taken.
      size_t taken = 0;
      for (int s = 0; s < ranks; ++s) {
        for (const ContentPiece& m : mine) {
          if (!slices[static_cast<size_t>(s)].empty() && m.index == slices[static_cast<size_t>(s)][0].index) ++taken;
        }
      }
      least = std::min(least, taken);
      most = std::max(most, taken);
    }
    for (size_t i = 0; i < pieces; ++i) EXPECT_EQ(times[i], 1) << "view " << view << ", piece " << i;
    EXPECT_LE(most, least + 1) << "view " << view;
  }
}

TEST(ContentPieces, EveryViewHashesEveryPieceOnce) {
  std::mt19937 rng(7);
  for (int ranks = 1; ranks <= 9; ++ranks) {
    const Slices slices = gsort::content_pieces(starts_of({5000, 0, 17, 3000}), 12, ranks);
    expect_every_view_covers_all(std::vector<std::string>(static_cast<size_t>(ranks), "one host"), slices);
    std::vector<std::string> own;
    for (int r = 0; r < ranks; ++r) own.push_back("rank " + std::to_string(r));
    expect_every_view_covers_all(own, slices);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<std::string> keys;
      for (int r = 0; r < ranks; ++r) keys.push_back("view " + std::to_string(rng() % 3));
      expect_every_view_covers_all(keys, slices);
    }
  }
}

TEST(InputViews, RanksWithEqualKeysShareAView) {
  const gsort::InputViews views({"b", "a", "b", "c", "a"});
  EXPECT_EQ(views.views(), 3);
  EXPECT_EQ(views.ranks(), 5);
  EXPECT_EQ(views.view_of(0), 0);
  EXPECT_EQ(views.view_of(1), 1);
  EXPECT_EQ(views.view_of(2), 0);
  EXPECT_EQ(views.view_of(3), 3);
  EXPECT_EQ(views.view_of(4), 1);
}

TEST(InputViews, AViewIsOneHostAndTheSameFiles) {
  gsort::RankGroup group;
  gsort::InputIdentity a, b;
  a.name = b.name = "in";
  a.device = b.device = 2049;
  a.inode = 12;
  b.inode = 13;
  const std::string key = gsort::view_key(group, {a, a});
  group.rank = 1;  // another rank of the same host: the same view, where the kernel is known
  EXPECT_EQ(gsort::view_key(group, {a, a}) == key, key.find("unknown") == std::string::npos);
  EXPECT_NE(gsort::view_key(group, {a, b}), key);  // another file under the same name
  group.host = 1;
  EXPECT_NE(gsort::view_key(group, {a, a}), key);  // another host
}

}  // namespace
