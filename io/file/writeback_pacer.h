// Keeps a file that is written in order from filling the page cache with
// dirty pages: each step written is handed to the disk at once
// (sync_file_range), and a step a window behind is waited for and dropped
// from the page cache (POSIX_FADV_DONTNEED). The writer then goes at the
// disk's pace in small, steady waits, instead of running at memory speed
// until the kernel's dirty limit throttles it in long stalls (seconds long
// in a memory cgroup: docs/benchmarks.md, cgroup, 2026-11-24), and it leaves
// no pages of its own behind for others' cache to make room for.
//
//   WritebackPacer pacer(fd);   // from the file's current offset
//   write(fd, ...n bytes...);  pacer.wrote(n);
#pragma once

#include <cstdint>

namespace gsort {

class WritebackPacer {
 public:
  static constexpr uint64_t kStepBytes = uint64_t{16} << 20;  // handed to the disk at a time
  static constexpr uint64_t kWindowSteps = 4;                 // in flight before the oldest is waited for

  explicit WritebackPacer(int fd);

  // `bytes` more were written at the end. Never fails: where the file
  // cannot be paced (a pipe, a file system without sync_file_range), it
  // stops trying.
  void wrote(uint64_t bytes);

  // Whether pacing still runs (false once a call was refused).
  bool active() const { return active_; }

 private:
  void kick(uint64_t offset);     // start writing back [offset, +step)
  void retire(uint64_t offset);   // wait for [offset, +step), then drop it

  int fd_;
  bool active_ = true;
  uint64_t end_ = 0;      // the file's end as written
  uint64_t kicked_ = 0;   // [.., kicked_) handed to the disk
  uint64_t retired_ = 0;  // [.., retired_) waited for and dropped
};

}  // namespace gsort
