#include "tests/support/fault_hooks.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "src/core/errors.h"
#include "src/core/test_hooks.h"

namespace gsort::test_hooks {
namespace {

void corrupt_output_record(uint8_t* records, uint64_t count, uint32_t record_size, uint64_t first) {
  const char* spec = std::getenv("GSORT_TEST_CORRUPT_OUTPUT");
  if (spec == nullptr || *spec == '\0') return;
  char* end = nullptr;
  const uint64_t target = std::strtoull(spec, &end, 10);
  uint64_t byte = record_size - 1;
  if (*end == ':') byte = std::strtoull(end + 1, nullptr, 10) % record_size;
  if (target < first || target >= first + count) return;
  records[(target - first) * record_size + byte] ^= 0x01;
}

void block_stats_rename(const char* path) {
  const char* on = std::getenv("GSORT_TEST_BLOCK_STATS_RENAME");
  if (on != nullptr && *on != '\0') ::mkdir(path, 0700);
}

constexpr uint64_t kMapped = ~uint64_t{0};  // the chunk "mapped": once the input is mapped

// GSORT_TEST_TRUNCATE_INPUT=PATH:BYTES:CHUNK (CHUNK a number, or "mapped")
void truncate_input(uint64_t chunk) {
  const char* spec = std::getenv("GSORT_TEST_TRUNCATE_INPUT");
  if (spec == nullptr || *spec == '\0') return;
  const std::string s = spec;
  const size_t last = s.rfind(':'), middle = s.rfind(':', last - 1);
  if (last == std::string::npos || middle == std::string::npos) return;
  const std::string at = s.substr(last + 1);
  if ((at == "mapped" ? kMapped : std::strtoull(at.c_str(), nullptr, 10)) != chunk) return;
  const off_t bytes = static_cast<off_t>(std::strtoull(s.c_str() + middle + 1, nullptr, 10));
  if (::truncate(s.substr(0, middle).c_str(), bytes) != 0) std::abort();
}

// GSORT_TEST_SIGNAL_AT_CHUNK=CHUNK:SIG: the process sends itself SIG
// before chunk CHUNK is read.
void signal_at_chunk(uint64_t chunk) {
  const char* spec = std::getenv("GSORT_TEST_SIGNAL_AT_CHUNK");
  if (spec == nullptr || *spec == '\0') return;
  char* end = nullptr;
  if (std::strtoull(spec, &end, 10) != chunk || *end != ':') return;
  ::kill(::getpid(), std::atoi(end + 1));
}

// Waits until the clock the kernel stamps files with has moved past
// `path`'s last change, so that a write now gets times of its own (the
// kernel's file times have the grain of its clock tick): the write the
// hooks below make stands for one made later, not within the same tick.
void after_last_change(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) std::abort();
  for (;;) {
    struct timespec now {};
    ::clock_gettime(CLOCK_REALTIME_COARSE, &now);
    if (now.tv_sec > st.st_ctim.tv_sec || (now.tv_sec == st.st_ctim.tv_sec && now.tv_nsec > st.st_ctim.tv_nsec)) return;
    std::this_thread::yield();
  }
}

// "MOMENT:A:B" with MOMENT the one given: A and B; false otherwise.
bool at_moment(const char* variable, const std::string& moment, std::string* a, std::string* b) {
  const char* spec = std::getenv(variable);
  if (spec == nullptr) return false;
  const std::string s = spec;
  const size_t first = s.find(':'), second = first == std::string::npos ? first : s.find(':', first + 1);
  if (second == std::string::npos || s.substr(0, first) != moment) return false;
  *a = s.substr(first + 1, second - first - 1);
  *b = s.substr(second + 1);
  return true;
}

// At MOMENT ("chunk-N": before chunk N is read; "mapped": once the input
// is mapped; "output": when the output's writer starts), once each:
//   GSORT_TEST_REWRITE_INPUT=MOMENT:PATH:FROM writes FROM's bytes over
//   PATH's from its start, in place, as `dd conv=notrunc` does;
//   GSORT_TEST_APPEND_AT=MOMENT:PATH:TEXT appends TEXT to PATH through a
//   descriptor of its own opened with O_APPEND, as another writer would.
void write_at(const std::string& moment) {
  std::string path, from;
  if (at_moment("GSORT_TEST_REWRITE_INPUT", moment, &path, &from)) {
    after_last_change(path);
    std::string bytes;
    FILE* f = std::fopen(from.c_str(), "rb");
    if (f == nullptr) std::abort();
    for (int c; (c = std::fgetc(f)) != EOF;) bytes.push_back(static_cast<char>(c));
    std::fclose(f);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::pwrite(fd, bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) std::abort();
    ::close(fd);
  }
  std::string text;
  if (at_moment("GSORT_TEST_APPEND_AT", moment, &path, &text)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0 || ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) std::abort();
    ::close(fd);
  }
}

