// Child processes that must not outlive gsort: --compress-program's
// compressors and decompressors (io/codec/compress_program.h). On a
// terminating signal the cleanup handler (io/temp/temp_registry.cpp) ends
// every registered child with SIGKILL before it removes the temporary
// files: what the children work on are those files, and a program that
// catches or ignores SIGTERM must not stay behind either. Grandchildren (a
// script's own children) are the script's to end.
#pragma once

#include <signal.h>
#include <sys/types.h>

namespace gsort {

// Brackets starting a child and registering it. Once the handler has begun
// ending children, no bracket opens (Interrupted is thrown), and the
// handler waits for open brackets to close before it kills, so a child
// started by one thread while another handles the signal is killed too.
// Inside the bracket the thread blocks every signal, so that the handler
// never runs there (it would wait for itself, and the child started would
// go unregistered). Register the child before the bracket closes; start it
// with mask() as its signal mask (posix_spawnattr_setsigmask).
class ChildStart {
 public:
  ChildStart();
  ~ChildStart();
  ChildStart(const ChildStart&) = delete;
  ChildStart& operator=(const ChildStart&) = delete;

  // The thread's signal mask before the bracket.
  const sigset_t& mask() const { return mask_; }

 private:
  sigset_t mask_;
};

// Registers a running child; returns a slot for unregister_child.
// Thread-safe. Throws Error when the table is full.
int register_child(pid_t pid);
// Call once the child has exited and before it is reaped (waitid with
// WNOWAIT, then waitpid): until it is reaped its pid cannot be handed out
// again, so the handler never kills a stranger.
void unregister_child(int slot);

// For the signal handlers (async-signal-safe): stops new starts, waits for
// those under way, and sends SIGKILL to every registered child.
void kill_children();
// Whether kill_children has begun: a child's death seen after it is the
// handler's doing, and the handler ends the process; nothing to report.
bool children_killed();

}  // namespace gsort
