#include "src/distributed/output/distributed_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include "io/output/output_parts.h"
#include "io/temp/temp_registry.h"
#include "src/core/errors.h"
#include "src/report/stats_json.h"
#include "src/distributed/output/compressed_part.h"
#include "src/distributed/output/part_copy.h"
#include "src/distributed/output/stdout_gather.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void flush_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot open the output directory to flush it: " + describe_errno(dir, errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL) throw IoError("cannot flush the output directory: " + describe_errno(dir, err));
}

}  // namespace

void DistributedOutput::prepare() {
  if (group_.rank != 0 || config_.mode == Mode::kCheck) return;  // -c and -C write nothing
  if (config_.output_parts) {
    directory_ = std::make_unique<OutputDirectory>(config_.output);
  } else {
    target_ = std::make_unique<OutputTarget>(config_.output, "output", /*shared=*/true);
    shared_path_ = target_->temporary_path();
  }
  if (!config_.stats_path.empty() && config_.stats_path != "-") {
    stats_ = std::make_unique<OutputTarget>(config_.stats_path, "--stats file");
  }
  if (!config_.trace_path.empty()) trace_ = std::make_unique<OutputTarget>(config_.trace_path, "--trace file");
}

void DistributedOutput::share_destination() {
  if (config_.output_parts) return;
  broadcast_from_rank0(group_, shared_path_);
  if (group_.rank != 0 && !shared_path_.empty() && shared_path_ != config_.output) {
    shared_slot_ = register_temp_path(shared_path_, false);
  }
}

DistributedOutput::~DistributedOutput() {
  if (shared_slot_ >= 0) unregister_temp_path(shared_slot_);
}

bool DistributedOutput::to_stdout() const { return !config_.output_parts && config_.output == "-"; }

bool DistributedOutput::takes_parts_at_offsets() const {
  return !config_.output_parts && !to_stdout() && !config_.compress_output;
}

File DistributedOutput::open_at(uint64_t offset) const {
  File out = File::open_update(shared_path_);
  if (::lseek(out.fd(), static_cast<off_t>(offset), SEEK_SET) < 0) {
    throw IoError("cannot seek in the output: " + describe_errno(config_.output, errno));
  }
  return out;
}

std::string DistributedOutput::part_directory() const {
  if (to_stdout()) return config_.temp_dir;  // rank 0's standard output has no directory
  return config_.output_parts ? config_.output : directory_of(config_.output);
}

std::unique_ptr<LocalPart> DistributedOutput::make_part() const {
  char stem[64];
  std::snprintf(stem, sizeof stem, "rank-%05d", group_.rank);
  const std::string prefix = config_.output_parts || to_stdout() ? "" : base_name(config_.output) + ".";
  return std::make_unique<LocalPart>(part_directory(), prefix + stem);
}

uint64_t DistributedOutput::offset_of(uint64_t bytes) const {
  uint64_t offset = 0;
  MPI_Exscan(&bytes, &offset, 1, MPI_UINT64_T, MPI_SUM, group_.comm);
  return group_.rank == 0 ? 0 : offset;  // MPI_Exscan leaves rank 0's undefined
}

void DistributedOutput::write(RankFence& fence, LocalPart* part, uint64_t skip_bytes, uint64_t records,
                              ThreadPool& pool) {
  uint64_t bytes = records * config_.record_size;
  std::unique_ptr<LocalPart> packed;  // the part compressed (--compress-output: compressed_part.h)
  if (config_.compress_output) {
    fence.attempt([&] {
      if (!part && bytes > 0) throw Error("internal error: a rank's part to compress was not kept");
      packed = make_part();
      packed->create_empty();
      bytes = compress_part(part ? part->path() : std::string(), skip_bytes, bytes, packed->path(), config_, pool);
    });
    fence.agree();
    part = packed.get();
    skip_bytes = 0;
  }
  if (config_.output_parts) {
    write_parts(fence, *part, skip_bytes, bytes);
  } else if (to_stdout()) {
    write_to_stdout(fence, part, skip_bytes, bytes);
  } else {
    write_single_file(fence, part, skip_bytes, bytes, pool);
  }
}

