#include "io/output/output_target.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "io/file/destination.h"
#include "io/file/extended_attributes.h"
#include "io/file/file_copy.h"
#include "io/file/new_file_mode.h"
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

}  // namespace

OutputTarget::OutputTarget(const std::string& destination, const std::string& role, bool shared,
                           const std::string& shown_as)
    : destination_(destination), role_(role) {
  if (is_stdout()) {
    direct_ = File::standard_output();
    direct_.enlarge_pipe();  // gsort | consumer: large writes, fewer wake-ups
    note_mappable_stdout();
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
    temp_ = std::make_unique<OutputTemp>(dir, destination, "cannot create output in", dir, !shared);
  } else {
    temp_ = std::make_unique<OutputTemp>(dir, destination, "cannot create " + role, destination, !shared);
  }
}

// Whether the standard output is a regular file that ends at its offset
// (at its end, for O_APPEND): a mapping from there changes nothing else.
void OutputTarget::note_mappable_stdout() {
  struct stat st {};
  const int flags = ::fcntl(1, F_GETFL);
  if (flags < 0 || ::fstat(1, &st) != 0 || !S_ISREG(st.st_mode)) return;
  const off_t at = (flags & O_APPEND) ? st.st_size : ::lseek(1, 0, SEEK_CUR);
  if (at < 0 || at != st.st_size) return;
  direct_mappable_ = true;
  direct_offset_ = static_cast<uint64_t>(at);
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

// The finished file's bytes written into the existing destination.
void OutputTarget::write_in_place() {
  File into(::open(target_.c_str(), O_WRONLY | O_CLOEXEC), destination_, true);
  if (!into.is_open()) throw IoError("cannot write " + role_ + " " + describe_errno(destination_, errno));
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