void before_chunk(uint64_t chunk) {
  truncate_input(chunk);
  signal_at_chunk(chunk);
  write_at("chunk-" + std::to_string(chunk));
}

void input_mapped() {
  truncate_input(kMapped);
  write_at("mapped");
}

void output_starts() { write_at("output"); }

// GSORT_TEST_FAIL_DEVICE_ALLOC=N: the N-th allocation of device memory
// (from 1) fails as out of memory; the others succeed.
bool fail_nth_device_allocation() {
  static const uint64_t nth = [] {
    const char* spec = std::getenv("GSORT_TEST_FAIL_DEVICE_ALLOC");
    return spec == nullptr ? uint64_t{0} : std::strtoull(spec, nullptr, 10);
  }();
  static std::atomic<uint64_t> made{0};
  return nth != 0 && ++made == nth;
}

// GSORT_TEST_DEVICE_START=MS:ok|fail: auto sees a GPU driver; the device's
// start takes MS milliseconds, then goes on (to find no usable GPU on a
// host without one) or fails as a broken device would.
bool fake_device_present() { return std::getenv("GSORT_TEST_DEVICE_START") != nullptr; }
void fake_device_start() {
  const char* spec = std::getenv("GSORT_TEST_DEVICE_START");
  if (spec == nullptr) return;
  char* end = nullptr;
  const uint64_t ms = std::strtoull(spec, &end, 10);
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));  // the slow device itself, not a wait for anything
  if (std::strcmp(end, ":fail") == 0) throw DeviceError("the device failed to start (GSORT_TEST_DEVICE_START)");
}

// GSORT_TEST_TEMP_DEVICE=ROOM_BYTES[:WRITE_MB_S] (the page cache's room, the
// temp device's write speed) for --compress-temp=auto.
void fake_temp_device(uint64_t* page_cache_room, double* write_bytes_per_s) {
  const char* spec = std::getenv("GSORT_TEST_TEMP_DEVICE");
  if (spec == nullptr || *spec == '\0') return;
  char* end = nullptr;
  *page_cache_room = std::strtoull(spec, &end, 10);
  if (*end == ':') *write_bytes_per_s = std::strtod(end + 1, nullptr) * 1e6;
}

// GSORT_TEST_FAIL_RANK=R, GSORT_TEST_FAIL_AT=PHASE (or PHASE-signal: a
// SIGTERM, as mpirun sends; PHASE-kill: a SIGKILL, which no handler sees;
// PHASE-touch: the file GSORT_TEST_TOUCH_FILE names gets a new modification
// time, as a writer would give it, and the rank goes on).
void fail_rank(const char* phase, int rank) {
  const char* at = std::getenv("GSORT_TEST_FAIL_AT");
  const char* who = std::getenv("GSORT_TEST_FAIL_RANK");
  if (!at || !who || std::atoi(who) != rank) return;
  const std::string wanted = at;
  if (wanted == std::string(phase) + "-touch") {
    const char* file = std::getenv("GSORT_TEST_TOUCH_FILE");
    const struct timespec times[2] = {{0, UTIME_OMIT}, {1, 0}};  // mtime: 1970, unlike any file's
    if (file == nullptr || ::utimensat(AT_FDCWD, file, times, 0) != 0) std::abort();
    return;
  }
  if (wanted == std::string(phase) + "-signal") ::raise(SIGTERM);
  if (wanted == std::string(phase) + "-kill") ::raise(SIGKILL);
  if (wanted == phase) throw Error("test hook: rank " + std::to_string(rank) + " fails in the " + phase + " phase");
}

bool receive_in_files_set() { return std::getenv("GSORT_TEST_RECEIVE_IN_FILES") != nullptr; }
bool output_pwrite_set() { return std::getenv("GSORT_TEST_OUTPUT_PWRITE") != nullptr; }
bool partition_on_cpu_set() { return std::getenv("GSORT_TEST_PARTITION_ON_CPU") != nullptr; }
bool rank_sort_log_set() { return std::getenv("GSORT_TEST_RANK_SORT_LOG") != nullptr; }

