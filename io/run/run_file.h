// Run files: the sorted runs spilled to the temp directory. A 64-byte header
// (magic, version, record size, record count, payload checksum) is written
// last, so a run whose writer died is recognisably incomplete; the reader
// checks the header, the file size, and the checksums, so a truncated or
// corrupted run is reported, never merged silently.
//
// A plain run's records are followed by a table of checksums, one per
// block of records (run_blocks.h): a reader of the whole run checks each
// block as it completes, and a reader of a range (the parallel merge,
// run_view.h) each block it reads, before using any of its records.
//
// With --compress-temp (flags & kRunZstdFrames) the payload is a sequence of
// frames, each a RunFrameHeader (stored size, record bytes, XXH3 of the
// records) followed by one independent zstd frame of at most frame_bytes
// record bytes. The reader decodes one frame at a time straight into the
// merge's read buffer and checks its XXH3 before handing out any of its
// records, so a damaged frame is reported (DataError naming the run file),
// never merged; the record count and the checksum of the frames' checksums
// (which finds a frame lost, repeated or moved) are checked before the last
// frame's records are handed out.
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "src/core/thread_pool.h"
#include "io/file/checksum.h"
#include "io/file/file.h"
#include "io/file/record_source.h"
#include "io/codec/zstd_stream.h"
#include "io/run/run_blocks.h"

namespace gsort {

struct RunHeader {
  char magic[8];
  uint32_t version;
  uint32_t record_size;
  uint64_t record_count;
  uint64_t payload_bytes;  // bytes after the header, as stored
  uint64_t checksum;       // compressed: XXH3-64 of the frames' checksums; plain: of the block table
  uint32_t flags;          // kRunZstdFrames
  uint32_t frame_bytes;    // compressed: most record bytes in one frame; plain: record bytes per block
  uint64_t job_id;         // RunIdentity: the sort that wrote the run ...
  uint64_t run_index;      // ... and which of its runs this is
};
static_assert(sizeof(RunHeader) == 64, "run header is 64 bytes on disk");

// Version 2 added flags (zstd frames) and frame_bytes; version 3 the run's
// identity (job_id, run_index) in what were reserved bytes; version 4 the
// block table of plain runs; version 5 a compressed run's checksum over its
// frames' checksums (each frame's covers its records), which is computed
// as fast as frames are compressed in parallel.
constexpr uint32_t kRunFormatVersion = 5;
constexpr char kRunMagic[8] = {'G', 'S', 'O', 'R', 'T', 'R', 'U', 'N'};
constexpr uint32_t kRunZstdFrames = 1u << 0;

// A run read by a merge that frees it as it goes (RunReader's
// release_consumed) is punched out behind the reader in steps of at least
// kRunReleaseStep, each ending on a kRunReleaseAlign boundary: each punch
// costs a journal entry. So what it has read but not yet freed stays below
// kRunMostUnreleased, where the file system can punch holes.
constexpr uint64_t kRunReleaseStep = uint64_t{32} << 20;
constexpr uint64_t kRunReleaseAlign = uint64_t{1} << 20;
constexpr uint64_t kRunMostUnreleased = kRunReleaseStep + kRunReleaseAlign;

// Precedes each zstd frame of a compressed run.
struct RunFrameHeader {
  uint32_t stored_bytes;  // the zstd frame's size
  uint32_t record_bytes;  // what it decodes to: whole records
  uint64_t checksum;      // XXH3-64 of those record bytes
};
static_assert(sizeof(RunFrameHeader) == 16, "frame header is 16 bytes on disk");

// Binds a run file to the sort that wrote it and to its place among that
// sort's runs: a run swapped for another (a stale one, another job's, or a
// sibling of the same job) is a DataError on open, never merged silently.
struct RunIdentity {
  uint64_t job_id = 0;     // random, one per gsort process (new_job_id)
  uint64_t run_index = 0;  // the run's number within the job
};

// A run's header, its flags 0 (a plain run: `count` records of
// `record_size` bytes in blocks of `block_bytes`, `payload_bytes` after
// the header, records and block table, `checksum` the table's XXH3); the
// writer of zstd frames sets kRunZstdFrames, with its own frame size and
// checksum.
RunHeader make_run_header(uint32_t record_size, uint64_t count, const RunIdentity& identity,
                          uint64_t checksum, uint32_t block_bytes, uint64_t payload_bytes);

// A random 64-bit id (getrandom), never 0.
uint64_t new_job_id();

// How a run is written: plain, or zstd frames of at most frame_bytes of
// records (rounded down to whole records, at least one).
struct RunCompression {
  bool enabled = false;
  int level = kDefaultTempLevel;
  uint64_t frame_bytes = 1 << 20;
  // Compresses the frames of one append() side by side, pool->size() at a
  // time (the program's one pool); null: one frame at a time.
  ThreadPool* pool = nullptr;
  // When set, at most this many frames at a time (a zstd context and a
  // staging frame each): runs written as several streams at once share the
  // pool's threads between them.
  unsigned frames_at_once = 0;
};

// zstd contexts and frame staging buffers, lent to the readers of one
// merge for the length of a read() call. The merge refills its sources in
// parallel, so at most one decoder per thread is ever made, however many
// runs are merged. Thread-safe.
class RunDecoderPool {
 public:
  struct Decoder {
    ZstdDecompressor zstd;
    std::vector<uint8_t> staging;  // one compressed frame
  };
  std::unique_ptr<Decoder> acquire();
  void release(std::unique_ptr<Decoder> decoder);

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<Decoder>> free_;
};

class RunWriter {
 public:
  // Creates the file at `path`.
  RunWriter(const std::string& path, uint32_t record_size, const RunCompression& compression = RunCompression(),
            const RunIdentity& identity = RunIdentity());
  // Writes into `file`, an empty file open for writing (and reading, if the
  // run is to be read back through the same descriptor: take_file()).
  RunWriter(File file, uint32_t record_size, const RunCompression& compression, const RunIdentity& identity);
  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;
  // Waits for a frame write still under way.
  ~RunWriter();

