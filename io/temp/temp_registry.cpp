#include "io/temp/temp_registry.h"

#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <atomic>
#include <cstring>
#include <mutex>

#include "src/core/child_registry.h"
#include "src/core/errors.h"
#include "src/core/exit_codes.h"

namespace gsort {
namespace {

// A fixed table, so the signal handler touches no allocator or lock: a slot
// is published by setting `state` after its path is written. A slot's path
// buffer is allocated on its first use and never freed (the handler may be
// reading it), only replaced, and the old one leaked, when a longer path
// comes; so the table costs 16 bytes a slot, and an out-of-core sort may
// hold a million run files at once.
constexpr int kSlots = 1 << 20;
enum SlotState : int { kFree = 0, kFile = 1, kDirectory = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  uint32_t capacity = 0;  // of path, under g_claim_mutex
  std::atomic<char*> path{nullptr};
};

Slot g_slots[kSlots];
std::mutex g_claim_mutex;
int g_next_free_hint = 0;  // under g_claim_mutex: slots below it were in use when last looked at
std::atomic<bool> g_signalled{false};
std::atomic<int> g_creating{0};  // open TempCreation brackets
// One past the highest slot ever used: the handler scans only that far.
// Scanning every slot is slow on a loaded host, and mpirun sends
// SIGKILL soon after SIGTERM when it ends a job (distributed sort).
std::atomic<int> g_slots_used{0};

// register_output_cut's file and length (-1: none).
std::atomic<int> g_cut_fd{-1};
std::atomic<int64_t> g_cut_length{0};
std::atomic<bool> g_cut_shared{false};
std::atomic<uint64_t> g_cut_written{0};

// Async-signal-safe: fstat and ftruncate.
void cut_output() {
  const int fd = g_cut_fd.load(std::memory_order_acquire);
  if (fd < 0) return;
  const int64_t length = g_cut_length.load(std::memory_order_acquire);
  if (g_cut_shared.load(std::memory_order_acquire)) {
    struct stat st;
    const uint64_t ours = g_cut_written.load(std::memory_order_acquire);
    if (::fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) != static_cast<uint64_t>(length) + ours) return;
  }
  (void)::ftruncate(fd, static_cast<off_t>(length));
}

void remove_all(int kind) {
  const int used = g_slots_used.load(std::memory_order_acquire);
  for (int i = 0; i < used; ++i) {
    Slot& s = g_slots[i];
    if (s.state.load(std::memory_order_acquire) != kind) continue;
    if (kind == kFile) {
      ::unlink(s.path.load(std::memory_order_acquire));
    } else {
      ::rmdir(s.path.load(std::memory_order_acquire));
    }
  }
}

extern "C" void cleanup_and_reraise(int sig) {
  g_signalled.store(true);
  kill_children();  // first: they write into the files removed below
  // Let creations under way finish (and be registered) first. Bounded: the
  // signal may have landed on a thread inside a bracket itself.
  for (int waited_ms = 0; g_creating.load() > 0 && waited_ms < 200; ++waited_ms) {
    struct timespec ms = {0, 1000000};
    ::nanosleep(&ms, nullptr);
  }
  cut_output();
  remove_all(kFile);
  remove_all(kDirectory);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Mapped inputs: a small table of ranges, read by the SIGBUS handler.
constexpr int kMappedSlots = 256;
struct MappedRange {
  std::atomic<uintptr_t> begin{0}, end{0};  // end 0: free
  std::atomic<bool> output{false};          // an output's range (written), not an input's
};
MappedRange g_mapped[kMappedSlots];
std::mutex g_mapped_mutex;

// The registered range holding `address`, or null.
const MappedRange* mapped_range_of(uintptr_t address) {
  for (const MappedRange& r : g_mapped) {
    const uintptr_t end = r.end.load(std::memory_order_acquire);
    if (end != 0 && address >= r.begin.load(std::memory_order_acquire) && address < end) return &r;
  }
  return nullptr;
}

extern "C" void mapped_input_fault(int sig, siginfo_t* info, void*) {
  const MappedRange* range = info ? mapped_range_of(reinterpret_cast<uintptr_t>(info->si_addr)) : nullptr;
  if (range && g_signalled.load()) {
    // The mapped output was cut by a handler under way (cut_output), which
    // ends the process: nothing to say.
    for (;;) ::pause();
  }
  if (range) {
    static const char kInput[] =
        "gsort: an input file was cut short while gsort was reading it (it must not change during the sort)\n";
    static const char kOutput[] = "gsort: the output could not be written (an I/O error on its mapped pages)\n";
    if (range->output.load(std::memory_order_acquire)) {
      (void)!::write(2, kOutput, sizeof kOutput - 1);
    } else {
      (void)!::write(2, kInput, sizeof kInput - 1);
    }
    g_signalled.store(true);
    kill_children();
    cut_output();
    remove_all(kFile);
    remove_all(kDirectory);
    ::_exit(kExitError);
  }
  // Not an input's fault: the default action, when the access is retried
  // (a fault) or now (a SIGBUS sent by kill).
  ::signal(sig, SIG_DFL);
  if (!info || info->si_code <= 0) ::raise(sig);
}

// Every signal whose default action ends the process and that may be
// caught: the classic ones, SIGXFSZ (ulimit -f: cleaned up, then gsort dies
// by the signal as GNU tools do, rather than going on with EFBIG) and
// SIGXCPU, the real-time signals. Not SIGKILL or SIGSTOP (cannot be caught),
// nor faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS;
// SIGBUS inside a mapped input is the one exception, mapped_input_fault):
// a broken process should not run more code.
bool terminates_by_default(int sig) {
  switch (sig) {
    case SIGHUP: case SIGINT: case SIGQUIT: case SIGPIPE: case SIGALRM: case SIGTERM:
    case SIGUSR1: case SIGUSR2: case SIGXCPU: case SIGXFSZ: case SIGVTALRM: case SIGPROF:
    case SIGIO: case SIGPWR:
#ifdef SIGSTKFLT
    case SIGSTKFLT:
#endif
      return true;
    default:
      return sig >= SIGRTMIN && sig <= SIGRTMAX;
  }
}

}  // namespace

void install_cleanup_signal_handlers() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = cleanup_and_reraise;
  sigemptyset(&sa.sa_mask);
  for (int sig = 1; sig < NSIG; ++sig) {
    if (!terminates_by_default(sig)) continue;
    struct sigaction old;
    // Respect an inherited "ignore" (e.g. nohup), as other tools do.
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    ::sigaction(sig, &sa, nullptr);
  }
  struct sigaction bus;
  std::memset(&bus, 0, sizeof bus);
  bus.sa_sigaction = mapped_input_fault;
  bus.sa_flags = SA_SIGINFO;
  sigemptyset(&bus.sa_mask);
  ::sigaction(SIGBUS, &bus, nullptr);
}

