// Standard output that is a regular file is written as -o writes its file,
// through a mapping by all threads, from where its offset stands, which is
// left at the end of what gsort wrote (issue 38): `{ ...; gsort; ...; } >
// out` and `>> out` keep what comes before and after. A pipe, /dev/null, a
// file that is also an input and a file with bytes past its offset are
// written as one stream, as before. A failed sort leaves the file as it was.
// A pipe's output is mapped and made ready while the pipe is read (the
// range grows with it); a pipe that outgrows one chunk gives that range up.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tmpfs.h"

namespace gsort_test {
namespace {

std::string records(size_t n, uint64_t seed) {
  Rng rng(seed);
  return rng.bytes(n * 100);
}

class StandardOutputFile : public testing::Test {
 protected:
  void SetUp() override {
    std::string lines;
    for (int i = 0; i < 200000; ++i) lines += std::to_string((i * 7919) % 100003) + " line\n";
    write_file(dir_.file("lines"), lines);
    write_file(dir_.file("records"), records(300000, 21));
    ASSERT_EQ(run_gsort({"--format", "gensort", dir_.file("records"), "-o", dir_.file("records.sorted")}).exit_code,
              0);
    ASSERT_EQ(run_gsort({dir_.file("lines"), "-o", dir_.file("lines.sorted")}).exit_code, 0);
  }

  // /bin/sh -c `script` in the test's directory, with $G the gsort binary.
  ProcessResult shell(const std::string& script, const std::string& binary = "") {
    ProcessOptions o;
    o.env = {"G=" + (binary.empty() ? gsort_argv({}).front() : binary)};
    return run_process({"/bin/sh", "-c", "cd '" + dir_.path() + "' && " + script}, o);
  }
  std::string file(const std::string& name) { return read_file(dir_.file(name)); }
  // `script` ends well, leaves `expected` in `name` and, under -v, says it
  // filled it through a mapping.
  void expect_mapped(const std::string& script, const std::string& name, const std::string& expected) {
    const ProcessResult r = shell(script);
    ASSERT_EQ(r.status(), "exit 0") << script << ": " << r.err;
    EXPECT_TRUE(file(name) == expected) << script;
    EXPECT_NE(r.err.find("output: filled through a mapping"), std::string::npos) << script << ": " << r.err;
  }

  TempDir dir_;
};

TEST_F(StandardOutputFile, IsMappedAndWritesWhatDashOWrites) {
  expect_mapped("\"$G\" -v --format gensort records > out", "out", file("records.sorted"));
  expect_mapped("\"$G\" -v lines > out", "out", file("lines.sorted"));
}

TEST_F(StandardOutputFile, WhatComesBeforeAndAfterStays) {
  ProcessResult r = shell("{ echo first; \"$G\" --format gensort records; echo last; } > out");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("out") == "first\n" + file("records.sorted") + "last\n");
  r = shell("{ printf x; \"$G\" -u lines; printf y; } > out");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const ProcessResult unique = run_gsort({"-u", dir_.file("lines")});
  EXPECT_TRUE(file("out") == "x" + unique.out + "y") << "-u writes less than it reserved";
}

TEST_F(StandardOutputFile, APipesOutputIsMappedAsThePipeArrives) {
  expect_mapped("cat records | \"$G\" -v --format gensort > out", "out", file("records.sorted"));
  expect_mapped("cat records | \"$G\" -v --format gensort -o sorted", "sorted", file("records.sorted"));
  const ProcessResult r = shell("{ echo first; cat records | \"$G\" --format gensort; echo last; } > out");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("out") == "first\n" + file("records.sorted") + "last\n");
}

