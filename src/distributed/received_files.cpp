#include "src/distributed/received_files.h"

#include <cstdio>

namespace gsort {

ReceivedFiles::ReceivedFiles(const std::string& temp_base, int ranks, uint32_t record_size)
    : dir_(temp_base), record_size_(record_size) {
  for (int r = 0; r < ranks; ++r) {
    char stem[32];
    std::snprintf(stem, sizeof stem, "from-%05d", r);
    int slot = -1;
    paths_.push_back(dir_.new_file(stem, &slot));
    slots_.push_back(slot);
    files_.push_back(File::create(paths_.back()));
  }
}

void ReceivedFiles::append(int source, const uint8_t* records, uint64_t count) {
  files_[static_cast<size_t>(source)].write_all(records, count * record_size_);
  records_ += count;
}

void ReceivedFiles::finish() {
  for (File& f : files_) f.close();
}

void ReceivedFiles::remove() {
  files_.clear();
  for (size_t i = 0; i < paths_.size(); ++i) dir_.remove(paths_[i], slots_[i]);
  slots_.clear();
  paths_.clear();
}

}  // namespace gsort
