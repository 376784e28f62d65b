#include "io/run/run_segments.h"

#include "src/core/errors.h"

namespace gsort {

RunSegmentsReader::RunSegmentsReader(std::vector<std::unique_ptr<RecordSource>> segments, uint32_t record_size)
    : segments_(std::move(segments)), rs_(record_size) {
  for (const auto& s : segments_) {
    left_.push_back(s->size_hint());
    records_ += s->size_hint();
  }
  if (!segments_.empty()) name_ = segments_.front()->name();
}

uint64_t RunSegmentsReader::read(uint8_t* buf, uint64_t max_records) {
  uint64_t done = 0;
  while (done < max_records && current_ < segments_.size()) {
    RecordSource& segment = *segments_[current_];
    name_ = segment.name();
    const uint64_t want = max_records - done;
    const uint64_t got = left_[current_] == 0 ? 0 : segment.read(buf + done * rs_, want);
    if (got == 0 && left_[current_] > 0) throw DataError("run file " + name_ + " ended before its last record");
    done += got;
    left_[current_] -= got;
    if (left_[current_] == 0) {
      segments_[current_++].reset();  // read to its end and checked: its descriptor goes now
    } else if (got < want) {
      break;  // a compressed frame that did not fit: the next call takes it
    }
  }
  return done;
}

}  // namespace gsort
