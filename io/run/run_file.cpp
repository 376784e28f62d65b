#include "io/run/run_file.h"

#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <future>

#include "io/run/run_header.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// Plain blocks from this size have their checksums computed on a thread
// beside their write: below it, the thread costs more than it saves.
constexpr size_t kSumsBesideWriteBytes = size_t{4} << 20;

}  // namespace

uint64_t new_job_id() {
  uint64_t id = 0;
  while (id == 0) {
    const ssize_t got = ::getrandom(&id, sizeof id, 0);
    if (got < 0 && errno != EINTR) throw IoError("cannot get random bytes: " + std::string(std::strerror(errno)));
  }
  return id;
}

RunWriter::RunWriter(const std::string& path, uint32_t record_size, const RunCompression& compression,
                     const RunIdentity& identity)
    : RunWriter(File::create(path), record_size, compression, identity) {}

RunWriter::RunWriter(File file, uint32_t record_size, const RunCompression& compression, const RunIdentity& identity)
    : file_(std::move(file)), record_size_(record_size), identity_(identity), sums_(record_size) {
  if (compression.enabled) {
    frame_records_ = std::max<uint64_t>(1, compression.frame_bytes / record_size);
    unsigned threads = compression.pool ? compression.pool->size() : 1;
    if (compression.frames_at_once != 0) threads = std::min(threads, compression.frames_at_once);
    group_width_ = threads;
    slots_.resize(2 * threads);  // a group is compressed into one half while the other half is written
    for (FrameSlot& slot : slots_) {
      slot.zstd = std::make_unique<ZstdCompressor>(compression.level);
      slot.staging.resize(sizeof(RunFrameHeader) + ZstdCompressor::bound(frame_records_ * record_size));
    }
    if (threads > 1) pool_ = compression.pool;
  }
  RunHeader blank;
  std::memset(&blank, 0, sizeof blank);  // no magic until finish()
  file_.write_all(&blank, sizeof blank);
}

RunWriter::~RunWriter() {
  if (!pending_write_.valid()) return;
  try {
    pending_write_.get();
  } catch (...) {  // the run is abandoned: its error, if any, was not asked for
  }
}

void RunWriter::append(const uint8_t* records, uint64_t count) {
  if (!slots_.empty()) {
    // Groups of up to group_width_ frames, compressed at once into one half
    // of the slots while the group before is written from the other half.
    const uint64_t frames = (count + frame_records_ - 1) / frame_records_;
    for (uint64_t first = 0; first < frames; first += group_width_) {
      const size_t group = static_cast<size_t>(std::min<uint64_t>(group_width_, frames - first));
      FrameSlot* half = slots_.data() + half_ * group_width_;
      const auto compress = [&](size_t slot) {
        const uint64_t begin = (first + slot) * frame_records_;
        compress_frame(half[slot], records + begin * record_size_, std::min(frame_records_, count - begin));
      };
      if (pool_ && group > 1) {
        pool_->parallel_for(group, compress);
      } else {
        for (size_t slot = 0; slot < group; ++slot) compress(slot);
      }
      wait_for_write();
      write_group(half, group);
      half_ ^= 1u;
    }
    return;
  }
  const size_t bytes = static_cast<size_t>(count * record_size_);
  if (bytes >= kSumsBesideWriteBytes) {
    // A large block's checksums are computed while it is written.
    std::future<void> sums = std::async(std::launch::async, [&] { sums_.update(records, bytes); });
    file_.write_all(records, bytes);
    sums.get();
  } else {
    file_.write_all(records, bytes);
    sums_.update(records, bytes);
  }
  count_ += count;
  stored_ += bytes;
}

void RunWriter::compress_frame(FrameSlot& s, const uint8_t* records, uint64_t count) {
  const size_t bytes = static_cast<size_t>(count * record_size_);
  RunFrameHeader h;
  h.record_bytes = static_cast<uint32_t>(bytes);
  h.checksum = StreamHash::of(records, bytes);
  const size_t stored = s.zstd->compress(s.staging.data() + sizeof h, s.staging.size() - sizeof h, records, bytes);
  h.stored_bytes = static_cast<uint32_t>(stored);
  std::memcpy(s.staging.data(), &h, sizeof h);
}

void RunWriter::write_group(const FrameSlot* half, size_t group) {
  for (size_t slot = 0; slot < group; ++slot) {
    RunFrameHeader h;
    std::memcpy(&h, half[slot].staging.data(), sizeof h);
    hash_.update(&h.checksum, sizeof h.checksum);
    count_ += h.record_bytes / record_size_;
    stored_ += sizeof h + h.stored_bytes;
  }
  pending_write_ = std::async(std::launch::async, [this, half, group] {
    for (size_t slot = 0; slot < group; ++slot) {
      RunFrameHeader h;
      std::memcpy(&h, half[slot].staging.data(), sizeof h);
      file_.write_all(half[slot].staging.data(), sizeof h + h.stored_bytes);
    }
  });
}

