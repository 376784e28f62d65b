// Before a sort starts: whether the file systems it writes have room for
// what it holds there at its peak, where that is known, and whether the
// output may be reserved whole (mapped) or must grow as a stream. A 1 TB
// input with 77 GB free is refused at once, naming the figures, instead of
// failing hours later; --no-space-check checks nothing.
//
// What each holds at its peak (room_peaks.h does the sums):
//  - the output: its bytes, rounded up to its file system's block;
//  - the runs on -T: their bytes, and for each file a header and up to a
//    block more;
//  - a merge that reads runs holds what it has read but not yet freed. A
//    run's file is freed once read to its end, and punched out behind the
//    reader where the file system can punch holes (io/temp/hole_probe.h):
//    at most min(its largest file, kRunMostUnreleased) for each source.
//    Where merges write runs (more runs than one merge takes), -T holds
//    the runs and that much more.
// An output copied into its destination in place at commit (a file with
// other links) needs, on the destination's file system, what the copy adds
// to the destination's size, beside the made output where that is there too.
// On one file system, the output beside the runs: mapped, it is reserved
// whole when the final merge begins, with every run still there (runs +
// output); as a stream, it grows as the runs are freed (runs + what the
// final merge holds read). The mapped way is taken where it fits, else the
// stream where it fits (said under -v), else the sort is refused.
//
// Runs of unknown size (compressed) are not counted; under
// --compress-temp=auto they are counted once the sample has decided them
// plain, before the first run is written. A file system that reports no
// size (ramfs, some FUSE: f_blocks 0) is not checked.
#pragma once

#include <string>

#include "src/config/sort_config.h"
#include "src/merge/temp_runs.h"
#include "src/pipeline/room_peaks.h"

namespace gsort {

// The output, as the sort will write it.
struct OutputRoom {
  uint64_t bytes = 0;     // at most (0: unknown, or nothing to write)
  int fd = -1;            // its file; not checked unless a regular file
  std::string name;       // for messages
  bool mappable = false;  // nothing but room keeps it from being mapped
  std::string copied_into;  // the destination it is copied into at commit (in place), else empty
};

class RoomCheck {
 public:
  // Checks the output's file system now (throws IoError "not enough room:
  // ..."). enabled false (--no-space-check): checks nothing, ever.
  RoomCheck(bool enabled, OutputRoom output, std::string temp_dir);
  RoomCheck(const RoomCheck&) = delete;
  RoomCheck& operator=(const RoomCheck&) = delete;

  // The runs, known to be written plain: checked now, with the output.
  void count_runs(const RunsRoom& runs);
  // The same once `temp` has settled how runs are written (before its
  // first run), where they are plain (--compress-temp=auto).
  void count_runs_if_plain(const RunsRoom& runs, TempRuns& temp);
  // The runs (none where runs.bytes is 0) counted as --compress-temp
  // (`mode`) writes them: never where compressed (on); now where plain
  // (off, or auto where no chunk is sampled to decide by: `sampled` false,
  // --merge's runs); else once `temp` settles it (count_runs_if_plain).
  void count_runs_as_written(const RunsRoom& runs, TempCompression mode, bool sampled, TempRuns& temp);

  // Whether the output may be reserved whole; where not, why (for -v).
  bool may_map() const { return why_stream_.empty(); }
  const std::string& why_stream() const { return why_stream_; }

 private:
  void check();
  void check_copy_in_place() const;

  const bool enabled_;
  const OutputRoom output_;
  const std::string temp_dir_;
  RunsRoom runs_;
  std::string why_stream_;
};

}  // namespace gsort
