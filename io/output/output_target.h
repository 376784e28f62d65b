// Where the sorted records (or --stats) go. For a regular file, or a new
// one, they are written to a private temporary file in the destination's
// directory (io/output/output_temp.h) and renamed into place at commit, so the
// destination never holds a partial result and `-o` may name an input. The
// new file replaces the destination's inode: it gets the old file's mode,
// owner and group (as far as gsort may set them) and extended attributes
// (ACLs among them). A destination with other hard links, or one in a
// sticky directory that forbids us the rename (another user's file in
// /tmp), is written in place instead, as sort -o writes it: the finished
// output is copied into it at commit, its room reserved first (a full disk
// leaves it as it was); where the destination's file system cannot hold the
// output twice, the output is made in OutputStaging::other_dir (-T).
// Symbolic links are followed, dangling ones too (io/file/destination.h);
// the link itself is kept. An existing
// destination must be writable by us, as for open(2) for writing. Without
// commit the temporary file is removed. "-" is standard output; a
// destination that exists and is not a regular file (a device such as
// /dev/null, a FIFO) is written directly: renaming over it would replace
// the device with a file.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "io/file/file.h"
#include "io/output/output_temp.h"

namespace gsort {

struct DescriptorName;

// A range of an existing regular file that other processes fill too (a
// rank's part of the one output): `bytes` (not 0) from `offset`.
struct OutputRange {
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

// What the output will be, where that is known before it is made.
struct OutputStaging {
  uint64_t bytes = 0;     // its size at most (0: not known)
  std::string other_dir;  // where it may be made for an in-place destination short of room (-T)
  OutputRange range;      // bytes not 0: the destination is that range, written in place
};

class OutputTarget {
 public:
  // Creates the temporary file now, so that an unwritable destination fails
  // before any work is done. `role` names it in messages: "output" or
  // "--stats file".
  // `shared`: the temporary file gets a name from the start (never an
  // unnamed O_TMPFILE), so that other processes can open it by
  // temporary_path() and write into it (the ranks of a distributed sort).
  // `shown_as`: the name messages give a descriptor's output ("/dev/fd/N"
  // standing for a file the user named) or a range's; empty: the
  // destination itself. A staging.range is written directly, from its
  // offset (mapped there, or by the stream standing there), and the file
  // is never resized, renamed or cut back: its other bytes are others'.
  explicit OutputTarget(const std::string& destination, const std::string& role = "output", bool shared = false,
                        const std::string& shown_as = "", const OutputStaging& staging = {});
  ~OutputTarget();
  OutputTarget(const OutputTarget&) = delete;
  OutputTarget& operator=(const OutputTarget&) = delete;

  File& file() { return temp_ ? temp_->file() : direct_; }
  // Where other processes can open what is being written: the named
  // temporary (with `shared`), or the destination itself when written directly.
  std::string temporary_path() const { return temp_ ? temp_->path() : destination_; }
  bool is_stdout() const { return destination_ == "-"; }
  // Writing straight into the destination (stdout, a device, a FIFO).
  bool is_direct() const { return target_.empty(); }
  // Standard output that is a regular file ending where its offset stands
  // (`> file`; not `>> file`, which other processes may append to too): it
  // may be mapped from direct_offset(), through its name reopened
  // read-write for the mmap (`>` opens it write-only); otherwise the stream
  // writes it. Either way (`>>` too) it is cut back to where it ended when
  // the sort fails before prepare_commit(), or a signal ends it.
  bool direct_is_mappable() const { return direct_mappable_; }
  uint64_t direct_offset() const { return direct_offset_; }
  // Standard output that is a regular file opened with O_APPEND (`>>`).
  bool direct_appends() const { return direct_appends_; }
  // A range of a file others fill too (OutputStaging::range): direct and
  // mappable from direct_offset(), and never to be cut or grown.
  bool is_range() const { return range_bytes_ != 0; }
  uint64_t range_bytes() const { return range_bytes_; }
  static constexpr const char* kStandardOutputName = "/proc/self/fd/1";
  const std::string& destination() const { return destination_; }
  // The file the output is copied into at commit (in place), else empty.
  std::string copied_into() const { return in_place_ ? target_ : std::string(); }

  // The temporary file closed while nothing is written to it, and made
  // again (output_temp.h); false where there is none to set aside (a
  // direct output, a named or written temporary).
  bool set_aside() { return temp_ && temp_->set_aside(); }
  bool can_set_aside() const { return temp_ && temp_->can_set_aside(); }
  void take_back() {
    if (temp_) temp_->take_back();
  }

  // Everything that can fail before the destination changes: with
  // `durable`, flushes the file to stable storage; sets its final mode and
  // owner, names it beside the destination and closes it.
  void prepare_commit(bool durable = false);
  // Renames the prepared file over the destination (then, when durable,
  // flushes the directory: an error there is reported as such, the output
  // having been written). Standard output and devices: nothing to do.
  void publish();
  void commit(bool durable = false) {
    prepare_commit(durable);
    publish();
  }

 private:
  void open_descriptor(const DescriptorName& named);
  void set_final_mode_and_owner();
  void write_in_place();
  void note_regular_stdout();
  void open_range(const std::string& name, const OutputRange& range);
  std::string destination_;
  std::string role_;
  std::string target_;  // the file the temporary is renamed onto; empty when direct
  bool existed_ = false;
  uid_t old_uid_ = 0;
  gid_t old_gid_ = 0;
  mode_t old_mode_ = 0;
  bool in_place_ = false;  // the output is copied into the destination, not renamed over it
  bool durable_ = false;
  bool prepared_ = false;
  File direct_;
  bool direct_mappable_ = false;
  bool direct_appends_ = false;
  bool cut_registered_ = false;  // standard output's cut back (io/temp/temp_registry.h)
  uint64_t direct_offset_ = 0;
  uint64_t range_bytes_ = 0;
  std::unique_ptr<OutputTemp> temp_;  // null when direct
};

}  // namespace gsort
