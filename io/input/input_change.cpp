#include "io/input/input_change.h"

#include "src/core/errors.h"

namespace gsort {

void check_input_unchanged(int fd, const std::string& name, const FileIdentity& then) {
  const FileIdentity now = FileIdentity::of(fd, name);
  if (now.unchanged_since(then)) return;
  throw DataError(name + ": the file changed while gsort read it (it was written after gsort opened it); " +
                  "sort a copy that does not change");
}

}  // namespace gsort