void RunWriter::wait_for_write() {
  if (pending_write_.valid()) pending_write_.get();
}

RunHeader make_run_header(uint32_t record_size, uint64_t count, const RunIdentity& identity, uint64_t checksum,
                          uint32_t block_bytes, uint64_t payload_bytes) {
  RunHeader h;
  std::memset(&h, 0, sizeof h);
  std::memcpy(h.magic, kRunMagic, sizeof kRunMagic);
  h.version = kRunFormatVersion;
  h.record_size = record_size;
  h.record_count = count;
  h.job_id = identity.job_id;
  h.run_index = identity.run_index;
  h.checksum = checksum;
  h.frame_bytes = block_bytes;
  h.payload_bytes = payload_bytes;
  return h;
}

void RunWriter::finish(bool keep_open) {
  wait_for_write();
  RunHeader h;
  if (!slots_.empty()) {
    h = make_run_header(record_size_, count_, identity_, hash_.digest(),
                         static_cast<uint32_t>(frame_records_ * record_size_), stored_);
    h.flags = kRunZstdFrames;
  } else {
    const std::vector<uint64_t>& table = sums_.finish();
    file_.write_all(table.data(), table.size() * sizeof(uint64_t));
    stored_ += table.size() * sizeof(uint64_t);
    h = make_run_header(record_size_, count_, identity_, sums_.table_checksum(),
                         static_cast<uint32_t>(sums_.block_bytes()), stored_);
  }
  file_.finish_writes();  // direct writes (File::write_around_cache) land before the header
  file_.pwrite_all(&h, sizeof h, 0);
  if (!keep_open) file_.close();
}

std::unique_ptr<RunDecoderPool::Decoder> RunDecoderPool::acquire() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_.empty()) {
      std::unique_ptr<Decoder> d = std::move(free_.back());
      free_.pop_back();
      return d;
    }
  }
  return std::make_unique<Decoder>();
}

void RunDecoderPool::release(std::unique_ptr<Decoder> decoder) {
  std::lock_guard<std::mutex> lock(mutex_);
  free_.push_back(std::move(decoder));
}

RunReader::RunReader(const std::string& path, uint32_t record_size, RunDecoderPool* decoders,
                     bool release_consumed, const RunIdentity& expected)
    : file_(release_consumed ? File::open_update(path) : File::open_read(path)), release_(release_consumed) {
  open(expected, record_size, decoders);
}

RunReader::RunReader(File file, uint32_t record_size, const RunIdentity& expected, RunDecoderPool* decoders,
                     bool release_consumed)
    : file_(std::move(file)), release_(release_consumed) {
  open(expected, record_size, decoders);
}

void RunReader::open(const RunIdentity& expected, uint32_t record_size, RunDecoderPool* decoders) {
  const std::string& path = file_.path();
  header_ = read_run_header(file_, record_size, expected);
  records_left_ = header_.record_count;
  if (!compressed()) {
    blocks_ = std::make_unique<BlockCheck>(file_, sizeof(RunHeader), header_.record_count, record_size,
                                           run_header_block_records(header_), header_.checksum);
  } else {
    stored_left_ = header_.payload_bytes;
    records_undecoded_ = header_.record_count;
    if (decoders == nullptr) {
      owned_decoders_ = std::make_unique<RunDecoderPool>();
      decoders = owned_decoders_.get();
    }
    decoders_ = decoders;
  }
  // The file offset is still 0 after pread; skip the header.
  if (::lseek(file_.fd(), sizeof(RunHeader), SEEK_SET) < 0) throw IoError("cannot seek in " + path);
  file_.advise_sequential();
}

uint64_t RunReader::read(uint8_t* buf, uint64_t max_records) {
  if (compressed()) return read_frames(buf, max_records);
  const uint64_t want = max_records < records_left_ ? max_records : records_left_;
  if (want == 0) return 0;
  const size_t bytes = static_cast<size_t>(want * header_.record_size);
  if (file_.read_full(buf, bytes) != bytes) {
    throw DataError("run file " + file_.path() + " is truncated");
  }
  blocks_->update(buf, bytes);
  records_left_ -= want;
  if (records_left_ == 0) blocks_->finish();
  release_up_to(sizeof(RunHeader) + (header_.record_count - records_left_) * header_.record_size);
  return want;
}

void RunReader::release_up_to(uint64_t offset) {
  if (!release_ || offset < released_ + kRunReleaseStep) return;
  const uint64_t upto = offset & ~(kRunReleaseAlign - 1);
  // Unsupported (or refused): the run is simply deleted whole at the end.
  if (!file_.punch_hole(released_, upto - released_)) release_ = false;
  released_ = upto;
}

