// The inputs of one gsort run, read as one stream of whole records in the
// order given. All inputs are opened and checked up front, so a missing one
// fails before any work; a regular file whose size is not a multiple of the
// record size fails at once, a pipe that ends mid-record fails when it ends.
// The tail of a record is never dropped silently. Regular files are then
// closed and reopened one at a time as they are read, so any number of
// inputs stays within the open-file limit. A regular file that shrinks or
// grows while gsort runs is an error, and so is one written in place: each
// is checked after its last read (and when opened again) against what it
// was when first opened (io/input/input_change.h); a mapped one, by the
// mapping's owner after its last use (MappedInput::check_unchanged).
//
// An input that starts with the magic of a compressed format (zstd, gzip,
// bzip2, xz: io/codec/compression.h; a file or a pipe alike) is decompressed while
// it is read; its size is then unknown until its end, where a decompressed
// size that is not a whole number of records fails.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "src/core/thread_pool.h"
#include "io/cache/cache_release.h"
#include "io/file/file.h"
#include "io/file/file_identity.h"
#include "io/input/mapped_input.h"
#include "io/codec/input_decoder.h"
#include "io/file/record_source.h"

namespace gsort {

// What the inputs have delivered, shared by every input of a run (also by
// the sources --merge takes over): bytes taken from the files, for the
// progress line, and with hash_records the count and the order-independent
// checksum (sum of hash_record) of the records read, for --verify. The
// merge reads its sources from several threads at once: hence atomics.
struct InputTally {
  bool hash_records = false;
  std::atomic<uint64_t> stored_bytes{0};  // bytes read from the files (compressed size for compressed inputs)
  std::atomic<uint64_t> records{0};
  std::atomic<uint64_t> hash_sum{0};
};

// One input file (or stdin) as a record stream.
class InputFile final : public RecordSource {
 public:
  InputFile(const std::string& name, uint32_t record_size, InputTally* tally = nullptr);
  ~InputFile() override;
  uint64_t read(uint8_t* buf, uint64_t max_records) override;
  // The same, with a plain regular file read by the pool's threads at once
  // (page-cache copies scale with threads).
  uint64_t read(uint8_t* buf, uint64_t max_records, ThreadPool& pool);
  // The rest of a plain regular file mapped read-only, taken as a read()
  // would take it; null where it cannot be (compressed, not regular,
  // punched as it is read, under drop_read_pages() with pages not in the
  // cache, which a mapping could not drop again, the file that `output_fd`
  // writes, which would change under the sort, or mmap refused): read it then.
  // The mapping's owner calls its check_unchanged() after its last use.
  std::unique_ptr<MappedInput> map_rest(ThreadPool& pool, int output_fd);
  // The file as opened.
  File& file() { return file_; }
  // Throws DataError unless a regular file still has the size it was opened
  // with, and its inode and times (a file written in place); a pipe or
  // terminal is not checked. Called after the last read; call it before
  // trusting what an unfinished read found.
  void check_unchanged();
  // A regular file opened again: what it was when first opened. Throws
  // DataError where it differs already; later checks compare with it.
  void expect_identity(const FileIdentity& first);
  const FileIdentity& identity() const { return identity_; }
  std::string name() const override { return file_.display_name(); }
  uint64_t size_hint() const override { return size_known_ ? size_ / record_size_ : 0; }
  // Whether size() is the exact size of the records (a plain regular file).
  bool size_known() const { return size_known_; }
  uint64_t size() const { return size_; }
  // The size on disk of a regular file (compressed or not), else 0.
  uint64_t stored_size() const { return stored_size_; }
  bool regular() const { return regular_; }
  // Whether the input is compressed (decoded while read), and how.
  bool compressed() const { return decoder_ != nullptr; }
  CompressionFormat format() const { return format_; }
  // From now on, pages of a plain regular file that were not in the page
  // cache before they were read are dropped from it after (io/cache/cache_release.h).
  void drop_read_pages();
  // From now on, a plain regular file read from its start is punched out
  // as it is read (io/file/file.h punch_hole), through a descriptor of its own
  // opened for writing (where it cannot be, nothing is punched): for a
  // temporary file read once. Its pages leave the cache without being
  // written back and its blocks are freed at once.
  void consume_as_read();

