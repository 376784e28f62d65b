// A run spilled as several segment files (spill streams: each segment a
// contiguous slice of the run, written side by side) read back as one
// source: the records of the first segment, then the second's, and so on.
// Each segment is a run reader (RunReader, or PipedRunReader through
// --compress-program), checked as any run is (header, identity,
// checksums); a segment is closed as soon as it is read to its end.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/file/record_source.h"

namespace gsort {

class RunSegmentsReader final : public RecordSource {
 public:
  // `segments`: in the run's order, at least one, each knowing its record
  // count (size_hint) before it reads.
  RunSegmentsReader(std::vector<std::unique_ptr<RecordSource>> segments, uint32_t record_size);

  // Fills up to max_records, crossing from one segment to the next.
  uint64_t read(uint8_t* buf, uint64_t max_records) override;
  // The segment being read (the last one at the end).
  std::string name() const override { return name_; }
  uint64_t size_hint() const override { return records_; }

 private:
  std::vector<std::unique_ptr<RecordSource>> segments_;
  std::vector<uint64_t> left_;  // each segment's records not yet read
  const uint32_t rs_;
  size_t current_ = 0;
  uint64_t records_ = 0;
  std::string name_;
};

}  // namespace gsort
