#include "src/distributed/partition/input_slice.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

#include "io/input/input_set.h"
#include "io/temp/temp_registry.h"
#include "src/core/errors.h"
#include "src/core/host_buffer.h"

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
    if (name == "-") throw UsageError("standard input cannot be an input with several ranks (give files)");
    // InputFile validates: it exists, and a plain file holds whole records.
    const InputFile probe(name, record_size);
    if (probe.compressed() || !probe.size_known()) {
      throw UsageError(name + ": with several ranks every input must be a plain (uncompressed) regular file");
    }
    files_.push_back(File::open_read(name));
    starts_.push_back(starts_.back() + probe.size() / record_size);
  }
}

void ConcatenatedInputs::read(uint64_t first, uint64_t count, uint8_t* buf) const {
  // The file holding `first`: the last whose start is <= first.
  size_t f = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), first) - starts_.begin()) - 1;
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

MappedRecords::MappedRecords(void* base, size_t length, const uint8_t* records)
    : base_(base), length_(length), records_(records) {
  try {
    guard_ = register_mapped_input(base_, length_);
  } catch (...) {
    ::munmap(base_, length_);
    throw;
  }
}

MappedRecords::~MappedRecords() {
  unregister_mapped_input(guard_);
  ::munmap(base_, length_);
}

void MappedRecords::populate(ThreadPool& pool) const {
  // A failure (an I/O error, a file cut short) is left to the reads, which
  // report it where it matters.
  (void)populate_on_pool(static_cast<uint8_t*>(base_), length_, PopulateFor::kRead, pool);
}

std::unique_ptr<MappedRecords> ConcatenatedInputs::map(uint64_t first, uint64_t count) const {
  if (count == 0) return nullptr;
  const size_t f = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), first) - starts_.begin()) - 1;
  if (f >= files_.size() || first + count > starts_[f + 1]) return nullptr;
  const uint64_t begin = (first - starts_[f]) * record_size_, end = begin + count * record_size_;
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t aligned = begin / page * page;
  const size_t length = static_cast<size_t>(end - aligned);
  void* base = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, files_[f].fd(),
                      static_cast<off_t>(aligned));
  if (base == MAP_FAILED) return nullptr;
  return std::make_unique<MappedRecords>(base, length, static_cast<const uint8_t*>(base) + (begin - aligned));
}

}  // namespace gsort