 private:
  uint64_t size_now() const;
  // Reads up to n bytes of records (decompressed); fewer only at the end.
  size_t read_bytes(uint8_t* buf, size_t n);
  // Adds n bytes at buf to the --verify tally.
  void tally_records(const uint8_t* buf, size_t n);
  // Throws when the bytes read so far are not whole records.
  uint64_t whole_records(size_t got);
  // Drops what was just read, [offset, offset + bytes) of the file, from the
  // page cache unless it was there before (drop_read_pages()), or punches
  // out everything read so far (consume_as_read()).
  void drop_read(uint64_t offset, uint64_t bytes) {
    if (consume_) {
      punch_read(offset + bytes);
    } else if (cached_before_) {
      cached_before_->drop_new_pages(offset, bytes);
    }
  }
  void punch_read(uint64_t end);

  File file_;
  uint32_t record_size_;
  bool regular_ = false;
  FileIdentity identity_;  // a regular file's, when first opened
  bool size_known_ = false;
  uint64_t size_ = 0;
  uint64_t start_ = 0;  // offset of the first byte to read (a regular standard input may start past 0)
  uint64_t stored_size_ = 0;
  uint64_t bytes_read_ = 0;
  InputTally* tally_;
  CompressionFormat format_ = CompressionFormat::kNone;
  std::unique_ptr<InputDecoder> decoder_;
  uint64_t compressed_seen_ = 0;     // decoder_->compressed_bytes() already counted
  std::vector<uint8_t> peeked_;      // first bytes of a plain pipe, read to look for the magic
  size_t peeked_pos_ = 0;
  std::unique_ptr<PageCacheSnapshot> cached_before_;  // drop_read_pages()
  bool consume_ = false;   // consume_as_read(), while the file system allows punching
  uint64_t punched_ = 0;   // bytes from the start already punched out
};

// The total size of the inputs' records when every input is a plain
// (uncompressed) regular file; 0 with `known` false otherwise. Opens nothing
// beyond a stat and a peek at the magic, for sizing decisions made before
// the run.
uint64_t plain_input_bytes(const std::vector<std::string>& names, bool* known);
// Whether `names`, found plain by plain_input_bytes, is one file whose every
// page past where it is read from is in the page cache.
bool input_in_page_cache(const std::vector<std::string>& names);

class InputSet {
 public:
  // drop_read_pages: read files leave in the page cache only what was
  // there before (InputFile::drop_read_pages).
  InputSet(const std::vector<std::string>& names, uint32_t record_size, InputTally* tally = nullptr,
           bool drop_read_pages = false);

  // Whether every input is a plain regular file, so total_bytes() is exact.
  bool size_known() const;
  uint64_t total_bytes() const;
  // The inputs' size on disk when every input is a regular file (some may
  // be compressed), else 0: the total for the progress of reading.
  uint64_t stored_bytes() const;

  // Reads up to max_records whole records, crossing from one input to the
  // next; returns how many, 0 at the end of the last input. With a pool,
  // regular files are read by all its threads.
  uint64_t read(uint8_t* buf, uint64_t max_records, ThreadPool* pool = nullptr);

  // The one input mapped whole instead of read (InputFile::map_rest), taken
  // as read() would take it, where there is exactly one and nothing of it
  // was read; null otherwise (read() it then).
  std::unique_ptr<MappedInput> map_whole(ThreadPool& pool, int output_fd);

  // For --merge: each input as a separate source, opened when called
  // (once each). The set must outlive them.
  using Opener = std::function<std::unique_ptr<RecordSource>()>;
  std::vector<Opener> lazy_sources();

  // Each plain regular input is punched out as it is read
  // (InputFile::consume_as_read): for temporary inputs read once.
  void consume_as_read() { consume_as_read_ = true; }

 private:
  struct Entry {
    std::string name;
    bool regular = false;
    bool size_known = false;
    uint64_t size = 0;
    uint64_t stored_size = 0;
    FileIdentity identity;            // a regular file's, when it was checked
    std::unique_ptr<InputFile> open;  // a pipe or terminal, kept open since the check
  };
  // Input i, open: the one kept open, or the file opened again (and checked
  // against the size it had at first).
  std::unique_ptr<InputFile> open_input(size_t i);

  std::vector<Entry> entries_;
  std::unique_ptr<InputFile> reading_;  // entries_[current_] while read()
  size_t current_ = 0;
  uint32_t record_size_;
  InputTally* tally_;
  bool drop_read_pages_;
  bool consume_as_read_ = false;
};

}  // namespace gsort
