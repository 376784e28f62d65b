// The destination of a sort, records or lines, from its making to its
// commit: its file (made first, so that an unwritable destination fails
// before any work), the encoder that writes it where there is one
// (--compress-output; --debug's annotations of lines), its mapping, why it
// may not be mapped (output_mapping.h), and the room check on its file
// system (room_check.h), which counts the runs too. The two drivers
// (external_sort.cpp, src/lines/sort_lines.cpp) each hold one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "io/codec/output_encoder.h"
#include "io/output/mapped_destination.h"
#include "io/output/output_target.h"
#include "src/config/sort_config.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/output/output_blocks.h"
#include "src/pipeline/room_check.h"
#include "src/report/progress.h"
#include "src/report/sort_report.h"

namespace gsort {

// Whether a spilled sort of `bytes` (0: unknown) outgrows what the page
// cache takes at memory speed (a memory-limited cgroup) where --page-cache
// drop keeps gsort out of the cache: both drivers then write the output
// around the cache, and the records' pace their runs. page_cache_bytes:
// that room, where wanted (0: not known, and not outgrown).
bool outgrows_page_cache(const SortConfig& config, uint64_t bytes, uint64_t* page_cache_bytes = nullptr);

// What a destination replacing an existing file is staged for: the
// inputs' plain bytes, `per_input` more each (the lines' terminator added
// to an input's last line), where they tell the output's size; 0 where
// they do not, or where the output is encoded (--compress-output, the
// lines' --debug).
uint64_t output_staging_bytes(const SortConfig& config, uint64_t per_input);

class SortDestination {
 public:
  // Makes the file for `path` (shown as `shown_as` where not empty): in
  // place of an existing one it is staged beside it for `staged_bytes`
  // (0: unknown). make_encoder: the encoder over the file, or null.
  using EncoderMaker = std::function<std::unique_ptr<OutputEncoder>(File& file)>;
  // --compress-output's encoder, on the pool's threads (null without it).
  static EncoderMaker compressed_output(const SortConfig& config, ThreadPool& pool);
  // `range`: bytes not 0 where the destination is a range of a file
  // others fill too (OutputTarget's OutputStaging::range).
  SortDestination(const std::string& path, const std::string& shown_as, uint64_t staged_bytes,
                  const std::string& temp_dir, const EncoderMaker& make_encoder, const OutputRange& range = {});
  SortDestination(const SortDestination&) = delete;
  SortDestination& operator=(const SortDestination&) = delete;

  // Decides whether the file may be mapped and makes the room check:
  // input_bytes, the inputs' size where known (0: unknown); output_bound,
  // at most what the output will hold (0: unknown); writeback_paced: the
  // plan paces what is written.
  void plan_room(const SortConfig& config, uint64_t input_bytes, uint64_t output_bound, bool writeback_paced);
  bool encoded() const { return encoder != nullptr; }
  // May be mapped, so far (no refusal, and the room check allows it).
  bool may_map() const { return refusal.empty() && room->may_map(); }
  // The sink that writes the file: the encoder's, where there is one.
  WriteBehind::Sink sink();
  // For a sort that outgrows the page cache (outgrows_page_cache): the
  // file written around the cache (src/output/around_the_cache.h) where it
  // can be, and then never mapped (a mapping would fill the cache after
  // all). False where it cannot be: the caller paces it, or lets it be.
  bool write_around_the_cache(uint64_t memory_budget, const Log& log);

  // The end: the mapping closed, the file cut to `bytes` (what was
  // written), and how it was written (`way`) said under -v and in the
  // report. Then, once --verify's verdict is in, commit().
  void close(uint64_t bytes, OutputWay way, bool fsync, ThreadPool& pool, const Log& log, SortReport& report);
  // The commit (commit_output.h): the encoder's last frame, --fsync, the
  // file put in place (with --output-parts' other parts); before_commit,
  // the library's hook, may be empty.
  void commit(ProgressMeter& meter, bool fsync, const std::string& parts_directory,
              const std::function<void()>& before_commit, SortReport& report);

  // --verify's verdict before the commit: `verdict` (empty without
  // --verify) throws where the output is wrong, else returns the hash sum
  // of the input it matched, which the report keeps; -v says so, counting
  // report.output_records in `unit`s ("record", "line").
  using Verdict = std::function<uint64_t()>;
  static void verify(const Verdict& verdict, const char* unit, ProgressMeter& meter, const Log& log,
                     SortReport& report);

  OutputTarget target;
  std::unique_ptr<OutputEncoder> encoder;
  MappedDestination mapped;
  std::string refusal;  // why the file may not be mapped (plan_room; empty: it may)
  std::unique_ptr<RoomCheck> room;  // plan_room's
};

}  // namespace gsort
