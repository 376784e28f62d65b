#include "io/output/output_target.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "io/file/destination.h"
#include "io/file/extended_attributes.h"
#include "io/file/file_copy.h"
#include "io/file/new_file_mode.h"
#include "io/temp/temp_registry.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// fsync, where the descriptor supports it (pipes and some devices do not).
void flush_to_disk(int fd, const std::string& name) {
  if (::fsync(fd) == 0 || errno == EINVAL || errno == EROFS) return;
  throw IoError("cannot flush output to disk: " + describe_errno(name, errno));
}

// Opening an existing file for writing (without truncating it) is the one
// true test of write permission: it honours ACLs, root and read-only mounts.
void require_writable(const std::string& path, const std::string& role) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot write " + role + " " + describe_errno(path, errno));
  ::close(fd);
}

// Whether `dir`'s sticky bit keeps us from renaming over `file` in it:
// neither the file nor the directory is ours, and we are not root.
bool sticky_directory_forbids_rename(const std::string& dir, const struct stat& file) {
  struct stat d {};
  if (::stat(dir.c_str(), &d) != 0 || (d.st_mode & S_ISVTX) == 0) return false;
  const uid_t me = ::geteuid();
  return me != 0 && file.st_uid != me && d.st_uid != me;
}

// The free bytes of the file system holding `path`; UINT64_MAX where it
// cannot be told (statvfs fails, or reports no size: ramfs, some FUSE).
uint64_t free_bytes_at(const std::string& path) {
  struct statvfs fs {};
  if (::statvfs(path.c_str(), &fs) != 0 || fs.f_blocks == 0) return UINT64_MAX;
  return static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
}

bool same_device(const std::string& a, const std::string& b) {
  struct stat x {}, y {};
  return ::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0 && x.st_dev == y.st_dev;
}

// Where an output copied into its destination in place is made: beside it,
// where its file system holds the output twice (the made file, and what the
// copy adds to the destination), else in staging.other_dir where that is
// another file system with room for it, as sort -o writes its output
// directly while its temporary files are elsewhere.
std::string in_place_staging_dir(const std::string& dir, const struct stat& destination,
                                 const OutputStaging& staging) {
  if (staging.bytes == 0 || staging.other_dir.empty()) return dir;
  const uint64_t now = static_cast<uint64_t>(destination.st_size);
  const uint64_t grows = staging.bytes > now ? staging.bytes - now : 0;
  const uint64_t here = free_bytes_at(dir);
  if (here == UINT64_MAX || here >= staging.bytes + grows || same_device(dir, staging.other_dir)) return dir;
  const uint64_t there = free_bytes_at(staging.other_dir);
  return there != UINT64_MAX && there >= staging.bytes ? staging.other_dir : dir;
}

}  // namespace

