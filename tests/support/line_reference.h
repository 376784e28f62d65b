// An independent reference for the line tests: lines split the plain way,
// sorted with std::stable_sort and the comparison alone, -u applied by
// hand; and a chunk laid out as the line sorters take it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "src/algo/line_index.h"
#include "src/chunk_sort/lines/sorter.h"
#include "src/keys/line_compare.h"
#include "src/keys/line_spec.h"

namespace gsort_test {

// The lines of `input` (a last line without its terminator included).
std::vector<std::string> split_lines(const std::string& input, char eol);

// The order (indices) of `lines` by the comparison, equal ones in input order.
std::vector<uint32_t> reference_order(const gsort::LineSpec& spec, const std::vector<std::string>& lines);

// The output GNU sort gives: lines in order, -u applied, each terminated.
std::string reference_output(const gsort::LineSpec& spec, const std::vector<std::string>& lines);

// The lines laid out as a chunk: text with terminators, and starts.
struct LineChunk {
  std::string text;
  std::vector<uint64_t> starts;
  gsort::LineSpan span() const {
    return gsort::LineSpan{reinterpret_cast<const uint8_t*>(text.data()), starts.data(), starts.size() - 1};
  }
};
LineChunk make_chunk(const std::vector<std::string>& lines, char eol);

// The order `sorter` gives `lines` laid out as a chunk.
std::vector<uint32_t> order_by(gsort::LineSorter& sorter, const gsort::LineSpec& spec,
                               const std::vector<std::string>& lines);

// Sorts every case under every argument set with a sorter from `make` and compares
// with reference_order: "" when all agree, else which case and arguments.
using MakeSorter = std::function<std::unique_ptr<gsort::LineSorter>(const gsort::LineSpec&)>;
std::string differences_from_reference(const std::vector<std::vector<std::string>>& cases,
                                       const std::vector<std::vector<std::string>>& arg_sets,
                                       const MakeSorter& make);

// `rounds` random option sets and inputs (line_gen.h) from `seed`, each
// sorted with a sorter from `make` and compared with reference_order: "" when all
// agree, else the round and its arguments.
std::string random_rounds_against_reference(uint64_t seed, int rounds, size_t max_lines, const MakeSorter& make);

// The spec that gsort's command line (src/cli/options.h) makes of these
// arguments; throws UsageError on what gsort refuses.
gsort::LineSpec spec_of_args(const std::vector<std::string>& args);
// The same in the named locale, whatever the environment's.
gsort::LineSpec spec_in_locale(const std::string& locale, const std::vector<std::string>& args);

// Whether the named locale is installed (newlocale finds it).
bool locale_installed(const std::string& name);

}  // namespace gsort_test