void RunReader::damaged(const std::string& what) const {
  throw DataError("run file " + file_.path() + " is corrupted (frame " + std::to_string(frames_ + 1) + ": " + what +
                  ")");
}

void RunReader::read_frame_header() {
  if (stored_left_ < sizeof frame_) damaged("the payload ends early");
  if (file_.read_full(&frame_, sizeof frame_) != sizeof frame_) damaged("truncated");
  stored_left_ -= sizeof frame_;
  const uint32_t rs = header_.record_size;
  if (frame_.record_bytes == 0 || frame_.record_bytes % rs != 0 || frame_.record_bytes > header_.frame_bytes) {
    damaged("bad record size " + std::to_string(frame_.record_bytes));
  }
  if (frame_.record_bytes / rs > records_undecoded_) damaged("more records than the header counts");
  if (frame_.stored_bytes > stored_left_ || frame_.stored_bytes > ZstdCompressor::bound(header_.frame_bytes)) {
    damaged("bad stored size " + std::to_string(frame_.stored_bytes));
  }
  // The zstd frame must declare the size the frame header gives before that
  // size is trusted: a read smaller than the frame allocates that much.
  uint8_t head[kZstdFrameHeaderMaxBytes];
  const uint64_t at = sizeof(RunHeader) + header_.payload_bytes - stored_left_;
  const size_t got = file_.pread_full(head, std::min<size_t>(sizeof head, frame_.stored_bytes), at);
  uint64_t declared = 0;
  if (!zstd_frame_content_size(head, got, &declared) || declared != frame_.record_bytes) {
    damaged("the zstd frame does not hold the " + std::to_string(frame_.record_bytes) + " bytes its header gives");
  }
  have_frame_header_ = true;
}

void RunReader::decode_frame(RunDecoderPool::Decoder& decoder, uint8_t* dst) {
  if (decoder.staging.size() < frame_.stored_bytes) decoder.staging.resize(frame_.stored_bytes);
  uint8_t* src = decoder.staging.data();
  if (file_.read_full(src, frame_.stored_bytes) != frame_.stored_bytes) damaged("truncated");
  stored_left_ -= frame_.stored_bytes;
  std::string error;
  if (!decoder.zstd.decompress(dst, frame_.record_bytes, src, frame_.stored_bytes, &error)) damaged(error);
  if (StreamHash::of(dst, frame_.record_bytes) != frame_.checksum) damaged("checksum mismatch");
  hash_.update(&frame_.checksum, sizeof frame_.checksum);
  records_undecoded_ -= frame_.record_bytes / header_.record_size;
  have_frame_header_ = false;
  ++frames_;
  if (records_undecoded_ == 0) {
    // Everything is decoded: the run must end here and match its header,
    // before the last frame's records are handed out.
    if (stored_left_ != 0) {
      throw DataError("run file " + file_.path() + " is corrupted (" + std::to_string(stored_left_) +
                      " bytes after the last frame)");
    }
    if (hash_.digest() != header_.checksum) {
      throw DataError("run file " + file_.path() + " is corrupted (checksum mismatch)");
    }
  }
}

uint64_t RunReader::read_frames(uint8_t* buf, uint64_t max_records) {
  const uint32_t rs = header_.record_size;
  uint64_t done = 0;
  // First what is left of a frame that did not fit the last request.
  if (spill_pos_ < spill_end_) {
    done = std::min(max_records, spill_end_ - spill_pos_);
    std::memcpy(buf, spill_.data() + spill_pos_ * rs, static_cast<size_t>(done * rs));
    spill_pos_ += done;
  }
  if (done < max_records && records_undecoded_ > 0) {
    // Borrow a decoder for this call; it goes back even on an error.
    struct Lease {
      RunDecoderPool& pool;
      std::unique_ptr<RunDecoderPool::Decoder> decoder;
      ~Lease() { pool.release(std::move(decoder)); }
    } lease{*decoders_, decoders_->acquire()};
    while (done < max_records && records_undecoded_ > 0) {
      if (!have_frame_header_) read_frame_header();
      const uint64_t frame_records = frame_.record_bytes / rs;
      if (frame_records <= max_records - done) {
        decode_frame(*lease.decoder, buf + done * rs);
        done += frame_records;
        continue;
      }
      if (done > 0) break;  // the next call takes this frame
      // Less room than one frame: decode it aside and hand it out in parts.
      spill_.resize(frame_.record_bytes);
      decode_frame(*lease.decoder, spill_.data());
      spill_pos_ = max_records;
      spill_end_ = frame_records;
      std::memcpy(buf, spill_.data(), static_cast<size_t>(max_records * rs));
      done = max_records;
    }
  }
  records_left_ -= done;
  release_up_to(sizeof(RunHeader) + header_.payload_bytes - stored_left_);
  return done;
}

}  // namespace gsort