  void append(const uint8_t* records, uint64_t count);
  // Writes the header; closes the file unless keep_open (then take_file()).
  void finish(bool keep_open = false);
  // The run's descriptor after finish(true), for a RunReader.
  File take_file() { return std::move(file_); }
  uint64_t record_count() const { return count_; }
  uint32_t record_size() const { return record_size_; }
  // Bytes on disk: the header and the payload as stored.
  uint64_t file_bytes() const { return sizeof(RunHeader) + stored_; }
  const std::string& path() const { return file_.path(); }

 private:
  struct FrameSlot;
  // Compresses `count` records into the slot's staging, behind their frame header.
  void compress_frame(FrameSlot& slot, const uint8_t* records, uint64_t count);
  // Accounts for the `group` frames compressed in `half`, and starts their
  // write on a thread of its own (pending_write_).
  void write_group(const FrameSlot* half, size_t group);
  // The write write_group started last, waited for; its error rethrown.
  void wait_for_write();

  File file_;
  uint32_t record_size_;
  RunIdentity identity_;
  uint64_t count_ = 0;
  uint64_t stored_ = 0;
  StreamHash hash_;  // compressed runs: of the frames' checksums
  BlockSums sums_;   // plain runs
  // Compressed runs only: two halves of one compressor and staging buffer
  // per pool thread; a group of frames is compressed side by side into one
  // half while the group before is written, in order, from the other.
  struct FrameSlot {
    std::unique_ptr<ZstdCompressor> zstd;
    std::vector<uint8_t> staging;  // RunFrameHeader + the compressed frame
  };
  std::vector<FrameSlot> slots_;
  size_t group_width_ = 0;  // frames in a group: half of slots_
  unsigned half_ = 0;       // the half the next group is compressed into
  std::future<void> pending_write_;
  ThreadPool* pool_ = nullptr;
  uint64_t frame_records_ = 0;
};

class RunReader final : public RecordSource {
 public:
  // Throws DataError when the header is missing, foreign, or disagrees with
  // the file's size or the expected record size.
  // `decoders` (compressed runs): shared with the other runs of a merge;
  // null makes the reader its own pool.
  // `release_consumed`: punch out what has been read, every few tens of MB,
  // for a run that is deleted after this one reading. Its disk space comes
  // back during the merge, and its dirty pages are dropped rather than
  // written back, so the merge's own output is not throttled behind them.
  // `expected`: the identity the header must carry, else DataError.
  RunReader(const std::string& path, uint32_t record_size, RunDecoderPool* decoders = nullptr,
            bool release_consumed = false, const RunIdentity& expected = RunIdentity());
  // Reads through `file` (its name names the run in messages), an open
  // descriptor of the whole run, e.g. of an unlinked run file.
  RunReader(File file, uint32_t record_size, const RunIdentity& expected, RunDecoderPool* decoders,
            bool release_consumed);
  RunReader(const RunReader&) = delete;
  RunReader& operator=(const RunReader&) = delete;

  uint64_t read(uint8_t* buf, uint64_t max_records) override;
  std::string name() const override { return file_.path(); }
  uint64_t size_hint() const override { return header_.record_count; }
  uint64_t record_count() const { return header_.record_count; }
  // Records not yet handed out by read().
  uint64_t records_left() const { return records_left_; }
  uint32_t record_size() const { return header_.record_size; }
  bool compressed() const { return (header_.flags & kRunZstdFrames) != 0; }

 private:
  // Checks the header against the file and `expected`; prepares reading.
  void open(const RunIdentity& expected, uint32_t record_size, RunDecoderPool* decoders);
  uint64_t read_frames(uint8_t* buf, uint64_t max_records);
  void read_frame_header();
  // Decodes the frame whose header was read into dst and checks it.
  void decode_frame(RunDecoderPool::Decoder& decoder, uint8_t* dst);
  [[noreturn]] void damaged(const std::string& what) const;
  // Punches out the file up to `offset`, the end of what has been read.
  void release_up_to(uint64_t offset);

  File file_;
  RunHeader header_;
  uint64_t records_left_;  // not yet handed out
  StreamHash hash_;                     // compressed runs
  std::unique_ptr<BlockCheck> blocks_;  // plain runs
  bool release_ = false;   // release_consumed, while the file system allows it
  uint64_t released_ = 0;  // bytes from the start already punched out
  // Compressed runs only.
  RunDecoderPool* decoders_ = nullptr;
  std::unique_ptr<RunDecoderPool> owned_decoders_;
  uint64_t stored_left_ = 0;      // payload bytes not yet read
  uint64_t records_undecoded_ = 0;
  uint64_t frames_ = 0;           // frames decoded, for messages
  bool have_frame_header_ = false;
  RunFrameHeader frame_{};
  std::vector<uint8_t> spill_;    // a frame larger than what the caller asked for
  uint64_t spill_pos_ = 0, spill_end_ = 0;  // records in spill_ not yet handed out
};

}  // namespace gsort
