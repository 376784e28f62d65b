// coreutils' own tests of sort -m, ported: tests/sort/sort-merge.pl (every
// case) and tests/sort/sort-merge-fdlimit.sh (as written, in a shell, with
// gsort where it runs sort). Each expects what the suite expects of sort,
// with gsort's name in its messages.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/sanitizers.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// `script` in bash, in `dir`, with $G the gsort under test and every
// descriptor above 2 closed first, as a shell started by the suite has them
// (none the test runner leaks counts against ulimit -n).
ProcessResult run_script(const TempDir& dir, const std::string& script) {
  const std::string close_all = "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd<&-\"; done\n";
  ProcessOptions options = c_locale();
  options.env.push_back("G=" + gsort_argv({}).front());
  return run_process({"/bin/bash", "-c", close_all + "cd \"$0\" || exit 99\n" + script, dir.path()}, options);
}

// The open-file limit less the standard streams: the most --batch-size
// sort allows.
std::string most_batch_size() {
  struct rlimit limit;
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return "?";
  return std::to_string(static_cast<unsigned>(limit.rlim_cur - 3));
}

struct MergeCase {
  const char* name;
  std::string args;  // split on blanks, before the inputs
  std::string out;
  int exit_code = 0;
  std::string err;
};

// sort-merge.pl: three empty inputs and one that says "foo"; merges and
// --batch-size's checks.
TEST(SortMergePort, EveryCase) {
  TempDir dir;
  for (const char* name : {"empty1", "empty2", "empty3"}) write_file(dir.file(name), "");
  write_file(dir.file("foo"), "foo\n");
  std::string big;
  for (int i = 0; i < 1024; ++i) big += "aaa\n";
  write_file(dir.file("big"), big);
  const std::string inputs = " empty1 empty2 empty3 foo";
  const std::string bigint = "18446744073709551616";  // UINTMAX_MAX + 1
  const std::vector<MergeCase> cases = {
      {"m1", "-m" + inputs, "foo\n"},
      {"nmerge-0", "-m --batch-size=0" + inputs, "", 2,
       "gsort: invalid --batch-size argument '0'\ngsort: minimum --batch-size argument is '2'\n"},
      {"nmerge-1", "-m --batch-size=1" + inputs, "", 2,
       "gsort: invalid --batch-size argument '1'\ngsort: minimum --batch-size argument is '2'\n"},
      {"nmerge-neg", "-m --batch-size=-1" + inputs, "", 2, "gsort: invalid --batch-size argument '-1'\n"},
      {"nmerge-nan", "-m --batch-size=a" + inputs, "", 2, "gsort: invalid --batch-size argument 'a'\n"},
      {"nmerge-big", "-m --batch-size=" + bigint + inputs, "", 2,
       "gsort: --batch-size argument '" + bigint + "' too large\n" +
           "gsort: maximum --batch-size argument with current rlimit is " + most_batch_size() + "\n"},
      // As many inputs as --batch-size: merged at once, no temporary file.
      {"nmerge-yes", "-m --batch-size=4 -Tdoes/not/exist" + inputs, "foo\n"},
      // Setting --batch-size alone leaves the buffer as it was.
      {"batch-size", "--batch-size=16 -Tdoes/not/exist big", big},
  };
  for (const MergeCase& c : cases) {
    const ProcessResult r = run_script(dir, "exec \"$G\" " + c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.name << ": " << r.err;
    EXPECT_EQ(r.out, c.out) << c.name;
    EXPECT_EQ(r.err, c.err) << c.name;
  }
  // nmerge-no: fewer than the inputs need temporary files, and -T has no
  // room for them. The suite checks the message up to the reason; gsort
  // words it as its own (it makes a directory there, not a file).
  const ProcessResult r = run_script(dir, "exec \"$G\" -m --batch-size=2 -Tdoes/not/exist" + inputs);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("gsort: cannot create a temporary directory in does/not/exist: ", 0), 0u) << r.err;
}

// sort-merge-fdlimit.sh, every case as the suite writes it: a --batch-size
// the open-file limit cannot allow; merges of 17 inputs under ulimit -n 19
// and 20 (with -R, whose random source is a file too); and -m into one of
// its inputs, given twice, under ulimit -n 10 with descriptors 7, 8 and 9
// taken, so that gsort has seven (four beside the standard streams).
TEST(SortMergeFdlimitPort, AsWritten) {
#if GSORT_TEST_UNDER_ASAN
  GTEST_SKIP() << "the sanitizers' runtime needs descriptors of its own (tests/support/sanitizers.h)";
#endif
  TempDir dir;
  const ProcessResult r = run_script(dir, R"(
returns_ () { local exp_exit="$1"; shift; "$@"; test $? -eq "$exp_exit"; }
compare () { cmp -s "$1" "$2"; }
fail=0
mkdir in err || exit 99

for i in $(seq 17); do
  echo $i >in/$i
done
seq 17 >some-data

(ulimit -n 19 && touch ulimit-worked &&
 returns_ 2 "$G" --batch-size=20 /dev/null) || fail=1
rm ulimit-worked || { echo skip; exit 0; }

# The default batch size (nmerge) is 16.
(ulimit -n 19 && touch ulimit-worked \
   && "$G" -m --batch-size=16 in/* 2>err/merge-default-err \
   || ! grep "open failed" err/merge-default-err) || fail=1
rm ulimit-worked || { echo skip; exit 0; }

for randsource in '' --random-source=some-data; do
  (ulimit -n 20 \
     && "$G" -mR $randsource --batch-size=16 in/* 2>err/merge-random-err \
     || ! grep "open failed" err/merge-random-err) || fail=1
done

(seq 6 && echo 6) >exp || exit 99
echo 6 >out || exit 99
(exec 3<&- 4<&- 5<&- 6<&- 7</dev/null 8<&7 9<&7 &&
 ulimit -n 10 &&
 "$G" -n -m --batch-size=7 -o out out in/1 in/2 in/3 in/4 in/5 out
) &&
compare exp out || fail=1

cat err/*
echo "fail=$fail"
)");
  // The merges' output (the first to standard output) is the inputs'
  // lines, merged as they come.
  std::string merged;
  for (const char* n : {"1", "10", "11", "12", "13", "14", "15", "16", "17", "2", "3", "4", "5", "6", "7", "8", "9"}) {
    merged += std::string(n) + "\n";
  }
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "gsort: --batch-size argument '20' too large\n"
                   "gsort: maximum --batch-size argument with current rlimit is 16\n");
  ASSERT_EQ(r.out.size(), 3 * merged.size() + 7) << r.out;  // and twice shuffled by -R
  EXPECT_EQ(r.out.substr(0, merged.size()), merged);
  EXPECT_EQ(r.out.substr(r.out.size() - 7), "fail=0\n") << r.out;
}

}  // namespace
}  // namespace gsort_test
