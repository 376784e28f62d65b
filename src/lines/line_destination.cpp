#include "src/lines/line_destination.h"

#include "io/codec/output_encoder.h"
#include "io/input/input_set.h"
#include "src/lines/debug/annotator.h"
#include "src/pipeline/output_mapping.h"
#include "src/pipeline/room_check.h"

namespace gsort {
namespace {

// --debug's annotator, or --compress-output's encoder, or none.
SortDestination::EncoderMaker line_encoder(const LineContext& ctx) {
  if (ctx.config.lines.debug) {
    const LineSpec spec = ctx.spec();
    return [spec](File& file) -> std::unique_ptr<OutputEncoder> { return std::make_unique<DebugAnnotator>(spec, file); };
  }
  return SortDestination::compressed_output(ctx.config, ctx.pool);
}

}  // namespace

LineDestination::LineDestination(const LineContext& ctx, const RunOptions& run, const LinePlan& plan)
    : SortDestination(run.output, run.output_shown_as, output_staging_bytes(ctx.config, 1), ctx.config.temp_dir,
                      line_encoder(ctx), OutputRange{run.output_range.offset, run.output_range.bytes}),
      blocks(sink(), plan.block_bytes) {
  const SortConfig& config = ctx.config;
  bool known = false;
  const uint64_t input_bytes = plain_input_bytes(config.inputs, &known);
  const uint64_t bound = input_bytes + config.inputs.size();
  plan_room(config, known ? input_bytes : 0, known ? bound : 0, false);
  if (!refusal.empty()) return;
  // One chunk: not under -u, whose output may be a small part of the input.
  if (known && input_bytes > 0 && config.mode == Mode::kSort && !config.unique && bound + 2 <= plan.budget / 2 &&
      room->may_map()) {
    mapped.prepare(bound, ctx.pool);
  }
  allow_mapped_blocks(blocks, mapped, *room);
}

std::unique_ptr<LineWriter> LineDestination::writer(const LineContext& ctx, uint64_t bytes, LineVerify* verify) {
  auto w = std::make_unique<LineWriter>(blocks.blocks(bytes), ctx.eol(), ctx.unique_by());
  w->count_bytes(&blocks.written_bytes());
  w->verify_with(verify);
  return w;
}

void LineDestination::write_past_the_cache(const LineContext& ctx, uint64_t budget, uint64_t bytes) {
  if (!outgrows_page_cache(ctx.config, bytes) || !write_around_the_cache(budget, ctx.log)) return;
  // The blocks were allowed the mapping before the chunks were planned.
  blocks.allow_mapping(nullptr);
  blocks.allow_whole_mapping(nullptr);
}

}  // namespace gsort