TEST_F(StandardOutputFile, APipeOfLinesIsMappedAsItArrives) {
  expect_mapped("cat lines | \"$G\" -v > out", "out", file("lines.sorted"));
  ProcessResult r = shell("{ echo first; cat lines | \"$G\"; echo last; } > out");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("out") == "first\n" + file("lines.sorted") + "last\n");
  // Spilled: the range grown for the first chunk is given up.
  r = shell("{ echo first; cat lines | \"$G\" -v -S 1M -T .; echo last; } > out");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("out") == "first\n" + file("lines.sorted") + "last\n");
  EXPECT_EQ(r.err.find(" 0 runs,"), std::string::npos) << r.err;
  // -u writes less than arrives: not grown as it arrives, and right.
  r = shell("{ printf x; cat lines lines | \"$G\" -u; printf y; } > out");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("out") == "x" + run_gsort({"-u", dir_.file("lines")}).out + "y");
}

// Under -S 1M the pipe fills many chunks: the range grown for its first is
// given up (the file cut back to where gsort started), and the merge writes
// the output after what came before.
TEST_F(StandardOutputFile, APipeOfManyChunksGivesItsGrownRangeUp) {
  const ProcessResult r =
      shell("{ echo first; cat records | \"$G\" -v --format gensort -S 1M -T .; echo last; } > out");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("out") == "first\n" + file("records.sorted") + "last\n");
  EXPECT_NE(r.err.find("gsort: runs: "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("gsort: runs: 0\n"), std::string::npos) << r.err;
}

// `>>` (O_APPEND) is written with write(), as sort writes it: other
// processes may append to the file too, and each write must land after
// their bytes (a mapping reserves its range once).
TEST_F(StandardOutputFile, AppendKeepsWhatWasThereAndIsAStream) {
  write_file(dir_.file("out"), "kept\n");
  const ProcessResult r = shell("\"$G\" -v lines >> out && \"$G\" --format gensort records >> out");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("out") == "kept\n" + file("lines.sorted") + file("records.sorted"));
  EXPECT_EQ(r.err.find("output: filled through a mapping"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("standard output is appended to (>>)"), std::string::npos) << r.err;
}

#ifdef GSORT_HOOKS_BINARY
// Two writers on one O_APPEND file: another process appends once gsort
// has started, just before its first byte (and, for a pipe, while gsort
// reads it), with gsort's input a pipe, a file sorted in memory (mapped
// under `>`) or spilled: both writers' bytes survive, in the order they
// were written.
TEST_F(StandardOutputFile, AppendNeverOverwritesWhatAnotherWriterAppended) {
  for (const std::string& kind : {std::string("lines"), std::string("records")}) {
    const std::string format = kind == "records" ? " --format gensort" : "";
    const std::vector<std::pair<std::string, std::vector<std::string>>> inputs = {
        {"cat " + kind + " | \"$G\"" + format, {"chunk-0", "output"}},
        {"\"$G\"" + format + " --page-cache keep " + kind, {"output"}},
        {"\"$G\"" + format + " -S 1M -T . " + kind, {"output"}}};
    for (const auto& [input, moments] : inputs) {
      for (const std::string& moment : moments) {
        write_file(dir_.file("out"), "pre\n");
        const ProcessResult r =
            shell("export GSORT_TEST_APPEND_AT=" + moment + ":out:INTRUDER; " + input + " >> out", GSORT_HOOKS_BINARY);
        ASSERT_EQ(r.status(), "exit 0") << input << ": " << r.err;
        EXPECT_TRUE(file("out") == "pre\nINTRUDER" + file(kind + ".sorted")) << input << " at " << moment;
      }
    }
  }
}
#endif

// Standard output opened read-write and read to its end (as `>>` without
// O_APPEND): mappable, but not where it is also an input.
TEST_F(StandardOutputFile, AFileThatIsAlsoAnInputIsAStream) {
  const std::string before = file("lines");
  const ProcessResult r = shell("{ cat <&1 >/dev/null; \"$G\" -v lines; } 1<> lines");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("lines") == before + file("lines.sorted"));
  EXPECT_NE(r.err.find("standard output is also an input"), std::string::npos) << r.err;
}

