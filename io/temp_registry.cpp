#include "io/temp_registry.h"

#include <limits.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include "core/errors.h"

namespace gsort {
namespace {

// A fixed table, so the signal handler touches no allocator or lock: a slot
// is published by setting `state` after its path is written.
constexpr int kSlots = 8192;
enum SlotState : int { kFree = 0, kFile = 1, kDirectory = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};

Slot g_slots[kSlots];
std::mutex g_claim_mutex;
std::atomic<bool> g_signalled{false};
std::atomic<int> g_creating{0};  // open TempCreation brackets

void remove_all(int kind) {
  for (Slot& s : g_slots) {
    if (s.state.load(std::memory_order_acquire) != kind) continue;
    if (kind == kFile) {
      ::unlink(s.path);
    } else {
      ::rmdir(s.path);
    }
  }
}

extern "C" void cleanup_and_reraise(int sig) {
  g_signalled.store(true);
  // Let creations under way finish (and be registered) first. Bounded: the
  // signal may have landed on a thread inside a bracket itself.
  for (int waited_ms = 0; g_creating.load() > 0 && waited_ms < 200; ++waited_ms) {
    struct timespec ms = {0, 1000000};
    ::nanosleep(&ms, nullptr);
  }
  remove_all(kFile);
  remove_all(kDirectory);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void install_cleanup_signal_handlers() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = cleanup_and_reraise;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    struct sigaction old;
    // Respect an inherited "ignore" (e.g. nohup), as other tools do.
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    ::sigaction(sig, &sa, nullptr);
  }
}

int register_temp_path(const std::string& path, bool is_directory) {
  if (path.size() >= PATH_MAX) throw Error("temporary path too long: " + path);
  std::lock_guard<std::mutex> lock(g_claim_mutex);
  for (int i = 0; i < kSlots; ++i) {
    if (g_slots[i].state.load(std::memory_order_relaxed) != kFree) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(is_directory ? kDirectory : kFile, std::memory_order_release);
    return i;
  }
  throw Error("too many temporary files");
}

void unregister_temp_path(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  g_slots[slot].state.store(kFree, std::memory_order_release);
}

bool cleanup_signal_received() { return g_signalled.load(); }

TempCreation::TempCreation() {
  g_creating.fetch_add(1);
  if (g_signalled.load()) {
    g_creating.fetch_sub(1);
    throw Interrupted("interrupted");
  }
}

TempCreation::~TempCreation() { g_creating.fetch_sub(1); }

}  // namespace gsort
