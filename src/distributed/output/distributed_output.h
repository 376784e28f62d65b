// Where the ranks' sorted parts go, and the commit. Into one file: rank 0
// makes a temporary file next to the destination; each rank writes its
// range at its offset (a prefix sum of the parts' sizes); rank 0 renames it
// into place once every rank succeeded. With --output-parts: each rank puts
// its part in place as DIR/part-NNNNN (its rank) once every rank succeeded.
// A failure anywhere leaves the destination as it was. With -o -, the
// parts go in rank order onto rank 0's standard output (stdout_gather.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/file/file.h"
#include "io/output/output_parts.h"
#include "io/output/output_target.h"
#include "src/config/sort_config.h"
#include "src/core/thread_pool.h"
#include "src/distributed/output/local_part.h"
#include "src/distributed/ranks/rank_fence.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

class DistributedOutput {
 public:
  DistributedOutput(const RankGroup& group, const SortConfig& config) : group_(group), config_(config) {}

  // Rank 0: makes the output's temporary file (or the --output-parts
  // directory) and the --stats file now, so that an unwritable destination
  // fails before any work.
  void prepare();
  // Collective, never throws: every rank learns rank 0's temporary file,
  // and registers it for removal on a signal (a rank that survives the
  // others' death removes it) until the output is committed.
  void share_destination();
  ~DistributedOutput();
  // A new hidden part file in the output's directory.
  std::unique_ptr<LocalPart> make_part() const;
  // Collective: puts `records` records of the part, from byte skip_bytes
  // on, into the output (compressed first, with --compress-output, on
  // `pool`), and commits when every rank succeeded. A null part: this rank
  // already wrote its records at its offset (one output file only, plain;
  // see offset_of).
  void write(RankFence& fence, LocalPart* part, uint64_t skip_bytes, uint64_t records, ThreadPool& pool);
  // Collective, never throws: where a rank's `bytes` of output begin in
  // the one output file (a prefix sum over the ranks).
  uint64_t offset_of(uint64_t bytes) const;
  // The file every rank writes into (one output file).
  const std::string& shared_path() const { return shared_path_; }
  // Whether a rank may write its part straight at its offset of that file:
  // one plain output file (not --output-parts, -o - or --compress-output).
  bool takes_parts_at_offsets() const;
  // That file opened for writing with its offset at `offset`: a rank's
  // sort writes its range through it ("/dev/fd/N").
  File open_at(uint64_t offset) const;
  // -o -: rank 0's standard output, which takes the parts (no rank writes
  // into it at an offset).
  bool to_stdout() const;
  // Rank 0: --stats, into its file or onto standard error.
  void write_stats(const std::string& json);
  // Rank 0: --trace, into its file (made in prepare()).
  void write_trace(const std::string& json);

 private:
  void write_single_file(RankFence& fence, LocalPart* part, uint64_t skip_bytes, uint64_t bytes, ThreadPool& pool);
  void write_parts(RankFence& fence, LocalPart& part, uint64_t skip_bytes, uint64_t bytes);
  void write_to_stdout(RankFence& fence, LocalPart* part, uint64_t skip_bytes, uint64_t bytes);
  std::string part_directory() const;

  const RankGroup& group_;
  const SortConfig& config_;
  std::unique_ptr<OutputTarget> target_;  // rank 0, one output file
  std::unique_ptr<OutputDirectory> directory_;  // rank 0, --output-parts
  std::unique_ptr<OutputTarget> stats_;   // rank 0, --stats FILE
  std::unique_ptr<OutputTarget> trace_;   // rank 0, --trace FILE
  std::string shared_path_;               // the file every rank writes into
  int shared_slot_ = -1;                  // ranks but 0: shared_path_ in the temp registry
};

}  // namespace gsort
