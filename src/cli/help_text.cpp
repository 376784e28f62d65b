#include "src/cli/help_text.h"

#include "src/cli/help_page.h"

namespace gsort {
namespace {

// What --help says around the option table's groups.
const char* const kIntro =
    "Usage: gsort [OPTION]... [INPUT]...\n"
    "Sort text lines (the default), byte for byte as LC_ALL=C sort does, or files\n"
    "of fixed-size binary records (--record-size, --format) by a key inside each\n"
    "record, using the GPU when one is present. INPUT is a file or - for standard\n"
    "input (the default); several inputs are sorted together.\n\n"
    "Lines are compared in the C locale's order: bytes as they are (\\r, NUL and\n"
    "invalid UTF-8 included); a last line without its newline gets one.\n"
    "Records sort stably: records with equal keys keep their input order, always.\n"
    "Floats sort in IEEE total order: -NaN < -inf < ... < -0.0 < +0.0 < ... < +NaN.\n"
    "An option given twice takes its last value; -k adds a key, -o names one file.\n";

const char* const kExamples =
    "Examples:\n"
    "  producer | gsort -t, -k2,2n -k1,1 | consumer\n"
    "      CSV lines by the number in field 2, then by field 1, as sort would\n"
    "  gsort --record-size 64 -k 8:u64 -k 0:4:desc in.bin -o out.bin\n"
    "      64-byte records by the unsigned 64-bit number at offset 8, then by\n"
    "      bytes 0-3, descending\n"
    "  producer | gsort --format gensort -S 4G -T /scratch > sorted.bin\n"
    "      Sort Benchmark records from a pipe, in 4 GiB, spilling to /scratch\n"
    "  gsort -c --format gensort sorted.bin\n"
    "      exit 1 and name the first record out of order, if any\n";

const char* const kExitStatus = "Exit status: 0 success, 1 --check found the input out of order, 2 any error.\n";

const HelpPage& gsort_page() {
  static const HelpPage page{
      kIntro,
      {
    {"Input and keys", {"record-size", "format", "key", "reverse", "unique", "stable", "check", "-C", "merge"}},
    {"Text lines (the default)", {"field-separator", "numeric-sort", "human-numeric-sort", "ignore-case",
                                  "ignore-leading-blanks", "zero-terminated", "debug", "files0-from"}},
    {"Other orderings of lines (GNU sort's, also as -k modifiers d g i M R V)",
     {"dictionary-order", "general-numeric-sort", "ignore-nonprinting", "month-sort", "random-sort", "random-source",
      "version-sort", "sort"}},
    {"Memory and temporary files",
     {"memory", "temporary-directory", "batch-size", "compress-temp", "compress-program", "spill-streams", "page-cache"}},
    {"Backends", {"backend", "algorithm", "device", "gpu-memory", "parallel", "exchange"}},
    {"Output", {"output", "compress-output", "decompress", "output-parts", "to-terminal", "verify", "no-verify", "no-space-check", "fsync"}},
    {"Reporting", {"verbose", "progress", "no-progress", "stats", "trace", "help", "version"}},
      },
      std::string(kExamples) + "\n" + kExitStatus};
  return page;
}

}  // namespace

std::string format_help(const boost::program_options::options_description& options) {
  return format_help_page(options, gsort_page());
}

}  // namespace gsort