namespace {

int register_mapped(const void* base, size_t length, bool output) {
  std::lock_guard<std::mutex> lock(g_mapped_mutex);
  for (int i = 0; i < kMappedSlots; ++i) {
    MappedRange& r = g_mapped[i];
    if (r.end.load(std::memory_order_relaxed) != 0) continue;
    const auto begin = reinterpret_cast<uintptr_t>(base);
    r.output.store(output, std::memory_order_release);
    r.begin.store(begin, std::memory_order_release);
    r.end.store(begin + length, std::memory_order_release);
    return i;
  }
  throw Error("too many mapped files (" + std::to_string(kMappedSlots) + ")");
}

}  // namespace

int register_mapped_input(const void* base, size_t length) { return register_mapped(base, length, false); }

int register_mapped_output(const void* base, size_t length) { return register_mapped(base, length, true); }

void unregister_mapped_input(int slot) {
  if (slot < 0 || slot >= kMappedSlots) return;
  std::lock_guard<std::mutex> lock(g_mapped_mutex);
  g_mapped[slot].end.store(0, std::memory_order_release);
}

void register_output_cut(int fd, uint64_t length, bool shared) {
  g_cut_length.store(static_cast<int64_t>(length), std::memory_order_release);
  g_cut_shared.store(shared, std::memory_order_release);
  g_cut_written.store(0, std::memory_order_release);
  g_cut_fd.store(fd, std::memory_order_release);
}

void unregister_output_cut() { g_cut_fd.store(-1, std::memory_order_release); }

std::atomic<uint64_t>& output_written_counter() { return g_cut_written; }

void cut_registered_output() {
  cut_output();
  unregister_output_cut();
}

int register_temp_path(const std::string& path, bool is_directory) {
  if (path.size() >= PATH_MAX) throw Error("temporary path too long: " + path);
  std::lock_guard<std::mutex> lock(g_claim_mutex);
  for (int n = 0; n < kSlots; ++n) {
    const int i = (g_next_free_hint + n) % kSlots;
    Slot& slot = g_slots[i];
    if (slot.state.load(std::memory_order_relaxed) != kFree) continue;
    if (slot.capacity < path.size() + 1) {
      const uint32_t capacity = static_cast<uint32_t>(std::max<size_t>(path.size() + 1, 128));
      slot.path.store(new char[capacity], std::memory_order_release);  // any old buffer is leaked, see above
      slot.capacity = capacity;
    }
    std::memcpy(slot.path.load(std::memory_order_relaxed), path.c_str(), path.size() + 1);
    if (g_slots_used.load(std::memory_order_relaxed) <= i) g_slots_used.store(i + 1, std::memory_order_release);
    slot.state.store(is_directory ? kDirectory : kFile, std::memory_order_release);
    g_next_free_hint = (i + 1) % kSlots;
    return i;
  }
  throw Error("too many temporary files (" + std::to_string(kSlots) + ")");
}

void unregister_temp_path(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  g_slots[slot].state.store(kFree, std::memory_order_release);
  std::lock_guard<std::mutex> lock(g_claim_mutex);
  g_next_free_hint = std::min(g_next_free_hint, slot);
}

TempCreation::TempCreation() {
  g_creating.fetch_add(1);
  if (g_signalled.load()) {
    g_creating.fetch_sub(1);
    throw Interrupted("interrupted");
  }
}

TempCreation::~TempCreation() { g_creating.fetch_sub(1); }

}  // namespace gsort
