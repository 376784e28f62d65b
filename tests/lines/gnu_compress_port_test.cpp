// coreutils' tests of --compress-program, ported: sort-compress.sh and
// sort-compress-proc.sh, as shell scripts run in a temporary directory
// with $G the gsort under test and $SHELL /bin/sh. The suite spills with
// -S 1k and 2000 lines; gsort raises -S below 1 MiB to 1 MiB, so the
// input here is 200000 lines (1.4 MB), which spills under it. Each script
// prints what it checks and the test compares that.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// Runs `script` with /bin/sh in `dir`, $G set to gsort (its argv[0]).
ProcessResult run_script(const TempDir& dir, const std::string& script) {
  ProcessOptions options = c_locale();
  options.env.push_back("G=" + gsort_argv({}).front());
  options.timeout_s = 300;
  return run_process({"/bin/sh", "-c", "cd \"$0\" && " + script, dir.path()}, options);
}

// The suite's inputs: exp sorted, in reversed; and its compressor, which
// swaps 4 and 1 both ways (so PROG -d undoes PROG) and leaves `ok`.
const char* const kSetUp =
    "seq -w 200000 > exp && tac exp > in && insize=$(stat -c %s in) && "
    "printf '#!/bin/sh\\neval \"$PRE_COMPRESS\"\\ntr 41 14 || exit\\neval \"$POST_COMPRESS\"\\ntouch ok\\n' > "
    "compress && chmod +x compress && export PRE_COMPRESS= POST_COMPRESS= && ";

TEST(SortCompressPort, TheProgramIsFoundRunAndItsOutputReadBack) {
  TempDir dir;
  const ProcessResult r = run_script(dir, std::string(kSetUp) + R"(
    cp compress gzip
    # Immune to a parent's ignored SIGCHLD.
    ( trap '' CHLD; PATH=.:$PATH exec "$G" -S 1k --compress-program=gzip in > /dev/null ); echo "chld $?"
    rm -f ok; PATH=.:$PATH "$G" -S 1k --compress-program=gzip in > out; echo "path $?"
    cmp -s exp out && echo "path same"; test -f ok && echo "path ran"
    rm -f ok; PATH=.:$PATH "$G" -S 1k in > out; echo "none $?"; test -f ok || echo "none did not run"
    mv gzip dzip; rm -f ok
    "$G" --compress-program=./dzip -S 1k in > out; echo "slash $?"; cmp -s exp out && echo "slash same"
    test -f ok && echo "slash ran"
    rm -f ok; PATH=.:$PATH "$G" --compress-program=dzip -S 1k in > out; echo "dzip $?"; test -f ok && echo "dzip ran"
    "$G" --compress-program=missing -S 1k in > out 2> err; echo "missing $?"; cmp -s exp out && echo "missing same"
    cat err
  )");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "chld 0\npath 0\npath same\npath ran\nnone 0\nnone did not run\nslash 0\nslash same\nslash ran\n"
            "dzip 0\ndzip ran\nmissing 0\nmissing same\n"
            "gsort: could not run compress program 'missing': No such file or directory\n");
}

TEST(SortCompressPort, AProgramThatFailsOrLeavesEarlyFailsTheSort) {
  TempDir dir;
  const ProcessResult r = run_script(dir, std::string(kSetUp) + R"(
    # Early exit: a compressor that reads nothing is no SIGPIPE for gsort.
    PRE_COMPRESS='exit 0' "$G" --compress-program=./compress -S 1k --batch-size=30 ./in ./in > out 2> /dev/null
    echo "early $?"
    for arg in '' '-d'; do
      POST_COMPRESS='
        test "X$1" != "X'$arg'" || {
          test "X$1" = "X" && exec <&1
          size=$(stat -c %s -)
          exec >/dev/null 2>&1 <&1 || exit
          expr $size "<" '"$insize"' / 2 || { sleep 1; exit 1; }
        }
      ' "$G" --compress-program=./compress -S 1k --batch-size=2 in > out 2> err
      echo "impatient '$arg' $?"
    done
    cat err
    # A child started before gsort is not one of its own.
    rm -f ok
    ( (sleep 1; exec false) & PRE_COMPRESS='test -f ok || sleep 2' POST_COMPRESS='touch ok' \
      exec "$G" --compress-program=./compress -S 1k in > out ); echo "pre-exec $?"
    cmp -s exp out && echo "pre-exec same"
  )");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "early 2\nimpatient '' 2\nimpatient '-d' 2\n"
            "gsort: './compress' [-d] terminated abnormally\npre-exec 0\npre-exec same\n");
}

TEST(SortCompressPort, OneProgramAndNotBesideZstd) {
  TempDir dir;
  const ProcessResult r = run_script(dir, R"(
    printf 'b\na\n' > in
    "$G" --compress-program=a --compress-program=b in; echo "two $?"
    "$G" --compress-program=a --compress-program=a in; echo "same twice $?"
    "$G" --compress-program=a --compress-temp=on in; echo "with zstd $?"
    "$G" --compress-program=a --compress-temp=off in; echo "zstd off $?"
  )");
  EXPECT_EQ(r.out, "two 2\na\nb\nsame twice 0\nwith zstd 2\na\nb\nzstd off 0\n");
  EXPECT_EQ(r.err,
            "gsort: multiple compress programs specified\n"
            "gsort: options '--compress-program' and '--compress-temp' are incompatible\n");
}

}  // namespace
}  // namespace gsort_test
