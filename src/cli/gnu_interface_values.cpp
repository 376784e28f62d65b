#include "src/cli/gnu_interface_values.h"

#include "src/core/errors.h"

namespace gsort {

void set_gnu_interface(const RawOptions& o, bool lines, SortConfig& c) {
  const RawLineOptions& l = o.lines;
  if (!lines && (l.debug || l.compress_program_given)) {
    throw UsageError(std::string(l.debug ? "--debug" : "--compress-program") +
                     " is for text lines, not records (--record-size, --format)" +
                     (l.debug ? "" : ": records spill with --compress-temp"));
  }
  if (l.debug && (o.check || o.check_quiet)) {
    throw UsageError(std::string("options '-") + (o.check_quiet ? "C" : "c") + " --debug' are incompatible");
  }
  if (l.debug && o.output_given) throw UsageError("options '-o --debug' are incompatible");
  c.lines.debug = l.debug;
  if (l.compress_program_given) {
    throw UsageError("--compress-program is not supported; use --compress-temp (zstd)");
  }
}

}  // namespace gsort
