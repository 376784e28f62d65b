// room_peaks (src/pipeline/room_peaks): what a sort holds at its peak on the
// file systems it writes, for the room check. The output reserved whole
// beside the runs needs both; the stream needs the runs and what a merge
// has read but not freed, which punching holes bounds.
#include <gtest/gtest.h>

#include <cstdint>

#include "io/run/run_file.h"
#include "src/pipeline/room_peaks.h"

namespace gsort {
namespace {

constexpr uint64_t kMB = 1000000, kBlock = 4096;
constexpr uint64_t kPerFile = sizeof(RunHeader) + kBlock;

// 12 runs of 8 files each, 40 MB in all, merged once into the output.
RunsRoom twelve_runs() {
  RunsRoom r;
  r.bytes = 40 * kMB;
  r.files = 97;
  r.largest_file = 451264;
  r.merge_sources = 12;
  return r;
}

TEST(RoomPeaks, NoRunsNeedTheOutputRoundedUpToBlocks) {
  const RoomPeaks p = room_peaks(RunsRoom{}, 10 * kMB, kBlock, kBlock, true);
  EXPECT_EQ(p.output, 10002432u);
  EXPECT_EQ(p.mapped, 10002432u);
  EXPECT_EQ(p.stream, 10002432u);
  EXPECT_EQ(p.runs, 0u);
}

TEST(RoomPeaks, TheReservedOutputNeedsEveryRunBesideItTheStreamOnlyWhatTheMergeHoldsRead) {
  const RunsRoom runs = twelve_runs();
  const RoomPeaks p = room_peaks(runs, 40 * kMB, kBlock, kBlock, false);
  const uint64_t held = 40 * kMB + 97 * kPerFile;
  EXPECT_EQ(p.runs, held) << "no merge writes a run";
  EXPECT_EQ(p.mapped, held + 40001536);
  EXPECT_EQ(p.stream, held + 12 * (451264 + kPerFile) + kBlock);
}

TEST(RoomPeaks, MergesIntoRunsHoldWhatTheyReadOnTheTemporaryDirectory) {
  RunsRoom runs = twelve_runs();
  runs.merged_into_runs = true;
  runs.largest_file = runs.bytes;
  // Without holes punched, a merged run is freed only when its merge ends.
  RoomPeaks p = room_peaks(runs, 40 * kMB, kBlock, kBlock, false);
  const uint64_t held = 40 * kMB + 97 * kPerFile;
  EXPECT_EQ(p.runs, 2 * held);
  EXPECT_EQ(p.stream, 2 * held + kBlock);
  EXPECT_EQ(p.mapped, 2 * held);
  // Punched as read, each source holds less than kRunMostUnreleased.
  runs.bytes = 100000 * kMB;
  runs.largest_file = runs.bytes;
  p = room_peaks(runs, 100000 * kMB, kBlock, kBlock, true);
  const uint64_t big = runs.bytes + 97 * kPerFile;
  EXPECT_EQ(p.runs, big + 12 * kRunMostUnreleased);
  EXPECT_EQ(p.mapped, big + 100000 * kMB + 2048);  // rounded up to a block
  EXPECT_EQ(p.stream, big + 12 * kRunMostUnreleased + kBlock);
}

// -m: the runs hold part of the input; the stream grows past them with the
// inputs no run holds.
TEST(RoomPeaks, TheStreamGrowsPastTheRunsWithWhatNoRunHolds) {
  RunsRoom runs = twelve_runs();
  runs.bytes = 10 * kMB;
  const RoomPeaks p = room_peaks(runs, 40 * kMB, kBlock, kBlock, true);
  const uint64_t held = 10 * kMB + 97 * kPerFile;
  EXPECT_EQ(p.stream, held + 12 * (451264 + kPerFile) + 30003200 + kBlock);
}

// --merge's runs, records' and lines' alike: none while one merge takes
// every input; else at most the waiting runs and a merge's inputs, each as
// large as the whole, every merge taking the fan-in.
TEST(RoomPeaks, MergedInputsWriteRunsOnlyPastTheFanIn) {
  EXPECT_EQ(merged_inputs_room(16, kMB, 16, 100).bytes, 0u);
  EXPECT_EQ(merged_inputs_room(17, 0, 16, 100).bytes, 0u);
  const RunsRoom few = merged_inputs_room(17, kMB, 16, 100);
  EXPECT_EQ(few.bytes, kMB);
  EXPECT_EQ(few.files, 18u);
  EXPECT_EQ(few.largest_file, kMB);
  EXPECT_EQ(few.merge_sources, 16u);
  EXPECT_TRUE(few.merged_into_runs);
  EXPECT_EQ(merged_inputs_room(1000, kMB, 16, 100).files, 117u);  // waiting runs and a merge's inputs, + 1
}

}  // namespace
}  // namespace gsort
