// The options of a sort of text lines (the default when no record layout,
// --record-size or --format, is given), as the command line gave them:
// plain data. src/keys/line_spec.h resolves them into the keys and the
// comparison, GNU sort's way.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gsort {

// The locale's categories that a sort of lines reads (line_locale.h),
// by name: "C" unless the environment, or the library's caller, names
// another.
struct LineLocale {
  std::string collate = "C";  // LC_COLLATE: how text compares
  std::string ctype = "C";    // LC_CTYPE: blanks, -d -i -f per byte
  std::string numeric = "C";  // LC_NUMERIC: -n -h -g's decimal point and thousands separator
  std::string time = "C";     // LC_TIME: -M's month names
  bool failed = false;        // the environment named a locale that is not installed: C, as sort does
};

// Whether a locale name is C's (GNU's hard_locale is false): C or POSIX.
inline bool is_c_locale_name(const std::string& name) { return name == "C" || name == "POSIX"; }

struct LineOptions {
  bool enabled = false;           // line mode
  std::vector<std::string> keys;  // -k POS1[,POS2], GNU sort's syntax, in order
  int separator = -1;             // -t: the field separator byte; -1: blank-separated fields
  bool numeric = false;           // -n
  bool human_numeric = false;     // -h
  bool fold = false;              // -f
  bool general_numeric = false;   // -g
  bool month = false;             // -M
  bool random = false;            // -R
  bool version = false;           // -V
  bool dictionary = false;        // -d
  bool printable = false;         // -i
  std::array<uint8_t, 16> random_seed{};  // -R: --random-source's first 16 bytes, or random ones
  bool ignore_blanks = false;     // -b
  bool stable = false;            // -s: no last-resort comparison of whole lines
  bool zero_terminated = false;   // -z: lines end with NUL, not newline
  bool debug = false;             // --debug: each output line followed by its keys underlined
  LineLocale locale;              // C unless given (the command line takes the environment's)
};

}  // namespace gsort
