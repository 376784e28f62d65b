#include "src/core/child_registry.h"

#include <signal.h>
#include <pthread.h>
#include <time.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "src/core/errors.h"

namespace gsort {
namespace {

// A fixed table, so that the handler touches no allocator or lock. The
// children alive at once are bounded (compress_program.h: the compressors
// by --parallel, the decompressors by a merge's fan-in), far below it.
constexpr int kSlots = 4096;
std::atomic<pid_t> g_children[kSlots];  // 0: free
std::mutex g_claim_mutex;
std::atomic<int> g_slots_used{0};  // one past the highest slot ever used: the handler scans that far
std::atomic<bool> g_killing{false};
std::atomic<int> g_starting{0};  // open ChildStart brackets

}  // namespace

ChildStart::ChildStart() {
  sigset_t all;
  sigfillset(&all);
  const int error = pthread_sigmask(SIG_BLOCK, &all, &mask_);
  if (error != 0) throw Error(std::string("blocking signals: ") + std::strerror(error));
  g_starting.fetch_add(1);
  if (g_killing.load()) {
    g_starting.fetch_sub(1);
    pthread_sigmask(SIG_SETMASK, &mask_, nullptr);
    throw Interrupted("interrupted");
  }
}

ChildStart::~ChildStart() {
  g_starting.fetch_sub(1);
  pthread_sigmask(SIG_SETMASK, &mask_, nullptr);  // restores what was set before: cannot fail
}

int register_child(pid_t pid) {
  std::lock_guard<std::mutex> lock(g_claim_mutex);
  for (int i = 0; i < kSlots; ++i) {
    if (g_children[i].load(std::memory_order_relaxed) != 0) continue;
    if (g_slots_used.load(std::memory_order_relaxed) <= i) g_slots_used.store(i + 1, std::memory_order_release);
    g_children[i].store(pid, std::memory_order_release);
    return i;
  }
  throw Error("too many child processes (" + std::to_string(kSlots) + ")");
}

void unregister_child(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  g_children[slot].store(0, std::memory_order_release);
}

void kill_children() {
  g_killing.store(true);
  // No bracket is this thread's (signals are blocked inside one), so each
  // closes as soon as its posix_spawn returns; bounded all the same, at
  // what an exec on a loaded host may take.
  for (int waited_ms = 0; g_starting.load() > 0 && waited_ms < 5000; ++waited_ms) {
    struct timespec ms = {0, 1000000};
    ::nanosleep(&ms, nullptr);
  }
  const int used = g_slots_used.load(std::memory_order_acquire);
  for (int i = 0; i < used; ++i) {
    const pid_t pid = g_children[i].load(std::memory_order_acquire);
    if (pid > 0) ::kill(pid, SIGKILL);  // a child that is already gone: ESRCH, nothing to do
  }
}

bool children_killed() { return g_killing.load(); }

}  // namespace gsort