// Standard output that is a regular file is cut back to where it ended when
// the sort fails midway: a pipe's output on a full disk (a stream, or a
// range grown as the pipe arrives), and a file's under --no-space-check,
// through `>` and `>>`. Needs root for the small tmpfs.
TEST_F(StandardOutputFile, AFullDiskMidwayLeavesTheFileAsItWas) {
  const std::string small = dir_.subdir("small");
  Tmpfs tmpfs(small, "2m");
  if (!tmpfs.mounted()) GTEST_SKIP() << "no tmpfs: " << tmpfs.error();
  for (const std::string& kind : {std::string("lines"), std::string("records")}) {
    const std::string format = kind == "records" ? " --format gensort" : "";
    for (const std::string& input : {"cat " + kind + " | \"$G\"" + format, "\"$G\" --no-space-check" + format + " " + kind,
                                      "\"$G\" --no-space-check -S 1M -T ." + format + " " + kind}) {
      for (const std::string redirect : {">", ">>"}) {
        write_file(small + "/out", "pre\n");
        const std::string script =
            redirect == ">" ? "{ echo pre; " + input + "; } > small/out" : input + " >> small/out";
        const ProcessResult r = shell(script);
        EXPECT_EQ(r.status(), "exit 2") << script << ": " << r.err;
        EXPECT_NE(r.err.find("no space left on device"), std::string::npos) << script << ": " << r.err;
        EXPECT_EQ(read_file(small + "/out"), "pre\n") << script;
      }
    }
  }
}

TEST_F(StandardOutputFile, PipesDevicesAndFilesWithATailStayStreams) {
  ProcessResult r = shell("\"$G\" -v --format gensort records | cat > out");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("out") == file("records.sorted"));
  EXPECT_NE(r.err.find("one write() stream (standard output)"), std::string::npos) << r.err;
  r = shell("\"$G\" -v lines > /dev/null");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_NE(r.err.find("one write() stream"), std::string::npos) << r.err;
  // Opened without truncation over a longer file: the bytes past the output stay.
  const std::string tail(100, 't');
  write_file(dir_.file("out"), std::string(file("lines.sorted").size(), 'o') + tail);
  r = shell("\"$G\" -v lines 1<> out");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("out") == file("lines.sorted") + tail);
  EXPECT_NE(r.err.find("one write() stream"), std::string::npos) << r.err;
}

#ifdef GSORT_HOOKS_BINARY
// The input shrinks under the sort after the output was mapped: exit 2,
// and the file ends where it ended before.
TEST_F(StandardOutputFile, AFailedSortLeavesTheFileAsItWas) {
  write_file(dir_.file("out"), "kept\n");
  const ProcessResult r =
      shell("GSORT_TEST_TRUNCATE_INPUT=records:1000000:0 \"$G\" --format gensort records >> out", GSORT_HOOKS_BINARY);
  EXPECT_EQ(r.status(), "exit 2") << r.err;
  EXPECT_EQ(file("out"), "kept\n");
}

// Interrupted by SIGINT before the read: in memory, after the output was
// mapped and its file extended to hold the sort (the signal's handler cuts
// it back); spilled, before it was mapped.
TEST_F(StandardOutputFile, AnInterruptedSortLeavesTheFileAsItWas) {
  for (const std::string& more : {std::string(), std::string(" -S 1M -T .")}) {
    write_file(dir_.file("out"), "kept\n");
    const ProcessResult r = shell("GSORT_TEST_SIGNAL_AT_CHUNK=0:2 exec \"$G\" --format gensort records" + more +
                                      " >> out",
                                  GSORT_HOOKS_BINARY);
    EXPECT_EQ(r.status(), "signal 2") << more << ": " << r.err;
    const std::string out = file("out");
    EXPECT_EQ(out.size(), 5u) << more;
    EXPECT_TRUE(out == "kept\n") << more;
  }
  // A pipe: interrupted before its read, with its output's range mapped to grow.
  write_file(dir_.file("out"), "kept\n");
  const ProcessResult r =
      shell("cat records | GSORT_TEST_SIGNAL_AT_CHUNK=0:2 \"$G\" --format gensort >> out", GSORT_HOOKS_BINARY);
  EXPECT_NE(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(file("out") == "kept\n");
}
#endif

}  // namespace
}  // namespace gsort_test
