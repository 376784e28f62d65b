#include "src/output/final_output.h"

#include <utility>

namespace gsort {

FinalOutput::FinalOutput(WriteBehind::Sink sink, uint32_t record_size, uint64_t block_bytes,
                         const KeyLayout* unique_by, OutputCheck* check)
    : sink_(std::move(sink)), rs_(record_size), block_bytes_(block_bytes), unique_by_(unique_by), check_(check) {}

std::unique_ptr<OutputWriter> FinalOutput::writer() {
  auto out = std::make_unique<OutputWriter>(sink_, rs_, block_bytes_, unique_by_);
  out->final_output(check_);
  out->count_bytes(&written_bytes_);
  return out;
}

}  // namespace gsort
