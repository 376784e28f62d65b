#include "src/pipeline/sort_job.h"

#include "io/record_source.h"
#include "src/core/stopwatch.h"

namespace gsort {

std::string plural(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

SortJob::SortJob(const SortContext& context)
    : ctx(context), rs(context.layout.record_size()), job_id(new_job_id()) {}

TempDir& SortJob::temp_dir() {
  if (!temp_) {
    temp_ = std::make_unique<TempDir>(ctx.config.temp_dir);
    ctx.log.info("temporary directory: " + temp_->path());
  }
  return *temp_;
}

std::unique_ptr<OutputWriter> SortJob::destination_writer(OutputTarget& output) {
  return destination_writer(output_sink(output.file(), encoder.get()));
}

std::unique_ptr<OutputWriter> SortJob::destination_writer(WriteBehind::Sink sink) {
  const KeyLayout* unique_by = ctx.config.unique ? &ctx.layout : nullptr;
  auto out = std::make_unique<OutputWriter>(std::move(sink), rs, plan.block_bytes, unique_by);
  out->final_output(check);
  out->count_bytes(&written_bytes);
  return out;
}

void SortJob::write_sorted_output(const uint8_t* records, const uint32_t* order, uint64_t count,
                                  OutputTarget& output) {
  write_gathered(records, order, count, destination_writer(output));
}

void SortJob::write_sorted_output(const uint8_t* records, const uint32_t* order, uint64_t count,
                                  WriteBehind::Sink sink) {
  write_gathered(records, order, count, destination_writer(std::move(sink)));
}

void SortJob::write_gathered(const uint8_t* records, const uint32_t* order, uint64_t count,
                             std::unique_ptr<OutputWriter> out) {
  const Stopwatch t;
  meter->phase("writing", count * rs, &written_bytes);
  out->append_gathered(ctx.pool, records, order, count);
  out->finish();
  report.output_records += out->records_written();
  report.add_phase("gather+write", t.seconds());
}

}  // namespace gsort
