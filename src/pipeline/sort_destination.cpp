#include "src/pipeline/sort_destination.h"

#include "io/input/input_set.h"
#include "src/output/around_the_cache.h"
#include "src/pipeline/commit_output.h"
#include "src/pipeline/direct_write.h"
#include "src/pipeline/output_mapping.h"
#include "src/pipeline/temp_compression.h"

namespace gsort {

SortDestination::SortDestination(const std::string& path, const std::string& shown_as, uint64_t staged_bytes,
                                 const std::string& temp_dir, const EncoderMaker& make_encoder,
                                 const OutputRange& range)
    : target(path, "output", false, shown_as, OutputStaging{staged_bytes, temp_dir, range}),
      encoder(make_encoder ? make_encoder(target.file()) : nullptr),
      mapped(target) {}

void SortDestination::plan_room(const SortConfig& config, uint64_t input_bytes, uint64_t output_bound,
                                bool writeback_paced) {
  refusal = mapping_refusal(target, config.inputs, encoded(), writeback_paced, input_bytes);
  room = std::make_unique<RoomCheck>(config.space_check, destination_room(target, encoded(), output_bound, refusal),
                                     config.temp_dir);
}

uint64_t output_staging_bytes(const SortConfig& config, uint64_t per_input) {
  if (config.compress_output || config.lines.debug) return 0;
  bool known = false;
  const uint64_t bytes = plain_input_bytes(config.inputs, &known);
  return known ? bytes + per_input * config.inputs.size() : 0;
}

SortDestination::EncoderMaker SortDestination::compressed_output(const SortConfig& config, ThreadPool& pool) {
  if (!config.compress_output) return nullptr;
  return [&config, &pool](File& file) {
    return make_output_encoder(config.output_format, file, config.output_level, config.threads, pool);
  };
}

WriteBehind::Sink SortDestination::sink() { return destination_sink(target, encoder.get()); }

bool outgrows_page_cache(const SortConfig& config, uint64_t bytes, uint64_t* page_cache_bytes) {
  if (bytes == 0 || config.page_cache != PageCacheUse::kDrop) return false;
  const uint64_t room = temp_room().page_cache_bytes;
  if (page_cache_bytes) *page_cache_bytes = room;
  return room != 0 && bytes > room;
}

bool SortDestination::write_around_the_cache(uint64_t memory_budget, const Log& log) {
  if (!write_around_page_cache(target, encoded(), memory_budget, log)) return false;
  if (refusal.empty()) {
    refusal = "written around the page cache (O_DIRECT): larger than the page cache takes at memory speed (" +
              std::to_string(temp_room().page_cache_bytes) + " bytes)";
  }
  return true;
}

void SortDestination::close(uint64_t bytes, OutputWay way, bool fsync, ThreadPool& pool, const Log& log,
                            SortReport& report) {
  close_output_mapping(mapped, bytes, fsync, pool, report);
  report_output_way(way, stream_reason(refusal, *room, mapped), pool.size(), log, report);
}

void SortDestination::verify(const Verdict& verdict, const char* unit, ProgressMeter& meter, const Log& log,
                             SortReport& report) {
  if (!verdict) return;
  meter.phase("verifying", 0, nullptr);
  report.verify_hash_sum = verdict();
  report.verified = true;
  log.info("verified: " + plural(report.output_records, unit) + " in order, matching the input");
}

void SortDestination::commit(ProgressMeter& meter, bool fsync, const std::string& parts_directory,
                             const std::function<void()>& before_commit, SortReport& report) {
  commit_output(CommitSteps{target, encoder.get(), meter, fsync, parts_directory, before_commit}, report);
}

}  // namespace gsort
