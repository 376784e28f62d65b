// --compress-program=PROG, run as GNU sort runs it: a temporary file is
// compressed by PROG (its standard input the file's bytes, its standard
// output the compressed file) and read back through `PROG -d` (its
// standard input the compressed file, its standard output a pipe to
// gsort). PROG is looked up in PATH once, as execvp would, and started
// with posix_spawn. Only the children it starts are waited for.
#pragma once

#include <sys/types.h>

#include <mutex>
#include <string>

namespace gsort {

class CompressProgram {
 public:
  // Puts SIGCHLD back to its default: with it ignored (a parent's
  // `trap '' CHLD`) children are reaped unseen and their exit status lost.
  explicit CompressProgram(std::string program);

  const std::string& program() const { return program_; }
  // The name as GNU sort quotes it in messages: 'PROG'.
  std::string quoted() const;

  // Starts PROG reading descriptor `from` from its start and writing
  // `to`; returns its pid, or -1 with *error set (ENOENT for a program
  // not found).
  pid_t start_compressor(int from, int to, int* error) const;
  // Starts PROG -d reading `from` from its start into a new pipe, whose
  // read end (close-on-exec) goes to *read_end; -1 with *error set.
  pid_t start_decompressor(int from, int* read_end, int* error) const;
  // Waits for a child started above; throws Error "'PROG' [-d] terminated
  // abnormally" unless it exited with status 0.
  void wait(pid_t pid) const;

 private:
  pid_t spawn(bool decompress, int in, int out, int* error) const;
  // The path PROG resolves to, or "" with *error set.
  const std::string& resolved(int* error) const;

  const std::string program_;
  mutable std::once_flag resolve_once_;
  mutable std::string resolved_;
  mutable int resolve_error_ = 0;
};

}  // namespace gsort