uint64_t shm_slot_records() {
  const char* n = std::getenv("GSORT_TEST_SHM_SLOT_RECORDS");
  return n ? std::strtoull(n, nullptr, 10) : 0;
}

// GSORT_TEST_OUTPUT_WAY=stream|mapped
int forced_output_way() {
  const char* way = std::getenv("GSORT_TEST_OUTPUT_WAY");
  if (way == nullptr) return 0;
  if (std::string(way) == "stream") return 1;
  return std::string(way) == "mapped" ? 2 : 0;
}

// GSORT_TEST_FINAL_MERGE=batches|ranges:N
long forced_final_merge() {
  const char* how = std::getenv("GSORT_TEST_FINAL_MERGE");
  if (how == nullptr) return 0;
  const std::string s = how;
  if (s == "batches") return -1;
  return s.rfind("ranges:", 0) == 0 ? std::strtol(s.c_str() + 7, nullptr, 10) : 0;
}

// GSORT_TEST_CORRUPT_RUN=RUN:SEGMENT flips a bit of the byte in the middle
// of that file of that run.
void corrupt_run(int fd, uint64_t run, uint64_t segment) {
  const char* spec = std::getenv("GSORT_TEST_CORRUPT_RUN");
  if (spec == nullptr || *spec == '\0') return;
  char* end = nullptr;
  if (std::strtoull(spec, &end, 10) != run || *end != ':' || std::strtoull(end + 1, nullptr, 10) != segment) return;
  struct stat st;
  if (::fstat(fd, &st) != 0) std::abort();
  const off_t at = st.st_size / 2;
  unsigned char byte = 0;
  if (::pread(fd, &byte, 1, at) != 1) std::abort();
  byte ^= 0x04;
  if (::pwrite(fd, &byte, 1, at) != 1) std::abort();
}

// GSORT_TEST_HOLD_LINE_RUNS_FROM=BYTES
uint64_t hold_line_runs_from_set() {
  const char* bytes = std::getenv("GSORT_TEST_HOLD_LINE_RUNS_FROM");
  return bytes ? std::strtoull(bytes, nullptr, 10) : UINT64_MAX;
}

// GSORT_TEST_HOLD_LINE_RUNS_IN_HOST=1
bool hold_runs_in_host_set() { return std::getenv("GSORT_TEST_HOLD_LINE_RUNS_IN_HOST") != nullptr; }

// GSORT_TEST_HOLD_LINE_RUNS_AFTER=N
uint64_t hold_line_runs_after_set() {
  const char* n = std::getenv("GSORT_TEST_HOLD_LINE_RUNS_AFTER");
  return n ? std::strtoull(n, nullptr, 10) : 0;
}

// GSORT_TEST_LINE_PIECE_BYTES=BYTES
uint64_t line_piece_bytes_set() {
  const char* bytes = std::getenv("GSORT_TEST_LINE_PIECE_BYTES");
  return bytes ? std::strtoull(bytes, nullptr, 10) : 0;
}

// GSORT_TEST_GATHER_TASK_RECORDS=N
uint64_t gather_task_records_set() {
  const char* n = std::getenv("GSORT_TEST_GATHER_TASK_RECORDS");
  return n ? std::strtoull(n, nullptr, 10) : 0;
}

}  // namespace

void install_fault_hooks() {
  before_final_write = &corrupt_output_record;
  before_stats_rename = &block_stats_rename;
  before_chunk_read = &before_chunk;
  after_input_mapped = &input_mapped;
  before_output = &output_starts;
  temp_device = &fake_temp_device;
  rank_phase = &fail_rank;
  receive_in_files = &receive_in_files_set;
  output_by_pwrite = &output_pwrite_set;
  partition_on_cpu = &partition_on_cpu_set;
  rank_sort_log = &rank_sort_log_set;
  shared_slot_records = &shm_slot_records;
  output_way = &forced_output_way;
  final_merge_ranges = &forced_final_merge;
  before_final_merge = &corrupt_run;
  fail_device_allocation = &fail_nth_device_allocation;
  device_present = &fake_device_present;
  device_start = &fake_device_start;
  hold_line_runs_from = &hold_line_runs_from_set;
  hold_runs_in_host = &hold_runs_in_host_set;
  hold_line_runs_after = &hold_line_runs_after_set;
  line_piece_bytes = &line_piece_bytes_set;
  gather_task_records = &gather_task_records_set;
}

}  // namespace gsort::test_hooks
