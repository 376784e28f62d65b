// --compress-program=PROG, run as GNU sort runs it: a temporary file is
// compressed by PROG (its standard input the file's bytes, its standard
// output the compressed file) and read back through `PROG -d` (its
// standard input the compressed file, its standard output a pipe to
// gsort). PROG is looked up in PATH once, as execvp would, and started
// with posix_spawn. Only the children it starts are waited for.
//
// How many run at once is bounded, as sort bounds them: a compressor
// starts only while fewer than `max_compressors` run (else the oldest is
// waited for first), and a decompressor runs for each run a merge reads at
// once, so at most its fan-in (--batch-size). Every child is registered
// (src/core/child_registry.h) so that a terminating signal kills it, and
// the object kills and reaps those still running when it goes, so no child
// outlives gsort.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace gsort {

class CompressProgram {
 public:
  // A child started here: a number never used again (a pid may be, once
  // its process is reaped). 0: none.
  using Child = uint64_t;

  // Compressors run at once by a sort on `threads` threads: one a thread.
  // Each holds its plain file on the disk until it ends, and a compressor
  // keeps a core busy, so more would only take space and memory.
  static size_t compressors_for(unsigned threads);

  // Puts SIGCHLD back to its default: with it ignored (a parent's
  // `trap '' CHLD`) children are reaped unseen and their exit status lost.
  CompressProgram(std::string program, size_t max_compressors);
  // Kills (SIGKILL) and reaps every child not yet waited for: a sort that
  // failed has no use for what they write.
  ~CompressProgram();
  CompressProgram(const CompressProgram&) = delete;
  CompressProgram& operator=(const CompressProgram&) = delete;

  const std::string& program() const { return program_; }
  // The name as GNU sort quotes it in messages: 'PROG'.
  std::string quoted() const;

  // Starts PROG reading descriptor `from` from its start and writing `to`;
  // returns the child, or 0 with *error set (ENOENT for a program not
  // found). While max_compressors run, first waits for the oldest (and
  // throws as wait() does if it failed).
  Child start_compressor(int from, int to, int* error);
  // Starts PROG -d reading `from` from its start into a new pipe, whose
  // read end (close-on-exec) goes to *read_end; 0 with *error set. Never
  // waits for room: a merge reads all its decompressors at once, and
  // holding one back would stop the merge that frees the others.
  Child start_decompressor(int from, int* read_end, int* error);
  // Waits for a child started above, unless that is done already; throws
  // Error "'PROG' [-d] terminated abnormally" unless it exited with status 0.
  void wait(Child child);
  // Kills (SIGKILL) and reaps a child whose output is no longer wanted (its
  // reader went first, on a failure): its exit says nothing.
  void stop(Child child);

 private:
  enum class State { kRunning, kWaited, kFailed };  // kWaited: a thread is waiting for it
  struct Entry {
    pid_t pid = -1;
    int slot = -1;  // in the child registry
    bool compressor = false;
    State state = State::kRunning;
  };

  Child start(bool decompress, int in, int out, int* error);
  // Starts the program, registered in the child registry (its slot to *slot).
  pid_t spawn(bool decompress, int in, int out, int* slot, int* error) const;
  // Waits (with mutex_ held in `lock`) until fewer than max_compressors_
  // run, then counts one more.
  void make_room(std::unique_lock<std::mutex>& lock);
  // Waits for `pid` to exit and reaps it; its wait status. Never returns
  // once the signal handler has killed the children.
  int reap(pid_t pid, int slot) const;
  [[noreturn]] void failed() const;
  // The path PROG resolves to, or "" with *error set.
  const std::string& resolved(int* error) const;

  const std::string program_;
  const size_t max_compressors_;
  mutable std::once_flag resolve_once_;
  mutable std::string resolved_;
  mutable int resolve_error_ = 0;

  std::mutex mutex_;
  std::condition_variable changed_;  // a child ended, or a compressor's place came free
  std::map<Child, Entry> children_;  // started and not yet waited for (or failed)
  std::deque<Child> compressors_;    // running compressors no thread waits for yet, oldest first
  size_t compressors_running_ = 0;   // compressors started (or starting) and not yet reaped
  Child next_child_ = 1;
};

}  // namespace gsort
