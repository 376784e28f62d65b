#include "io/input/line_chunk_reader.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "src/core/errors.h"
#include "src/core/test_hooks.h"

namespace gsort {

LineReader::LineReader(const std::vector<std::string>& inputs, uint8_t eol, uint64_t max_line, ThreadPool& pool,
                       InputTally* tally, bool drop_read_pages)
    : set_(inputs, 1, tally, drop_read_pages), eol_(eol), max_line_(max_line), pool_(pool) {
  openers_ = set_.lazy_sources();
  known_ = set_.size_known();
  total_ = set_.total_bytes();
}

void LineReader::too_long(const std::string& source) const {
  throw DataError((source.empty() ? std::string("input") : source) + ": a line is longer than " +
                  std::to_string(max_line_) + " bytes, a quarter of the memory budget (-S); give a larger -S");
}

void LineReader::note_source(uint64_t offset, const std::string& name) {
  if (!sources_.empty() && sources_.back().second == name) return;
  if (!sources_.empty() && sources_.back().first == offset) sources_.pop_back();
  sources_.emplace_back(offset, name);
}

std::string LineReader::source_of(uint64_t offset) const {
  std::string name;
  for (const auto& [start, source] : sources_) {
    if (start > offset) break;
    name = source;
  }
  return name;
}

uint64_t LineReader::fill_from_inputs(uint8_t* buf, uint64_t fill, uint64_t room) {
  while (fill < room) {
    if (!current_) {
      if (next_input_ == openers_.size()) {
        inputs_done_ = true;
        break;
      }
      current_ = openers_[next_input_++]();
      current_name_ = current_->name();
      current_has_bytes_ = false;
    }
    // A plain regular file is read by the pool's threads at once; a pipe or
    // a decoded input, as it comes.
    auto* file = dynamic_cast<InputFile*>(current_.get());
    note_source(fill, current_name_);
    uint64_t got = 0;
    if (file && file->size_known()) {
      got = file->read(buf + fill, room - fill, pool_);
    } else {
      got = read_stream(buf, fill, room);
    }
    if (got > 0) {
      fill += got;
      last_byte_ = buf[fill - 1];
      current_has_bytes_ = true;
      continue;
    }
    // The end of this input: its last line gets a terminator if it lacks one.
    if (current_has_bytes_ && last_byte_ != eol_) buf[fill++] = eol_;
    current_.reset();
  }
  return fill;
}

uint64_t LineReader::read_stream(uint8_t* buf, uint64_t fill, uint64_t room) {
  if (!staged_) staged_ = std::make_unique<StagedStream>();
  StagedStream::Arrived arrived;
  if (arrived_) arrived = [this, fill](uint64_t n) { arrived_(fill + n); };
  RecordSource& source = *current_;
  return staged_->read([&source](uint8_t* into, uint64_t most) { return source.read(into, most); }, buf + fill,
                       room - fill, arrived);
}

const uint8_t* LineReader::map_whole(uint64_t capacity, int output_fd, uint64_t* bytes) {
  if (openers_.size() != 1 || next_input_ != 0 || !carry_.empty() || !known_ || total_ == 0 || total_ >= capacity) {
    return nullptr;
  }
  current_ = openers_[next_input_++]();
  current_name_ = current_->name();
  current_has_bytes_ = false;
  auto* input = dynamic_cast<InputFile*>(current_.get());
  if (!input || !input->size_known() || input->size() != total_) return nullptr;
  File& file = input->file();
  uint8_t last = 0;
  if (file.pread_full(&last, 1, file.size() - 1) != 1 || last != eol_) return nullptr;
  mapped_ = input->map_rest(pool_, output_fd);
  if (!mapped_) return nullptr;
  note_source(0, current_name_);
  current_.reset();
  inputs_done_ = true;
  *bytes = mapped_->size();
  return mapped_->bytes();
}

uint64_t LineReader::read_chunk(uint8_t* buf, uint64_t capacity) {
  if (test_hooks::before_chunk_read) test_hooks::before_chunk_read(chunks_read_);
  ++chunks_read_;
  uint64_t fill = carry_.size();
  if (fill != 0) std::memcpy(buf, carry_.data(), fill);
  carry_.clear();
  sources_.clear();
  note_source(0, carry_source_);
  // One byte is kept free for the terminator an input's end may add.
  fill = fill_from_inputs(buf, fill, capacity - 1);
  if (fill == 0) return 0;
  if (inputs_done_) {  // every input ended with a terminator
    if (arrived_) arrived_(fill);
    return fill;
  }
  uint64_t end = fill;
  while (end > 0 && buf[end - 1] != eol_) --end;
  if (fill - end >= max_line_ || end == 0) too_long(current_name_);
  carry_.assign(buf + end, buf + fill);
  carry_source_ = source_of(end);
  return end;
}

void LineReader::unread(const uint8_t* chunk, uint64_t from, uint64_t end) {
  carry_source_ = source_of(from);
  carry_.insert(carry_.begin(), chunk + from, chunk + end);
}

}  // namespace gsort
