// Merges under a small open-file limit (issue 35): -m of more inputs than
// the limit lets one merge open merges them in passes through temporary
// runs, for lines and records, down to ulimit -n 7 (GNU coreutils'
// tests/sort/sort-continue.sh and sort-merge-fdlimit.sh, ported); a
// --batch-size the limit cannot allow is refused, as sort refuses it.
// Each case runs in bash with every descriptor above 2 closed first, so
// that none the test runner leaks counts against the limit.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/sanitizers.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// `script` in bash, in `dir`, with $G the gsort under test and every
// descriptor above 2 closed.
ProcessResult run_script(const std::string& dir, const std::string& script) {
  const std::string close_all = "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd<&-\"; done\n";
  return run_process({"/bin/bash", "-c", close_all + "cd '" + dir + "' || exit 99\nG='" + gsort_argv({})[0] +
                                             "'\n" + script});
}

// Inputs in/1 .. in/n: line i is "i\n"; as records, "%04d".
void write_inputs(const TempDir& dir, int n, bool records) {
  dir.subdir("in");
  for (int i = 1; i <= n; ++i) {
    char record[16];
    std::snprintf(record, sizeof record, "%04d", i);
    write_file(dir.file("in/" + std::to_string(i)), records ? std::string(record) : std::to_string(i) + "\n");
  }
}

// 1 .. n as the sorted output: lines (numeric order) or records.
std::string numbers(int from, int to, bool records) {
  std::string out;
  for (int i = from; i <= to; ++i) {
    char record[16];
    std::snprintf(record, sizeof record, "%04d", i);
    out += records ? std::string(record) : std::to_string(i) + "\n";
  }
  return out;
}

// The options that make gsort read the inputs as lines sorted numerically,
// or as 4-byte records.
std::string layout(bool records) { return records ? "--record-size 4" : "-n"; }

// The case: 200 inputs under ulimit -n 32, with and without
// --batch-size.
TEST(CliFewDescriptors, MergeOfMoreInputsThanTheOpenFileLimitAllows) {
  for (const bool records : {false, true}) {
    TempDir dir;
    write_inputs(dir, 200, records);
    for (const std::string batch : {"", "--batch-size 5"}) {
      const ProcessResult r = run_script(dir.path(), "ulimit -n 32 || exit 98\n\"$G\" " + layout(records) + " -m " +
                                                         batch + " -T " + dir.path() + " in/*\n");
      EXPECT_EQ(r.status(), "exit 0") << layout(records) << " " << batch << ": " << r.err;
      EXPECT_EQ(r.out, numbers(1, 200, records)) << layout(records) << " " << batch;
    }
  }
}

// sort-continue.sh: 31 inputs under ulimit -n 7 (the standard streams, and
// four for gsort: the temporary directory's lock, a chain of merges that
// each take the run before and one more input into a new run), then the
// same with standard input as a 32nd input, read once.
TEST(CliFewDescriptors, MergeContinuesUnderALimitOfSeven) {
#if GSORT_TEST_UNDER_ASAN
  GTEST_SKIP() << "the sanitizers' runtime needs descriptors of its own (tests/support/sanitizers.h)";
#endif
  for (const bool records : {false, true}) {
    TempDir dir;
    write_inputs(dir, 31, records);
    write_file(dir.file("in32"), numbers(32, 32, records));
    const std::string merge = "\"$G\" " + layout(records) + " -m -T " + dir.path() + " $(ls in/* | sort -t/ -k2n)";
    ProcessResult r = run_script(dir.path(), "ulimit -n 7 || exit 98\n" + merge + " < /dev/null\n");
    EXPECT_EQ(r.status(), "exit 0") << layout(records) << ": " << r.err;
    EXPECT_EQ(r.out, numbers(1, 31, records)) << layout(records);
    r = run_script(dir.path(), "ulimit -n 7 || exit 98\n" + merge + " - < in32\n");
    EXPECT_EQ(r.status(), "exit 0") << layout(records) << ": " << r.err;
    EXPECT_EQ(r.out, numbers(1, 32, records)) << layout(records) << ": standard input as an input";
    EXPECT_EQ(list_tree(dir.path() + "/in").size(), 31u);
  }
}

// sort-merge-fdlimit.sh: under ulimit -n 19 a --batch-size of 20 is more
// than one merge could open beside the standard streams (16): refused; 16
// merges 17 inputs.
TEST(CliFewDescriptors, BatchSizeTheOpenFileLimitCannotAllowIsRefused) {
  for (const bool records : {false, true}) {
    TempDir dir;
    write_inputs(dir, 17, records);
    ProcessResult r = run_script(dir.path(), "ulimit -n 19 || exit 98\n\"$G\" " + layout(records) +
                                                 " --batch-size=20 /dev/null\n");
    EXPECT_EQ(r.status(), "exit 2") << layout(records);
    EXPECT_EQ(r.err, "gsort: --batch-size argument '20' too large\n"
                     "gsort: maximum --batch-size argument with current rlimit is 16\n");
    r = run_script(dir.path(), "ulimit -n 19 || exit 98\n\"$G\" " + layout(records) + " -m --batch-size=16 -T " +
                                   dir.path() + " in/*\n");
    EXPECT_EQ(r.status(), "exit 0") << layout(records) << ": " << r.err;
    EXPECT_EQ(r.out, numbers(1, 17, records)) << layout(records);
  }
}

// sort-merge-fdlimit.sh's last case (tests/lines/gnu_merge_port_test.cpp
// runs the script as written), for lines and records: the output is one of
// the inputs, twice, under ulimit -n 10 with three descriptors taken before
// gsort starts, so that it has four beside the standard streams: the
// temporary directory's lock, and a chain of merges, each of the run before
// and one more input into a new run, while the output's file, still empty,
// is set aside.
TEST(CliFewDescriptors, MergeIntoOneOfItsInputsUnderAFewDescriptors) {
#if GSORT_TEST_UNDER_ASAN
  GTEST_SKIP() << "the sanitizers' runtime needs descriptors of its own (tests/support/sanitizers.h)";
#endif
  for (const bool records : {false, true}) {
    TempDir dir;
    write_inputs(dir, 5, records);
    write_file(dir.file("out"), numbers(6, 6, records));
    const std::string merge = "\"$G\" " + layout(records) + " -m --batch-size=7 -T " + dir.path() +
                              " -o out out in/1 in/2 in/3 in/4 in/5 out\n";
    const ProcessResult r = run_script(dir.path(), "exec 7</dev/null 8<&7 9<&7 && ulimit -n 10 || exit 98\n" + merge);
    EXPECT_EQ(r.status(), "exit 0") << layout(records) << ": " << r.err;
    EXPECT_EQ(read_file(dir.file("out")), numbers(1, 6, records) + numbers(6, 6, records)) << layout(records);
  }
}

}  // namespace
}  // namespace gsort_test
