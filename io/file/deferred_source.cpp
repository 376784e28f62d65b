#include "io/file/deferred_source.h"

#include <utility>

namespace gsort {

DeferredSource::DeferredSource(std::string name, uint64_t records,
                               std::function<std::unique_ptr<RecordSource>()> open)
    : name_(std::move(name)), records_(records), open_(std::move(open)) {}

uint64_t DeferredSource::read(uint8_t* buf, uint64_t max_records) {
  if (!source_) source_ = std::exchange(open_, nullptr)();
  return source_->read(buf, max_records);
}

}  // namespace gsort
