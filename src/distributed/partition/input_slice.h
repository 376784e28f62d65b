// The inputs as one array of records (the files concatenated in the order
// given), and the contiguous, record-aligned slice of it that one rank
// reads. Every rank opens every input, so the inputs must be regular,
// uncompressed files that every rank can read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/file/file.h"
#include "io/file/file_identity.h"
#include "io/input/mapped_input.h"
#include "src/core/thread_pool.h"

namespace gsort {

// Records [begin, end) of the concatenated inputs (global record numbers).
struct RecordRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint64_t size() const { return end - begin; }
};

// Rank `rank` of `ranks` takes an equal share, the first ranks none extra:
// [rank * total / ranks, (rank + 1) * total / ranks).
RecordRange rank_slice(uint64_t total_records, int rank, int ranks);

class ConcatenatedInputs {
 public:
  // Opens every input. Throws UsageError for standard input, a pipe or a
  // compressed file (which cannot be sliced: rank 0 reads them alone
  // instead, rank_input.h's inputs_only_rank0_reads), DataError for a size
  // that is not whole records, IoError when one cannot be opened.
  ConcatenatedInputs(const std::vector<std::string>& names, uint32_t record_size);

  uint64_t total_records() const { return starts_.back(); }
  // The inputs as opened, in the order given (to identify them: input_identity.h).
  size_t file_count() const { return files_.size(); }
  File& file(size_t i) const { return files_[i]; }
  uint32_t record_size() const { return record_size_; }
  // Each file's first global record number, and one more: the total.
  const std::vector<uint64_t>& file_starts() const { return starts_; }
  // The file holding global record `record`: the last whose start is at or
  // before it (file_count() past the end).
  size_t file_of(uint64_t record) const;
  // Reads `count` records starting at global record `first` into buf.
  void read(uint64_t first, uint64_t count, uint8_t* buf) const;
  // `count` records from global record `first` mapped into memory, when
  // they lie in one input and it can be mapped; else null (read them).
  // A file cut short while mapped faults (SIGBUS) where read() reports that
  // it shrank; MappedInput turns that into gsort's error exit.
  std::unique_ptr<MappedInput> map(uint64_t first, uint64_t count) const;
  // Throws DataError where an input is no longer what was opened (its inode,
  // size and times: io/input/input_change.h): written meanwhile, it would
  // give garbled units or a mix of two versions. Call it after the last read.
  void check_unchanged() const;

 private:
  mutable std::vector<File> files_;  // File's reads are not const; reading changes no state here
  std::vector<FileIdentity> opened_;  // each file's, when opened
  std::vector<uint64_t> starts_;  // global record number of each file's first record; one more at the end
  uint32_t record_size_;
};

}  // namespace gsort
