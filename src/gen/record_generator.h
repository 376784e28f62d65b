// Something that writes generated records, a buffer at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "src/gen/gen_options.h"

namespace gsort::gen {

class RecordGenerator {
 public:
  virtual ~RecordGenerator() = default;
  virtual uint32_t record_size() const = 0;
  // Writes the next `count` records (count * record_size() bytes) to out.
  virtual void generate(uint8_t* out, size_t count) = 0;
};

// The generator for the options' record format.
std::unique_ptr<RecordGenerator> make_record_generator(const GenOptions& options);

}  // namespace gsort::gen
