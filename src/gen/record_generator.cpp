#include "src/gen/record_generator.h"

#include "src/gen/gensort_generator.h"
#include "src/gen/layout_generator.h"

namespace gsort::gen {

std::unique_ptr<RecordGenerator> make_record_generator(const GenOptions& options) {
  if (options.format == RecordFormat::kGensort) return std::make_unique<GensortGenerator>(options);
  return std::make_unique<LayoutGenerator>(options);
}

}  // namespace gsort::gen
