// What tells whether a file's bytes may have changed since gsort looked at
// it: its inode, its size, and the times of its last write (mtime) and of
// its last change of any kind (ctime). A writer can set mtime back, never
// ctime. The times have the kernel's clock tick as their grain (a few
// milliseconds before Linux 6.13's fine-grained timestamps): a file written
// twice within one tick, or written through a shared writable mapping whose
// pages were already dirty, may keep its times; man gsort says so.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace gsort {

struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  uint64_t size = 0;
  int64_t modified_ns = 0;  // st_mtim
  int64_t changed_ns = 0;   // st_ctim

  // The identity of the file open on `fd`; throws IoError naming `name`.
  static FileIdentity of(int fd, const std::string& name);
  bool same_file(const FileIdentity& o) const { return device == o.device && inode == o.inode; }
  // The same file, with the same size and times: no write seen since.
  bool unchanged_since(const FileIdentity& then) const {
    return same_file(then) && size == then.size && modified_ns == then.modified_ns && changed_ns == then.changed_ns;
  }
};

}  // namespace gsort