void DistributedOutput::write_single_file(RankFence& fence, LocalPart* part, uint64_t skip_bytes, uint64_t bytes,
                                          ThreadPool& pool) {
  const uint64_t offset = offset_of(bytes);
  uint64_t total = 0;
  MPI_Allreduce(&bytes, &total, 1, MPI_UINT64_T, MPI_SUM, group_.comm);
  fence.attempt([&] {
    if (group_.rank != 0 || target_->is_direct()) return;
    if (::ftruncate(target_->file().fd(), static_cast<off_t>(total)) != 0) {
      throw IoError("cannot size the output: " + describe_errno(config_.output, errno));
    }
  });
  fence.agree();
  fence.attempt([&] {
    test_fault_point("write", group_.rank);
    if (part) copy_into_range(part->path(), skip_bytes, bytes, shared_path_, offset, config_.fsync, pool);
  });
  fence.agree();
  // Renamed into place by rank 0 once all agree: no longer ours to remove.
  if (shared_slot_ >= 0) unregister_temp_path(shared_slot_);
  shared_slot_ = -1;
  fence.attempt([&] {
    if (group_.rank == 0) target_->commit(config_.fsync);
  });
  fence.agree();
}

void DistributedOutput::write_to_stdout(RankFence& fence, LocalPart* part, uint64_t skip_bytes, uint64_t bytes) {
  fence.attempt([&] {
    test_fault_point("write", group_.rank);
    if (!part && bytes > 0) throw Error("internal error: a rank's part for standard output was not kept");
  });
  fence.agree();
  gather_parts_to_stdout(group_, fence, part ? part->path() : std::string(), skip_bytes, bytes,
                         group_.rank == 0 ? &target_->file() : nullptr);
  fence.agree();
  fence.attempt([&] {
    if (group_.rank == 0) target_->commit(config_.fsync);
  });
  fence.agree();
}

void DistributedOutput::write_parts(RankFence& fence, LocalPart& part, uint64_t skip_bytes, uint64_t bytes) {
  std::unique_ptr<LocalPart> trimmed;  // the part without its first record (-u)
  fence.attempt([&] {
    test_fault_point("write", group_.rank);
    if (skip_bytes > 0) {
      trimmed = make_part();
      trimmed->create_empty();
      copy_file_range_to(part.path(), skip_bytes, bytes, trimmed->path(), 0, config_.fsync);
    } else if (config_.fsync) {
      copy_file_range_to(part.path(), 0, 0, part.path(), 0, true);  // just the flush
    }
  });
  fence.agree();
  // Every part placed over its number (the one it replaces kept aside) and
  // the stale ones moved aside, all voted on; only then is any of the old
  // set removed. A failure anywhere puts the old set back on every rank.
  std::unique_ptr<PlacedPart> placed;
  std::unique_ptr<StaleParts> stale;
  fence.attempt([&] {
    LocalPart& mine = trimmed ? *trimmed : part;
    placed = std::make_unique<PlacedPart>(mine.path(), config_.output, group_.rank);
    mine.release();
    if (group_.local_rank == 0) stale = std::make_unique<StaleParts>(config_.output, group_.size);
  });
  fence.agree();
  fence.attempt([&] {
    if (config_.fsync && group_.rank == 0) flush_directory(config_.output);
  });
  fence.agree();
  placed->commit();
  if (stale) stale->commit();
  if (directory_) directory_->keep();
}

void DistributedOutput::write_stats(const std::string& json) {
  if (config_.stats_path.empty()) return;
  if (!stats_) {
    std::fputs(stats_for_stderr(json).c_str(), stderr);
    return;
  }
  stats_->file().write_all(json.data(), json.size());
  stats_->commit();
}

void DistributedOutput::write_trace(const std::string& json) {
  if (!trace_) return;
  trace_->file().write_all(json.data(), json.size());
  trace_->commit();
}

}  // namespace gsort
