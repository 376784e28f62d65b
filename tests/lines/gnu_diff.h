// The differential test's runner: one random case sorted by GNU sort
// (LC_ALL=C, a child process) and by gsort (in this process, through the
// command line's parser and run_config, as the program runs it), their
// outputs compared byte for byte. The CPU and GPU variants share it.
#pragma once

#include <string>
#include <vector>

#include "tests/support/line_gen.h"
#include "tests/support/rng.h"

namespace gsort_test {

// Whether /usr/bin/sort -V orders as gsort does: coreutils 9.2 and later
// put ".0" before ".A"; 9.1 put ".A" first (src/keys/version_order.cpp).
// Where it does not, the comparisons with it leave -V out.
bool gnu_sort_has_current_version_order();

// A random case whose GNU output is gsort's to match: without -V where
// /usr/bin/sort predates that order.
LineOptionsCase comparable_line_options(Rng& rng);

// Whether /usr/bin/sort -n skips a 0x80 byte among a number's digits as a
// thousands separator: coreutils 9.1 to 9.4 on x86 did, 9.5 and later
// (and gsort) end the number there.
bool gnu_sort_reads_0x80_as_a_separator();

// Random lines for `o` (line_gen.h) whose GNU output is gsort's to match:
// their 0x80 bytes are 0x81 where /usr/bin/sort reads 0x80 as a separator.
std::string comparable_line_input(Rng& rng, const LineOptionsCase& o, size_t max_lines);

struct DiffOutcome {
  bool same = true;
  std::string what;  // on a difference: the case and both outputs, for the failure message
};

// Runs `cases` random cases from `seed`; extra_args go to gsort only
// (e.g. --backend gpu). Stops at the first difference.
DiffOutcome run_gnu_differential(uint64_t seed, int cases, size_t max_lines,
                                 const std::vector<std::string>& extra_args);

// The same, each case through the gsort binary instead (main.cpp's path),
// with its input on a pipe.
DiffOutcome run_gnu_differential_cli(uint64_t seed, int cases, size_t max_lines,
                                     const std::vector<std::string>& extra_args);

// The same in a locale (LC_ALL=locale for both programs), over lines
// with its letters (accents in UTF-8, or in one byte for a locale whose
// characters are single bytes): each case sorts, and checks (-c) the
// input and GNU's output. A case that gsort refuses because the locale
// changes a rule it does not read yet ("is not supported yet", exit 2,
// nothing written) is counted in `refused`, not compared.
struct LocaleTally {
  int compared = 0;
  int refused = 0;
};
DiffOutcome run_gnu_locale_differential(const std::string& locale, uint64_t seed, int cases, size_t max_lines,
                                        const std::vector<std::string>& extra_args, LocaleTally* tally);

// -m against GNU sort -m: each case merges 1 to 5 random inputs, each one
// sorted by the case's options, left as it came (unsorted), or sorted and
// then disturbed in a few places (partly sorted); an input may appear twice.
// thread_counts are cycled over the cases (--parallel).
DiffOutcome run_gnu_merge_differential(uint64_t seed, int cases, size_t max_lines,
                                       const std::vector<unsigned>& thread_counts,
                                       const std::vector<std::string>& extra_args);

// Through the gsort binary on a pipe, as run_gnu_differential_cli, with
// sort's interface beside the orderings: each case adds --debug (stdout
// and stderr compared, "sort:" read as "gsort:"), or one of --check=WORD,
// -y, --buffer-size, -S 0, --parallel=100000, options spelled as sort's
// long abbreviations (--st, --rev, --bu=) or obsolete +POS1 -POS2 keys
// (stdout, exit status and whether stderr is empty compared).
DiffOutcome run_gnu_interface_differential(uint64_t seed, int cases, size_t max_lines);

}  // namespace gsort_test
