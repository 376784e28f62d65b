// Every check the command line makes of the files a request names holds for
// the library too (they are made below both, in run_config): --stats and
// --trace naming an input or the output are refused before anything is
// written, the input untouched.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gsort/gsort.h"
#include "tests/support/temp_dir.h"

namespace {

const std::string kInput = "dddcccbbbaaa";

gsort::Options three_byte_records(std::vector<std::string> arguments) {
  gsort::Options o;
  o.record_size = 3;
  o.threads = 2;
  o.arguments = std::move(arguments);
  return o;
}

TEST(LibraryRefusals, StatsOrTraceOnAnInputOrTheOutputIsRefused) {
  gsort_test::TempDir dir;
  const std::string in = dir.file("in"), out = dir.file("out");
  const std::vector<std::vector<std::string>> cases = {
      {"--stats", in}, {"--trace", in}, {"--stats", out}, {"--trace", out}};
  for (const std::vector<std::string>& args : cases) {
    SCOPED_TRACE(args[0] + " " + args[1]);
    gsort_test::write_file(in, kInput);
    gsort_test::write_file(out, "old");
    EXPECT_THROW(gsort::sort_files({in}, out, three_byte_records(args)), gsort::UsageError);
    EXPECT_EQ(gsort_test::read_file(in), kInput) << "the input was replaced";
    EXPECT_EQ(gsort_test::read_file(out), "old") << "the output was replaced";
  }
}

// An option the call's own parameters say is refused however it is
// spelled, an unambiguous prefix included (--outp is --output).
TEST(LibraryRefusals, ReservedOptionsByAnyPrefix) {
  gsort_test::TempDir dir;
  gsort_test::write_file(dir.file("in"), kInput);
  for (const char* a : {"--output=x", "--outp=x", "--output-p", "--vers", "--che"}) {
    SCOPED_TRACE(a);
    EXPECT_THROW(gsort::sort_files({dir.file("in")}, dir.file("out"), three_byte_records({a})), gsort::UsageError);
  }
  EXPECT_EQ(gsort_test::entry_names(dir.path()), std::vector<std::string>{"in"});
}

}  // namespace
