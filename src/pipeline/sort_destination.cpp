#include "src/pipeline/sort_destination.h"

#include "src/pipeline/commit_output.h"
#include "src/pipeline/direct_write.h"
#include "src/pipeline/output_mapping.h"

namespace gsort {

SortDestination::SortDestination(const std::string& path, const std::string& shown_as, uint64_t staged_bytes,
                                 const std::string& temp_dir, const EncoderMaker& make_encoder)
    : target(path, "output", false, shown_as, OutputStaging{staged_bytes, temp_dir}),
      encoder(make_encoder ? make_encoder(target.file()) : nullptr),
      mapped(target) {}

void SortDestination::plan_room(const SortConfig& config, uint64_t input_bytes, uint64_t output_bound,
                                bool writeback_paced) {
  refusal = mapping_refusal(target, config.inputs, encoded(), writeback_paced, input_bytes);
  room = std::make_unique<RoomCheck>(config.space_check, destination_room(target, encoded(), output_bound, refusal),
                                     config.temp_dir);
}

WriteBehind::Sink SortDestination::sink() { return destination_sink(target, encoder.get()); }

void SortDestination::close(uint64_t bytes, OutputWay way, bool fsync, ThreadPool& pool, const Log& log,
                            SortReport& report) {
  close_output_mapping(mapped, bytes, fsync, pool, report);
  report_output_way(way, stream_reason(refusal, *room, mapped), pool.size(), log, report);
}

void SortDestination::commit(ProgressMeter& meter, bool fsync, const std::string& parts_directory,
                             const std::function<void()>& before_commit, SortReport& report) {
  commit_output(CommitSteps{target, encoder.get(), meter, fsync, parts_directory, before_commit}, report);
}

}  // namespace gsort
