#include "src/output/final_output.h"

namespace gsort {

std::unique_ptr<OutputWriter> FinalOutput::writer(uint64_t bytes) {
  auto out = std::make_unique<OutputWriter>(blocks(bytes, rs_), rs_, unique_by_);
  out->final_output(check_);
  out->count_bytes(&written_bytes());
  return out;
}

std::unique_ptr<MappedRecords> FinalOutput::mapped_records(uint64_t bytes) {
  uint8_t* data = whole(bytes);
  if (data == nullptr) return nullptr;
  return std::make_unique<MappedRecords>(data, bytes, rs_, unique_by_, check_, &written_bytes());
}

}  // namespace gsort
