// A source opened at its first read, its record count known before: a run
// segment read through --compress-program's decompressor, started once the
// segments before it are read (src/merge/temp_runs.h), so that a run read
// in order has one decompressor running, not one for each of its segments.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "io/file/record_source.h"

namespace gsort {

class DeferredSource final : public RecordSource {
 public:
  // `open` makes the source; `name` and `records` stand for it until then.
  DeferredSource(std::string name, uint64_t records, std::function<std::unique_ptr<RecordSource>()> open);

  std::string name() const override { return source_ ? source_->name() : name_; }
  uint64_t size_hint() const override { return records_; }
  uint64_t read(uint8_t* buf, uint64_t max_records) override;

 private:
  const std::string name_;
  const uint64_t records_;
  std::function<std::unique_ptr<RecordSource>()> open_;
  std::unique_ptr<RecordSource> source_;
};

}  // namespace gsort
