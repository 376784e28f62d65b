#include "src/cli/gnu_interface_values.h"

#include "src/core/errors.h"

namespace gsort {

void set_gnu_interface(const RawOptions& o, bool lines, SortConfig& c) {
  const RawLineOptions& l = o.lines;
  if (!lines && l.debug) throw UsageError("--debug is for text lines, not records (--record-size, --format)");
  if (l.debug && (o.check || o.check_quiet)) {
    throw UsageError(std::string("options '-") + (o.check_quiet ? "C" : "c") + " --debug' are incompatible");
  }
  if (l.debug && o.output_given) throw UsageError("options '-o --debug' are incompatible");
  c.lines.debug = l.debug;
  if (l.compress_program_given) {
    // One compressor: the program's runs are plain inside (src/merge/temp_runs.h).
    if (o.compress_temp_given && o.compress_temp != "off") {
      throw UsageError("options '--compress-program' and '--compress-temp' are incompatible");
    }
    c.compress_program = l.compress_program;
    c.compress_temp = TempCompression::kOff;
  }
}

}  // namespace gsort
