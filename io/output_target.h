// Where the sorted records go. For a regular file (or a new one), they are
// written to a temporary file in the destination's directory and renamed
// into place by commit(), so the destination never holds a partial result
// and `-o` may name an input; a symbolic link is followed, and the file it
// names is replaced. Without commit() the temporary file is removed. "-" is
// standard output; a destination that exists and is not a regular file (a
// device such as /dev/null, a FIFO) is written directly: renaming over it
// would replace the device with a file.
#pragma once

#include <string>

#include "io/file.h"

namespace gsort {

class OutputTarget {
 public:
  // Creates the temporary file now, so that an unwritable destination fails
  // before any work is done.
  explicit OutputTarget(const std::string& destination);
  ~OutputTarget();
  OutputTarget(const OutputTarget&) = delete;
  OutputTarget& operator=(const OutputTarget&) = delete;

  File& file() { return file_; }
  bool is_stdout() const { return destination_ == "-"; }
  // Writing straight into the destination (stdout, a device, a FIFO).
  bool is_direct() const { return temp_path_.empty(); }
  const std::string& destination() const { return destination_; }

  // Closes the file and renames it over the destination. `durable`: first
  // flushes the file to stable storage, and afterwards its directory (the
  // rename), so that a crash after exit 0 cannot lose the output. Standard
  // output and devices are flushed where they can be (a pipe cannot).
  void commit(bool durable = false);

 private:
  std::string destination_;
  std::string target_;  // the file the temporary is renamed onto
  std::string temp_path_;
  int slot_ = -1;
  File file_;
  bool committed_ = false;
};

}  // namespace gsort
