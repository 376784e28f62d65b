#include "io/run/run_segments.h"

namespace gsort {

RunSegmentsReader::RunSegmentsReader(std::vector<std::unique_ptr<RunReader>> segments)
    : segments_(std::move(segments)) {
  for (const auto& s : segments_) records_ += s->record_count();
  if (!segments_.empty()) name_ = segments_.front()->name();
}

uint64_t RunSegmentsReader::read(uint8_t* buf, uint64_t max_records) {
  uint64_t done = 0;
  while (done < max_records && current_ < segments_.size()) {
    RunReader& segment = *segments_[current_];
    name_ = segment.name();
    const uint64_t want = max_records - done;
    const uint64_t got = segment.read(buf + done * segment.record_size(), want);
    done += got;
    if (segment.records_left() == 0) {
      segments_[current_++].reset();  // read to its end and checked: its descriptor goes now
    } else if (got < want) {
      break;  // a compressed frame that did not fit: the next call takes it
    }
  }
  return done;
}

}  // namespace gsort
