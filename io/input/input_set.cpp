#include "io/input/input_set.h"

#include "src/core/errors.h"

namespace gsort {

InputSet::InputSet(const std::vector<std::string>& names, uint32_t record_size, InputTally* tally,
                   bool drop_read_pages)
    : record_size_(record_size), tally_(tally), drop_read_pages_(drop_read_pages) {
  // Each input is opened and checked now, so a missing, unreadable or
  // partial one fails before any work; then regular files are closed
  // again (one open at a time while sorting, whatever their number). A pipe
  // or terminal cannot be opened twice: it stays open.
  for (const std::string& name : names) {
    Entry e;
    e.name = name;
    auto probe = std::make_unique<InputFile>(name, record_size, tally);
    e.regular = probe->regular();
    e.size_known = probe->size_known();
    e.size = probe->size();
    e.stored_size = probe->stored_size();
    e.identity = probe->identity();
    if (!e.regular) e.open = std::move(probe);
    entries_.push_back(std::move(e));
  }
}

bool InputSet::size_known() const {
  for (const Entry& e : entries_) {
    if (!e.size_known) return false;
  }
  return true;
}

uint64_t InputSet::total_bytes() const {
  uint64_t total = 0;
  for (const Entry& e : entries_) total += e.size;
  return total;
}

uint64_t InputSet::stored_bytes() const {
  uint64_t total = 0;
  for (const Entry& e : entries_) {
    if (!e.regular) return 0;  // a pipe
    total += e.stored_size;
  }
  return total;
}

std::unique_ptr<InputFile> InputSet::open_input(size_t i) {
  Entry& e = entries_[i];
  if (e.open) return std::move(e.open);
  auto in = std::make_unique<InputFile>(e.name, record_size_, tally_);
  if (consume_as_read_) {
    in->consume_as_read();
  } else if (drop_read_pages_) {
    in->drop_read_pages();
  }
  // Checked against what the plan was made from.
  if (in->stored_size() != e.stored_size) {
    throw DataError(in->name() + ": the file " + (in->stored_size() < e.stored_size ? "shrank" : "grew") +
                    " while it was being read (" + std::to_string(e.stored_size) + " bytes when gsort opened it, " +
                    std::to_string(in->stored_size()) + " now); sort a copy that does not change");
  }
  if (e.regular) in->expect_identity(e.identity);
  return in;
}

uint64_t InputSet::read(uint8_t* buf, uint64_t max_records, ThreadPool* pool) {
  uint64_t done = 0;
  while (done < max_records && current_ < entries_.size()) {
    if (!reading_) reading_ = open_input(current_);
    InputFile& in = *reading_;
    uint8_t* into = buf + done * record_size_;
    const uint64_t got = pool ? in.read(into, max_records - done, *pool) : in.read(into, max_records - done);
    done += got;
    if (done < max_records) {  // a short read means that input ended
      reading_.reset();
      ++current_;
    }
  }
  return done;
}

std::unique_ptr<MappedInput> InputSet::map_whole(ThreadPool& pool, int output_fd) {
  if (entries_.size() != 1 || current_ != 0) return nullptr;
  if (!reading_) reading_ = open_input(0);
  std::unique_ptr<MappedInput> mapped = reading_->map_rest(pool, output_fd);
  if (mapped) {
    reading_.reset();
    ++current_;
  }
  return mapped;
}

std::vector<InputSet::Opener> InputSet::lazy_sources() {
  std::vector<Opener> openers;
  for (size_t i = 0; i < entries_.size(); ++i) {
    openers.push_back([this, i]() -> std::unique_ptr<RecordSource> { return open_input(i); });
  }
  return openers;
}

}  // namespace gsort
