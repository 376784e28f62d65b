#include "src/output/final_output.h"

namespace gsort {

std::unique_ptr<OutputWriter> FinalOutput::writer(uint64_t bytes) {
  auto out = std::make_unique<OutputWriter>(blocks(bytes, rs_), rs_, unique_by_);
  out->final_output(check_);
  out->count_bytes(&written_bytes());
  return out;
}

}  // namespace gsort
