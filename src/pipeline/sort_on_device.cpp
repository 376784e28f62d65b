#include "src/pipeline/sort_on_device.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

#include "src/core/log.h"
#include "src/core/stopwatch.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

constexpr uint64_t kMaxSlotBytes = uint64_t{256} << 20;

}  // namespace

uint64_t fill_device(ResidentSort& resident, uint64_t count, const SlotFill& fill) {
  uint64_t total = 0;
  for (uint64_t slots = 0; total < count; ++slots) {
    if (test_hooks::before_chunk_read) test_hooks::before_chunk_read(slots);
    uint8_t* slot = resident.fill_slot();
    const uint64_t got = fill(slot, std::min(resident.slot_records(), count - total));
    if (got == 0) break;
    resident.upload(got);
    total += got;
  }
  return total;
}

uint64_t read_into_device(ThreadPool& pool, ResidentSort& resident, uint64_t count, InputSet& inputs) {
  return fill_device(resident, count,
                     [&](uint8_t* slot, uint64_t records) { return inputs.read(slot, records, &pool); });
}

std::vector<uint32_t> identity_order(uint64_t count) {
  std::vector<uint32_t> order(std::max<uint64_t>(count, 1));
  std::iota(order.begin(), order.end(), 0u);
  return order;
}

bool device_tier_wanted(const SortConfig& config, bool size_known, uint64_t input_bytes, bool in_memory,
                        uint32_t record_size) {
  if (config.mode != Mode::kSort || config.backend == BackendChoice::kCpu || !size_known || input_bytes == 0) {
    return false;
  }
  return !in_memory || (record_size <= kSmallRecordBytes && config.backend != BackendChoice::kHybrid);
}

uint64_t device_tier_slot_bytes(uint64_t budget) { return std::max<uint64_t>(1, std::min(kMaxSlotBytes, budget / 4)); }

bool sort_on_device(const SortContext& ctx, uint64_t budget, bool in_memory, InputSet& inputs,
                    const ReadProgress& progress, FinalOutput& out, const PrepareOutput& prepare_output,
                    SortReport& report) {
  const bool known = inputs.size_known();
  const uint32_t rs = ctx.layout.record_size();
  if (!device_tier_wanted(ctx.config, known, known ? inputs.total_bytes() : 0, in_memory, rs)) return false;
  const uint64_t count = inputs.total_bytes() / rs;
  Stopwatch t;
  std::string why;
  std::unique_ptr<ResidentSort> resident = ctx.backend.hold_records(count, device_tier_slot_bytes(budget), &why);
  if (!resident) {
    if (in_memory) return false;
    report.device_tier_why = why;
    ctx.log.info("device: the input is not held on the GPU (" + why + "); its runs go to the temporary directory");
    return false;
  }
  if (in_memory) {
    ctx.log.info("device: records of " + std::to_string(rs) + " bytes are sorted whole on the GPU, with no host gather");
  }
  report.device_resident_bytes = resident->device_bytes();
  ctx.log.info("device: the whole input (" + plural(count, "record") + ") is sorted in GPU memory, " +
               mebibytes_text(resident->device_bytes()) + " of it; two host slots of " +
               plural(resident->slot_records(), "record"));
  // The slots take half the budget; the output's pages made present ahead, the other half.
  prepare_output(count * rs, budget / 2);
  report.add_phase("allocate", t.lap());
  // Made first: an unwritable destination fails before the read.
  std::unique_ptr<OutputWriter> writer = out.writer(count * rs);
  progress.phase("reading");
  t.restart();
  const uint64_t total = read_into_device(ctx.pool, *resident, count, inputs);
  report.input_records = total;
  report.input_bytes = total * rs;
  report.add_phase("read+upload", t.lap());

  progress.meter.phase("sorting", 0, nullptr);
  resident->sort();
  const std::vector<uint32_t> in_order = identity_order(resident->slot_records());
  const uint8_t* records = nullptr;
  uint64_t n = resident->next_sorted(&records);
  report.add_phase("device sort", t.lap());
  progress.meter.phase("writing", total * rs, &out.written_bytes());
  for (; n > 0; n = resident->next_sorted(&records)) writer->append_gathered(ctx.pool, records, in_order.data(), n);
  writer->finish();
  report.output_records += writer->records_written();
  report.add_phase("download+write", t.lap());
  const BackendTimings d = resident->timings();
  ctx.log.info("device: copy in " + seconds_text(d.copy_in_s) + ", extract " + seconds_text(d.extract_s) + ", sort " +
               seconds_text(d.sort_s) + ", copy out " + seconds_text(d.copy_out_s));
  return true;
}

}  // namespace gsort
