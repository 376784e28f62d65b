#include "io/input_set.h"

#include "core/errors.h"

namespace gsort {
namespace {

[[noreturn]] void throw_partial(const std::string& name, uint64_t size, uint32_t record_size) {
  throw DataError(name + ": size " + std::to_string(size) + " bytes is not a multiple of the record size " +
                  std::to_string(record_size) + " (" + std::to_string(size % record_size) +
                  " bytes left over)");
}

}  // namespace

InputFile::InputFile(const std::string& name, uint32_t record_size)
    : file_(name == "-" ? File::standard_input() : File::open_read(name)), record_size_(record_size) {
  if (file_.is_regular()) {
    size_known_ = true;
    size_ = file_.size();
    if (size_ % record_size_ != 0) throw_partial(file_.display_name(), size_, record_size_);
  }
  file_.advise_sequential();
}

uint64_t InputFile::read(uint8_t* buf, uint64_t max_records) {
  const size_t want = static_cast<size_t>(max_records * record_size_);
  const size_t got = file_.read_full(buf, want);
  bytes_read_ += got;
  if (got % record_size_ != 0) throw_partial(file_.display_name(), bytes_read_, record_size_);
  return got / record_size_;
}

InputSet::InputSet(const std::vector<std::string>& names, uint32_t record_size) : record_size_(record_size) {
  for (const std::string& name : names) inputs_.push_back(std::make_unique<InputFile>(name, record_size));
}

bool InputSet::size_known() const {
  for (const auto& in : inputs_) {
    if (!in->size_known()) return false;
  }
  return true;
}

uint64_t InputSet::total_bytes() const {
  uint64_t total = 0;
  for (const auto& in : inputs_) total += in->size();
  return total;
}

uint64_t InputSet::read(uint8_t* buf, uint64_t max_records) {
  uint64_t done = 0;
  while (done < max_records && current_ < inputs_.size()) {
    const uint64_t got = inputs_[current_]->read(buf + done * record_size_, max_records - done);
    done += got;
    if (done < max_records) ++current_;  // a short read means that input ended
  }
  return done;
}

std::vector<std::unique_ptr<RecordSource>> InputSet::take_sources() {
  std::vector<std::unique_ptr<RecordSource>> sources;
  for (auto& in : inputs_) sources.push_back(std::move(in));
  inputs_.clear();
  return sources;
}

}  // namespace gsort
