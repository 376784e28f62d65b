// gsort::sort_records beyond one chunk (more than 2^32 - 1 records, or more
// than -S allows): chunks are sorted one by one and merged. The cap on a
// chunk is lowered here so that small buffers reach the merge.
#include <gtest/gtest.h>

#include "src/api/options_config.h"
#include "src/api/sort_records.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"

namespace {

using gsort_test::RefKind;
using gsort_test::RefSpec;

gsort::SortConfig config_for(const RefSpec& spec) {
  gsort::Options o = spec.options();
  o.backend = gsort::Backend::kCpu;
  o.threads = 2;
  o.verify = true;
  return gsort::config_from_options(o, gsort::Mode::kSort, {"-"}, "-");
}

TEST(SortRecordsChunks, MergedChunksAreStableAndMatchTheReference) {
  gsort_test::Rng rng(77);
  const std::vector<RefSpec> specs = {
      {16, {{0, 4, RefKind::kUnsigned}}, false, false},
      {16, {{0, 4, RefKind::kUnsigned}}, true, false},
      {16, {{0, 4, RefKind::kUnsigned}}, false, true},
      {12, {{4, 8, RefKind::kFloat, false, true}}, false, false},
  };
  for (const RefSpec& spec : specs) {
    for (const uint64_t chunk : {uint64_t{1}, uint64_t{7}, uint64_t{1000}, uint64_t{9999}}) {
      gsort_test::RecordMix mix;
      mix.distribution = gsort_test::Distribution::kFewDistinct;  // many equal keys across chunks
      const std::string data = gsort_test::make_records(rng, spec, chunk == 1 ? 50 : 10000, mix);
      std::string copy = data;
      const uint64_t n = data.size() / spec.record_size;
      const uint64_t kept =
          gsort::sort_records_in_place(reinterpret_cast<uint8_t*>(copy.data()), n, config_for(spec), chunk);
      copy.resize(kept * spec.record_size);
      EXPECT_EQ(gsort_test::describe_difference(copy, gsort_test::reference_sort(data, spec), spec.record_size), "")
          << "chunk " << chunk << " reverse " << spec.reverse << " unique " << spec.unique;
    }
  }
}

}  // namespace
