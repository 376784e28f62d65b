#include "src/distributed/partition/input_slice.h"

#include <algorithm>

#include "io/input/input_change.h"
#include "io/input/input_set.h"
#include "src/core/errors.h"

namespace gsort {

// 128-bit products: total_records * ranks may not fit 64 bits.
__extension__ typedef unsigned __int128 Wide;

RecordRange rank_slice(uint64_t total_records, int rank, int ranks) {
  const auto share = [&](int r) {
    return static_cast<uint64_t>(static_cast<Wide>(total_records) * static_cast<unsigned>(r) /
                                 static_cast<unsigned>(ranks));
  };
  return RecordRange{share(rank), share(rank + 1)};
}

ConcatenatedInputs::ConcatenatedInputs(const std::vector<std::string>& names, uint32_t record_size)
    : record_size_(record_size) {
  starts_.push_back(0);
  for (const std::string& name : names) {
    if (name == "-") throw UsageError("internal error: standard input cannot be sliced across ranks");
    // InputFile validates: it exists, and a plain file holds whole records.
    const InputFile probe(name, record_size);
    if (probe.compressed() || !probe.size_known()) {
      throw UsageError(name + ": internal error: only a plain (uncompressed) regular file can be sliced across ranks");
    }
    files_.push_back(File::open_read(name));
    opened_.push_back(FileIdentity::of(files_.back().fd(), name));
    // Sized by the probe: a file that changed since is not sliced by a size it no longer has.
    if (opened_.back().size != probe.size()) {
      FileIdentity probed = opened_.back();
      probed.size = probe.size();
      check_input_unchanged(files_.back().fd(), name, probed);
    }
    starts_.push_back(starts_.back() + probe.size() / record_size);
  }
}

void ConcatenatedInputs::check_unchanged() const {
  for (size_t f = 0; f < files_.size(); ++f) check_input_unchanged(files_[f].fd(), files_[f].display_name(), opened_[f]);
}

size_t ConcatenatedInputs::file_of(uint64_t record) const {
  return static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), record) - starts_.begin()) - 1;
}

void ConcatenatedInputs::read(uint64_t first, uint64_t count, uint8_t* buf) const {
  size_t f = file_of(first);
  while (count > 0) {
    if (f >= files_.size()) throw Error("internal error: read past the end of the inputs");
    const uint64_t in_file = std::min(count, starts_[f + 1] - first);
    const size_t bytes = static_cast<size_t>(in_file * record_size_);
    const size_t got = files_[f].pread_full(buf, bytes, (first - starts_[f]) * record_size_);
    if (got != bytes) throw DataError(files_[f].display_name() + ": the file shrank while it was read");
    buf += bytes;
    first += in_file;
    count -= in_file;
    ++f;
  }
}

std::unique_ptr<MappedInput> ConcatenatedInputs::map(uint64_t first, uint64_t count) const {
  if (count == 0) return nullptr;
  const size_t f = file_of(first);
  if (f >= files_.size() || first + count > starts_[f + 1]) return nullptr;
  const uint64_t begin = (first - starts_[f]) * record_size_;
  return MappedInput::map(files_[f], begin, begin + count * record_size_);
}

}  // namespace gsort
