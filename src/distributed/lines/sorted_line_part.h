// A rank's lines once sorted (issue 55), read through a mapping: where each
// line starts, the samples the ranks choose splitters from, and where each
// splitter cuts the part. Places are byte offsets of line starts; in the
// ranks' total order a line is (its key, its rank, its place), which is
// one process's order for a stable sort of the inputs end to end.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/input/mapped_input.h"
#include "src/keys/line_compare.h"

namespace gsort {

// One sample: the line at byte `at` of rank `rank`'s part, standing for
// `weight` bytes of it.
struct LineSample {
  int rank = 0;
  uint64_t at = 0;
  double weight = 0;
  std::string line;  // without its terminator
};

class SortedLinePart {
 public:
  // The file at `path`, sorted lines ending at `eol`; `terminated`: its
  // last line must end with one (a rank's own part), else it may not (an
  // input of -m).
  SortedLinePart(const std::string& path, uint8_t eol, bool terminated = true);
  // Bytes [begin, end) of the file: a rank's part inside the one output file.
  SortedLinePart(const std::string& path, uint8_t eol, uint64_t begin, uint64_t end);

  uint64_t size() const { return size_; }
  const uint8_t* bytes() const { return mapped_ ? mapped_->bytes() : nullptr; }
  // The first line start at or after byte `from` (size() where none).
  uint64_t line_at_or_after(uint64_t from) const;
  // The line starting at `at`, without its terminator.
  std::string line(uint64_t at) const;
  // Where the line before the one starting at `at` (> 0) starts.
  uint64_t line_before(uint64_t at) const;

  // `wanted` of all the ranks' `total` bytes' samples, this part's share,
  // evenly spaced.
  std::vector<LineSample> samples(int rank, uint64_t total, uint64_t wanted) const;
  // The first line start of this part (rank `rank`) not before `splitter`
  // in the total order; with whole_keys (-u), the first whose key does not
  // sort before the splitter's.
  uint64_t cut(int rank, const LineSample& splitter, const LineComparator& compare, bool whole_keys) const;

 private:
  uint64_t size_ = 0;
  uint8_t eol_;
  std::unique_ptr<MappedInput> mapped_;
};

// The splitters among `samples` (their `rank` the run they come from: a
// rank's part, or an input of -m) at `ranges` even shares of `total`
// bytes, in the order (key, run, place): at most ranges - 1, and with
// whole_keys (-u) no two of one key.
std::vector<LineSample> choose_line_splitters(const std::vector<LineSample>& samples, uint64_t total, int ranges,
                                              const LineComparator& compare, bool whole_keys);

// Samples in a string, to gather from every rank, and back.
std::string encode_samples(const std::vector<LineSample>& samples);
std::vector<LineSample> decode_samples(const std::string& bytes);

}  // namespace gsort
