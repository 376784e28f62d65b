// The inputs of one gsort run, read as one stream of whole records in the
// order given. All inputs are opened up front, so a missing one fails before
// any work; a regular file whose size is not a multiple of the record size
// fails at once, a pipe that ends mid-record fails when it ends. The tail of
// a record is never dropped silently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/file.h"
#include "io/record_source.h"

namespace gsort {

// One input file (or stdin) as a record stream.
class InputFile final : public RecordSource {
 public:
  InputFile(const std::string& name, uint32_t record_size);
  uint64_t read(uint8_t* buf, uint64_t max_records) override;
  std::string name() const override { return file_.display_name(); }
  bool size_known() const { return size_known_; }
  uint64_t size() const { return size_; }

 private:
  File file_;
  uint32_t record_size_;
  bool size_known_ = false;
  uint64_t size_ = 0;
  uint64_t bytes_read_ = 0;
};

class InputSet {
 public:
  InputSet(const std::vector<std::string>& names, uint32_t record_size);

  // Whether every input is a regular file, so total_bytes() is exact.
  bool size_known() const;
  uint64_t total_bytes() const;

  // Reads up to max_records whole records, crossing from one input to the
  // next; returns how many, 0 at the end of the last input.
  uint64_t read(uint8_t* buf, uint64_t max_records);

  // For --merge: hands over the inputs as separate sources.
  std::vector<std::unique_ptr<RecordSource>> take_sources();

 private:
  std::vector<std::unique_ptr<InputFile>> inputs_;
  size_t current_ = 0;
  uint32_t record_size_;
};

}  // namespace gsort
