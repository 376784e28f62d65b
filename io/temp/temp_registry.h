// Paths that must not outlive the process: temp directories, run files and
// the not-yet-renamed output. On every terminating signal that can be caught
// (SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGXFSZ, SIGXCPU, SIGALRM,
// SIGUSR1, ...: temp_registry.cpp lists them) a signal handler removes every
// registered path (files first, then directories) and re-raises the signal,
// so an interrupted gsort leaves nothing behind; before that, it kills the
// child processes gsort started (src/core/child_registry.h). SIGKILL cannot be caught:
// the output's unnamed temporary file (io/output/output_temp.h) needs no cleanup.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace gsort {

// Installs the handlers. Call once, early in main().
void install_cleanup_signal_handlers();

// Input files mapped into memory (the distributed sort maps its slice): a
// file cut short while it is mapped faults (SIGBUS) where read() would
// report that it shrank. For a fault inside a registered range, the
// handler (installed with the others) prints one line, removes every
// registered path and exits 2; any other SIGBUS keeps its default action.
// Register a range after mapping it and unregister it before unmapping.
// Thread-safe. Throws Error when the table is full.
int register_mapped_input(const void* base, size_t length);
// The same for an output's range mapped for writing, whose SIGBUS is an I/O
// error (its blocks reserved beforehand, so not a full disk).
int register_mapped_output(const void* base, size_t length);
// Either kind.
void unregister_mapped_input(int slot);

// Standard output that is a regular file gsort extends from where it ends
// (`> file`, `>> file`), through a mapping or a stream: on a fatal signal,
// on a SIGBUS in a mapped range, and on cut_registered_output(), the file
// `fd` is cut back to `length` bytes, where it ended before. `shared` (an
// O_APPEND descriptor, which other processes may append through too): only
// where the file ends at `length` plus what output_written_counter() counted,
// so that nobody else's bytes are cut. One at a time; unregister before the
// descriptor closes.
void register_output_cut(int fd, uint64_t length, bool shared = false);
void unregister_output_cut();
// Where the bytes gsort appends to the registered output through write()
// are counted (a shared one's cut needs them): File::count_written_into.
std::atomic<uint64_t>& output_written_counter();
// The cut, now (a sort that failed), where one is registered; then unregistered.
void cut_registered_output();

// Registers a path for removal on a fatal signal; returns a slot for
// unregister_temp_path. Thread-safe. Throws Error when the table is full.
int register_temp_path(const std::string& path, bool is_directory);
void unregister_temp_path(int slot);

// Brackets the creation of a registered temporary file or directory. Once a
// cleanup signal has arrived, no bracket opens (Interrupted is thrown), and
// the handler waits for open brackets to close before it removes paths, so
// a file created by one thread while another handles the signal cannot
// escape the cleanup. Register the path before the bracket closes.
class TempCreation {
 public:
  TempCreation();
  ~TempCreation();
  TempCreation(const TempCreation&) = delete;
  TempCreation& operator=(const TempCreation&) = delete;
};

}  // namespace gsort
