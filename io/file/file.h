// A file descriptor with whole-buffer read and write loops. Every failure
// throws IoError naming the path and strerror(errno); ENOSPC reads
// "no space left on device". Short reads and writes are looped.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "io/file/direct_writer.h"
#include "io/file/writeback_pacer.h"

namespace gsort {

class File {
 public:
  File() = default;
  File(int fd, std::string path, bool owned) : fd_(fd), path_(std::move(path)), owned_(owned) {}
  File(File&& o) noexcept { swap(o); }
  File& operator=(File&& o) noexcept {
    File tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  ~File();

  static File open_read(const std::string& path);
  // Opens an existing file for reading and writing (a run the merge frees
  // as it goes).
  static File open_update(const std::string& path);
  // Creates (or truncates) a file for writing, mode 0600. Not registered
  // for removal on a signal: temporary files come from TempDir.
  static File create(const std::string& path);
  // Named for messages: "cannot write standard output: ...".
  static File standard_input() { return File(0, "standard input", false); }
  static File standard_output() { return File(1, "standard output", false); }
  // An input by name: "-" is standard input and "/dev/fd/N" the open
  // descriptor N, both borrowed (read from where their offset stands, never
  // closed); anything else is opened with open_read.
  static File open_input(const std::string& name);

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  // The name to show in messages ("standard input" for fd 0).
  const std::string& display_name() const { return path_; }
  bool is_open() const { return fd_ >= 0; }

  // Reads up to n bytes; returns fewer only at end of file. Once a read has
  // found the end, later calls return 0 without reading again: a terminal
  // gives one end of file per Ctrl-D, and a second read would wait for
  // another one, where sort ends on the first.
  size_t read_full(void* buf, size_t n);
  size_t pread_full(void* buf, size_t n, uint64_t offset);
  void write_all(const void* buf, size_t n);
  void pwrite_all(const void* buf, size_t n, uint64_t offset);

  bool is_regular() const;
  // A regular file whose st_size is what a read finds: not one of /proc's
  // or sysfs's, and not a zero-size file that has content. Such files are
  // read to their end, as a pipe is, the way cat reads them.
  bool has_real_size() const;
  uint64_t size() const;  // st_size
  // The current file offset (where a regular standard input starts when
  // something read part of it before gsort); 0 where it cannot seek.
  uint64_t position() const;
  // A pipe's buffer grown to the largest the system allows (up to 8 MiB),
  // so that each read or write moves large blocks and the two sides wake
  // each other less often. Does nothing for other files; never fails.
  void enlarge_pipe() const;
  // Hints sequential access to the kernel (larger read-ahead).
  void advise_sequential() const;
  // Frees the storage and cached pages of [offset, offset+n), keeping the
  // size; false where the file system cannot punch holes.
  bool punch_hole(uint64_t offset, uint64_t n) const;
  // Cuts the file to `size` bytes (ftruncate); false where it cannot. Its
  // cached pages past `size` go, dirty ones unwritten (a punched hole, on
  // ext4, writes them out first).
  bool cut_to(uint64_t size) const;
  // Flushes the file's data to stable storage (fdatasync), where the
  // descriptor supports it; IoError "cannot flush output to disk" if not.
  void flush_data_to_disk() const;
  // From here on, write_all hands what it writes to the disk as it goes
  // and drops it from the page cache once written (io/file/writeback_pacer.h):
  // for large files written in order that the page cache cannot hold.
  // Nothing happens for a pipe or a terminal.
  void pace_writeback();
  bool writeback_paced() const { return pacer_ && pacer_->active(); }
  // From here on, write_all goes around the page cache: staged in
  // `staging_bytes` and written with O_DIRECT in whole blocks
  // (io/file/direct_writer.h). False, with nothing changed, where the file
  // cannot take direct writes or its offset is not block-aligned.
  bool write_around_cache(size_t staging_bytes);
  bool writes_around_cache() const { return direct_ != nullptr && direct_->direct(); }
  // Writes what write_all staged, cuts the file to what it was given and
  // puts the offset at its end. close() does it too; call it before
  // anything else reads, flushes or names the file.
  void finish_writes();
  // Closes and reports errors a delayed write may only show at close.
  void close();
  // From here on, write_all adds each byte that write() took to `counter`
  // (standard output's cut back, io/temp/temp_registry.h); null: none.
  void count_written_into(std::atomic<uint64_t>* counter) { written_counter_ = counter; }

 private:
  [[noreturn]] void fail(const char* what) const;
  void swap(File& o) noexcept {
    std::swap(fd_, o.fd_);
    std::swap(path_, o.path_);
    std::swap(owned_, o.owned_);
    std::swap(pacer_, o.pacer_);
    std::swap(direct_, o.direct_);
    std::swap(read_ended_, o.read_ended_);
    std::swap(written_counter_, o.written_counter_);
  }
  int fd_ = -1;
  std::string path_;
  bool owned_ = false;
  std::unique_ptr<WritebackPacer> pacer_;
  std::unique_ptr<DirectWriter> direct_;
  bool read_ended_ = false;  // read_full found the end of the file
  std::atomic<uint64_t>* written_counter_ = nullptr;
};

// The descriptor that a name stands for: 0 for "-" (with `standard` 0; 1
// for output), N for "/dev/fd/N"; -1 for any other name. gsort uses such a
// descriptor as it is instead of opening the file again, so that a regular
// file is read from its offset, and a socket works (the library's sort_fd
// passes its descriptors as these names).
int descriptor_of_name(const std::string& name, int standard);

// Whether descriptors a and b are open on the same file (device and inode);
// false where either is negative or cannot be examined.
bool same_file(int a, int b);

// "path: strerror(err)" with ENOSPC spelled out as "no space left on device".
std::string describe_errno(const std::string& path, int err);

}  // namespace gsort