OutputTarget::OutputTarget(const std::string& destination, const std::string& role, bool shared,
                           const std::string& shown_as, const OutputStaging& staging)
    : destination_(destination), role_(role) {
  if (staging.range.bytes != 0) {
    open_range(shown_as.empty() ? destination : shown_as, staging.range);
    return;
  }
  if (is_stdout()) {
    direct_ = File::standard_output();
    direct_.enlarge_pipe();  // gsort | consumer: large writes, fewer wake-ups
    if (role == "output") note_regular_stdout();
    return;
  }
  if (const int fd = descriptor_of_name(destination, 1); fd >= 0) {
    // An open descriptor (the library's sort_fd): written as it stands.
    const std::string& name = shown_as.empty() ? destination : shown_as;
    if (::fcntl(fd, F_GETFD) < 0) throw IoError("cannot write " + role + " " + describe_errno(name, errno));
    direct_ = File(fd, name, false);
    direct_.enlarge_pipe();  // gsort | consumer: large writes, fewer wake-ups
    return;
  }
  if (const DescriptorName named = descriptor_behind(destination); named.found) {
    open_descriptor(named);
    return;
  }
  const Destination d = resolve_destination(destination, role);
  if (d.exists && S_ISDIR(d.status.st_mode)) {
    throw IoError("cannot write " + role + " " + destination + ": Is a directory");
  }
  if (d.exists && !S_ISREG(d.status.st_mode)) {
    const int fd = ::open(destination.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw IoError("cannot open " + role + " " + describe_errno(destination, errno));
    direct_ = File(fd, destination, true);
    return;
  }
  if (d.exists) {
    require_writable(d.target, role);
    existed_ = true;
    old_uid_ = d.status.st_uid;
    old_gid_ = d.status.st_gid;
    old_mode_ = d.status.st_mode & 07777;
  }
  target_ = d.target;
  const std::string dir = directory_of(d.target);
  // As sort -o does there: the rename would fail at the end, or leave the
  // other names of the file with the old bytes.
  in_place_ = d.exists && (d.status.st_nlink > 1 || sticky_directory_forbids_rename(dir, d.status));
  if (role == "output") {
    const std::string made_in = in_place_ ? in_place_staging_dir(dir, d.status, staging) : dir;
    temp_ = std::make_unique<OutputTemp>(made_in, destination, "cannot create output in", made_in, !shared);
  } else {
    temp_ = std::make_unique<OutputTemp>(dir, destination, "cannot create " + role, destination, !shared);
  }
}

// Standard output that is a regular file ending at its offset (at its end,
// for O_APPEND): what gsort writes there is cut off again when the sort
// fails or is interrupted. Without O_APPEND it may be mapped from there
// (nothing else changes). An O_APPEND descriptor is written with write()
// alone: other processes may append to the file meanwhile, and each write
// must land after their bytes, never over them (a mapping reserves its
// range once, and is cut to its size at the end).
void OutputTarget::note_regular_stdout() {
  struct stat st {};
  const int flags = ::fcntl(1, F_GETFL);
  if (flags < 0 || ::fstat(1, &st) != 0 || !S_ISREG(st.st_mode)) return;
  const bool append = (flags & O_APPEND) != 0;
  direct_appends_ = append;
  const off_t at = append ? st.st_size : ::lseek(1, 0, SEEK_CUR);
  if (at < 0 || at != st.st_size) return;
  direct_offset_ = static_cast<uint64_t>(at);
  direct_mappable_ = !append;
  register_output_cut(1, direct_offset_, append);
  direct_.count_written_into(&output_written_counter());
  cut_registered_ = true;
}

void OutputTarget::open_range(const std::string& name, const OutputRange& range) {
  File file(::open(destination_.c_str(), O_RDWR | O_CLOEXEC), name, true);
  if (!file.is_open()) throw IoError("cannot write " + role_ + " " + describe_errno(name, errno));
  struct stat st {};
  if (::fstat(file.fd(), &st) != 0 || !S_ISREG(st.st_mode)) {
    throw Error("internal error: a range of " + name + ", which is not a regular file");
  }
  // The stream, where the range is not mapped, writes from there.
  if (::lseek(file.fd(), static_cast<off_t>(range.offset), SEEK_SET) < 0) {
    throw IoError("cannot write " + role_ + " " + describe_errno(name, errno));
  }
  direct_ = std::move(file);
  direct_mappable_ = true;
  direct_offset_ = range.offset;
  range_bytes_ = range.bytes;
}

OutputTarget::~OutputTarget() {
  if (cut_registered_) cut_registered_output();  // never committed: a failed sort
}

// One of our descriptors is written as it stands, from its offset (as
// "-" is for standard output); another process's is opened through its
// name, which reaches the file behind it. Neither is renamed over.
void OutputTarget::open_descriptor(const DescriptorName& named) {
  if (named.own) {
    if (::fcntl(named.fd, F_GETFD) < 0) {
      throw IoError("cannot write " + role_ + " " + describe_errno(destination_, errno));
    }
    direct_ = File(named.fd, destination_, false);
    direct_.enlarge_pipe();
    return;
  }
  const int fd = ::open(destination_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot open " + role_ + " " + describe_errno(destination_, errno));
  direct_ = File(fd, destination_, true);
}

// The replaced file's mode, owner and group (as far as we may set them),
// or a new file's mode (io/file/new_file_mode.h).
void OutputTarget::set_final_mode_and_owner() {
  struct stat old {};
  old.st_uid = old_uid_;
  old.st_gid = old_gid_;
  old.st_mode = old_mode_;
  take_mode_and_owner(temp_->file().fd(), existed_ ? &old : nullptr, role_ + " " + destination_);
  if (existed_) copy_extended_attributes(target_, temp_->file().fd(), role_ + " " + destination_);
}

// The finished file's bytes written into the existing destination. Its
// blocks are reserved first (fallocate, keeping its size), so that the copy
// cannot run out of room halfway: a disk without room fails here, with the
// destination as it was.
void OutputTarget::write_in_place() {
  File into(::open(target_.c_str(), O_WRONLY | O_CLOEXEC), destination_, true);
  if (!into.is_open()) throw IoError("cannot write " + role_ + " " + describe_errno(destination_, errno));
  const uint64_t bytes = temp_->file().size();
  if (bytes > 0 && ::fallocate(into.fd(), FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(bytes)) != 0 &&
      (errno == ENOSPC || errno == EDQUOT)) {
    throw IoError("cannot write " + role_ + " " + describe_errno(destination_, errno) + " (the sorted output's " +
                  std::to_string(bytes) + " bytes could not be reserved there; it is unchanged)");
  }
  copy_over(temp_->file(), into);
  if (durable_) flush_to_disk(into.fd(), destination_);
  into.close();
}

void OutputTarget::prepare_commit(bool durable) {
  durable_ = durable;
  file().finish_writes();
  const std::string name = is_stdout() ? std::string("standard output") : destination_;
  if (is_stdout() || is_direct()) {
    if (durable) flush_to_disk(direct_.fd(), name);
    if (cut_registered_) {  // complete: it stays
      unregister_output_cut();
      direct_.count_written_into(nullptr);
      cut_registered_ = false;
    }
    if (!is_stdout()) direct_.close();
    prepared_ = true;
    return;
  }
  if (in_place_) {  // the destination keeps its inode: nothing to name
    prepared_ = true;
    return;
  }
  if (durable) flush_to_disk(temp_->file().fd(), name);
  set_final_mode_and_owner();
  temp_->name_and_close();
  prepared_ = true;
}

void OutputTarget::publish() {
  if (!prepared_) throw Error("internal error: output published before it was prepared");
  if (is_direct()) return;
  if (in_place_) {
    write_in_place();
    return;
  }
  temp_->rename_onto(target_, role_, destination_);
  if (!durable_) return;
  const std::string dir = directory_of(target_);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const int rc = fd < 0 ? -1 : ::fsync(fd);
  const int err = errno;
  if (fd >= 0) ::close(fd);
  if (rc != 0 && err != EINVAL) {
    throw IoError(role_ + " " + destination_ +
                  " was written, but its directory could not be flushed to disk: " + describe_errno(dir, err));
  }
}

}  // namespace gsort
