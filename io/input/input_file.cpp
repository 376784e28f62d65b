#include "io/input/input_set.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/core/errors.h"
#include "src/core/test_hooks.h"
#include "io/file/checksum.h"
#include "io/codec/compression.h"
#include "io/codec/input_format.h"
#include "io/input/input_change.h"

namespace gsort {
namespace {

// Records are read in pieces of about this size, so that each piece is
// still in cache when it is hashed for --verify.
constexpr size_t kPieceBytes = 256 << 10;

[[noreturn]] void throw_partial(const std::string& name, uint64_t size, uint32_t record_size,
                                const char* what = "size") {
  throw DataError(name + ": " + what + " " + std::to_string(size) +
                  " bytes is not a multiple of the record size " + std::to_string(record_size) + " (" +
                  std::to_string(size % record_size) + " bytes left over)");
}

// A plain regular file is read up to the size it had when it was opened
// (the plan was made from it); one that ends early, or is longer at the
// end, changed under gsort: an error on every path, in memory or spilled.
[[noreturn]] void throw_changed(const std::string& name, uint64_t was, uint64_t now) {
  if (now == was) {
    throw DataError(name + ": ended before the " + std::to_string(was) +
                    " bytes its size promised could be read; sort a copy of it");
  }
  throw DataError(name + ": the file " + (now < was ? "shrank" : "grew") + " while it was being read (" +
                  std::to_string(was) + " bytes when gsort opened it, " + std::to_string(now) +
                  " now); sort a copy that does not change");
}

}  // namespace

InputFile::InputFile(const std::string& name, uint32_t record_size, InputTally* tally)
    : file_(File::open_input(name)), record_size_(record_size), tally_(tally) {
  uint8_t magic[kMagicPeekBytes];
  size_t peeked = 0;  // bytes consumed from a pipe to look at them
  regular_ = file_.has_real_size();
  if (regular_) {
    identity_ = FileIdentity::of(file_.fd(), file_.display_name());
    // A regular standard input (gsort < file) is read like a named file, from
    // wherever its offset stands: something may have read part of it first.
    start_ = file_.position();
    stored_size_ = file_.size() - std::min(start_, file_.size());
    const size_t got = file_.pread_full(magic, std::min<uint64_t>(sizeof magic, stored_size_), start_);
    format_ = input_format(name, magic, got);
    if (format_ == CompressionFormat::kNone) {
      size_known_ = true;
      size_ = stored_size_;
      if (size_ % record_size_ != 0) throw_partial(file_.display_name(), size_, record_size_);
    }
  } else {
    file_.enlarge_pipe();
    peeked = file_.read_full(magic, sizeof magic);
    format_ = input_format(name, magic, peeked);
  }
  file_.advise_sequential();
  if (format_ != CompressionFormat::kNone) {
    decoder_ = make_input_decoder(format_, file_, magic, peeked);
    compressed_seen_ = peeked;
  } else {
    peeked_.assign(magic, magic + peeked);
  }
  if (tally_) tally_->stored_bytes.fetch_add(peeked, std::memory_order_relaxed);
}

InputFile::~InputFile() {
  // What read-ahead brought in around the ranges dropped as they were read.
  if (cached_before_) cached_before_->drop_new_pages(0, start_ + size_);
}

void InputFile::drop_read_pages() {
  // A plain regular file only: a compressed input's offsets are not the records'.
  if (size_known_ && !decoder_) cached_before_ = std::make_unique<PageCacheSnapshot>(file_.fd(), start_ + size_);
}

void InputFile::consume_as_read() {
  if (!size_known_ || decoder_ || start_ != 0 || bytes_read_ != 0 || !peeked_.empty()) return;
  try {
    File writable = File::open_update(file_.path());
    writable.advise_sequential();
    file_ = std::move(writable);
    consume_ = true;
  } catch (const IoError&) {
    // Not writable by us: read as it is, and deleted whole later.
  }
}

void InputFile::punch_read(uint64_t end) {
  // Whole MiB at a time (each punch costs a journal entry), the tail once
  // the file has been read to its end.
  constexpr uint64_t kAlign = uint64_t{1} << 20;
  const uint64_t upto = end >= size_ ? size_ : end & ~(kAlign - 1);
  if (upto <= punched_) return;
  // Refused (a file system without holes): the file is deleted whole later.
  if (!file_.punch_hole(punched_, upto - punched_)) consume_ = false;
  punched_ = upto;
}

size_t InputFile::read_bytes(uint8_t* buf, size_t n) {
  if (decoder_) {
    const size_t got = decoder_->read(buf, n);
    if (tally_) {
      const uint64_t c = decoder_->compressed_bytes();
      tally_->stored_bytes.fetch_add(c - compressed_seen_, std::memory_order_relaxed);
      compressed_seen_ = c;
    }
    return got;
  }
  size_t got = 0;
  if (peeked_pos_ < peeked_.size()) {
    got = std::min(n, peeked_.size() - peeked_pos_);
    std::memcpy(buf, peeked_.data() + peeked_pos_, got);
    peeked_pos_ += got;
  }
  const size_t more = got < n ? file_.read_full(buf + got, n - got) : 0;
  if (tally_) tally_->stored_bytes.fetch_add(more, std::memory_order_relaxed);
  return got + more;
}

void InputFile::tally_records(const uint8_t* buf, size_t n) {
  if (!tally_ || !tally_->hash_records) return;
  const uint64_t records = n / record_size_;
  tally_->hash_sum.fetch_add(hash_record_sum(buf, records, record_size_), std::memory_order_relaxed);
  tally_->records.fetch_add(records, std::memory_order_relaxed);
}

uint64_t InputFile::whole_records(size_t got) {
  bytes_read_ += got;
  if (got % record_size_ != 0) {
    throw_partial(file_.display_name(), bytes_read_, record_size_, decoder_ ? "decompressed size" : "size");
  }
  return got / record_size_;
}

// The size past where reading started (a regular standard input may start
// past 0).
uint64_t InputFile::size_now() const { return file_.size() - std::min(start_, file_.size()); }

void InputFile::check_unchanged() {
  if (size_known_) {
    const uint64_t now = size_now();
    if (now != size_) throw_changed(file_.display_name(), size_, now);
  }
  // A file punched as it is read (consume_as_read) is changed by gsort itself.
  if (regular_ && !consume_) check_input_unchanged(file_.fd(), file_.display_name(), identity_);
}

void InputFile::expect_identity(const FileIdentity& first) {
  identity_ = first;
  check_unchanged();
}

uint64_t InputFile::read(uint8_t* buf, uint64_t max_records) {
  size_t want = static_cast<size_t>(max_records * record_size_);
  if (size_known_) want = static_cast<size_t>(std::min<uint64_t>(want, size_ - std::min(size_, bytes_read_)));
  const uint64_t offset = start_ + bytes_read_;
  const size_t piece = std::max<size_t>(1, kPieceBytes / record_size_) * record_size_;
  size_t got = 0;
  while (got < want) {
    const size_t ask = std::min(piece, want - got);
    const size_t n = read_bytes(buf + got, ask);
    tally_records(buf + got, n);
    got += n;
    if (n < ask) break;
  }
  if (size_known_) {
    if (got < want) throw_changed(file_.display_name(), size_, size_now());
    if (bytes_read_ + got == size_) check_unchanged();
  } else if (regular_ && got < want) {
    check_unchanged();  // a compressed file, decoded to its end
  }
  drop_read(offset, got);
  return whole_records(got);
}

std::unique_ptr<MappedInput> InputFile::map_rest(ThreadPool& pool, int output_fd) {
  const bool plain = size_known_ && !decoder_ && peeked_.empty();
  if (!plain || consume_ || bytes_read_ >= size_ || same_file(file_.fd(), output_fd)) return nullptr;
  const uint64_t left = size_ - bytes_read_;
  // Pages the mapping would bring into the cache could not be dropped once read.
  if (cached_before_ && !cached_before_->all_cached(start_ + bytes_read_, left)) return nullptr;
  std::unique_ptr<MappedInput> mapped = MappedInput::map(file_, start_ + bytes_read_, start_ + size_);
  if (!mapped) return nullptr;
  mapped->populate(pool);
  tally_records(mapped->bytes(), static_cast<size_t>(left));
  if (tally_) tally_->stored_bytes.fetch_add(left, std::memory_order_relaxed);
  bytes_read_ = size_;
  check_unchanged();
  mapped->watch_for_change(file_, identity_);
  if (::lseek(file_.fd(), static_cast<off_t>(start_ + size_), SEEK_SET) < 0) {
    throw IoError("cannot seek in " + file_.display_name());
  }
  if (test_hooks::after_input_mapped) test_hooks::after_input_mapped();
  return mapped;
}

uint64_t InputFile::read(uint8_t* buf, uint64_t max_records, ThreadPool& pool) {
  const size_t piece = std::max<size_t>(1, kPieceBytes / record_size_) * record_size_;
  const uint64_t left = size_ - std::min(size_, bytes_read_);
  const size_t want = static_cast<size_t>(std::min<uint64_t>(max_records * record_size_, left));
  const bool plain = size_known_ && !decoder_ && peeked_.empty();
  if (!plain || pool.size() == 1 || want < 4 * piece) return read(buf, max_records);
  // Each task reads whole pieces at their offsets; the last may be short.
  const size_t pieces = (want + piece - 1) / piece;
  const size_t tasks = std::min<size_t>(pieces, pool.size() * 2);
  const uint64_t base = bytes_read_;
  pool.parallel_for(tasks, [&](size_t t) {
    for (size_t p = split_point(pieces, tasks, t), end = split_point(pieces, tasks, t + 1); p < end; ++p) {
      const size_t off = p * piece, n = std::min(piece, want - off);
      if (file_.pread_full(buf + off, n, start_ + base + off) != n) throw_changed(file_.display_name(), size_, size_now());
      tally_records(buf + off, n);
    }
  });
  if (::lseek(file_.fd(), static_cast<off_t>(start_ + base + want), SEEK_SET) < 0) {
    throw IoError("cannot seek in " + file_.display_name());
  }
  if (tally_) tally_->stored_bytes.fetch_add(want, std::memory_order_relaxed);
  if (base + want == size_) check_unchanged();
  drop_read(start_ + base, want);
  return whole_records(want);
}

namespace {

// An input by name for a look before the run: a borrowed descriptor ("-",
// /dev/fd/N: a regular file there counts from its offset), or a regular
// file opened; not open where it cannot be (the run itself reports it) or
// is no regular file. A FIFO is never opened to be looked at: its writer
// would meet the reader that closes again, and the run's own open would
// wait for a writer that has gone.
File peek_input(const std::string& name) {
  if (descriptor_of_name(name, 0) >= 0) return File(descriptor_of_name(name, 0), name, false);
  struct stat st {};
  if (::stat(name.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return File();
  const int fd = ::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  return fd < 0 ? File() : File(fd, name, true);
}

}  // namespace

bool input_in_page_cache(const std::vector<std::string>& names) {
  if (names.size() != 1) return false;
  const File f = peek_input(names.front());
  if (!f.is_open()) return false;
  const uint64_t size = f.size(), start = std::min(f.position(), size);
  return PageCacheSnapshot(f.fd(), size).all_cached(start, size - start);
}

uint64_t plain_input_bytes(const std::vector<std::string>& names, bool* known) {
  *known = false;
  uint64_t total = 0;
  for (const std::string& name : names) {
    File f = peek_input(name);
    if (!f.is_open()) return 0;
    if (!f.has_real_size()) return 0;
    const uint64_t size = f.size(), start = std::min(f.position(), size);
    uint8_t magic[kMagicPeekBytes];
    const size_t got = f.pread_full(magic, std::min<uint64_t>(sizeof magic, size - start), start);
    if (input_format(name, magic, got) != CompressionFormat::kNone) return 0;
    total += size - start;
  }
  *known = true;
  return total;
}

}  // namespace gsort
