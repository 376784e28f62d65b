#include "src/chunk_sort/lines/gpu/device_entry_sort.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

#include "kernels/entry_sort.h"
#include "kernels/line_gather.h"
#include "kernels/tie_words.h"
#include "src/core/errors.h"
#include "src/core/stopwatch.h"
#include "src/cuda/check.h"
#include "src/cuda/host_registration.h"
#include "src/cuda/registered_copies.h"

namespace gsort {
namespace {

static_assert(sizeof(kernels::LineEntry) == sizeof(WideEntry) && offsetof(WideEntry, hi) == 0 &&
                  offsetof(WideEntry, lo) == 8 && offsetof(WideEntry, index) == 12,
              "the device sorts the host's entries as they are");

// A plan's ranked slots (at most kManySlotsMost a level: 4 MiB) and their
// ranks, then its misfits' count and list: one buffer of a fixed size.
constexpr uint64_t kRankedBytes = uint64_t{kSlotLevels} * kManySlotsMost * (sizeof(Slot) + sizeof(uint32_t));
// Ties are refined on the device where at least this many entries (and
// this share of them) tie with the one before: a round sorts every entry
// by 160 bits, about 0.3 ns a line on the H200, where the host's refiner
// takes some 250 thread-ns a tied line (2026-12-04). At most
// kDeviceTieRounds rounds of two words; what still ties goes to the host.
constexpr uint64_t kDeviceTiesLeast = uint64_t{1} << 16;
constexpr uint64_t kDeviceTiesShare = 32;
constexpr int kDeviceTieRounds = 4;
constexpr uint64_t kPlanBytes = kRankedBytes + sizeof(unsigned long long) + kMisfitsMost * sizeof(uint32_t);

int selected(int device) {
  GSORT_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

// The plan's ranked slots and their ranks, and its collations' tables,
// copied into device memory [at, end) and the plan pointed at the copies;
// false where they do not fit (more than a plan ranks: the CPU fills).
bool copy_plan_tables(kernels::DeviceComposite& plan, const std::vector<const FewSlots*>& ranked, uint8_t* at,
                      uint8_t* end, cudaStream_t stream) {
  const auto put = [&](const void* from, uint64_t bytes) -> const uint8_t* {
    if (bytes > static_cast<uint64_t>(end - at)) return nullptr;
    GSORT_CUDA_CHECK(cudaMemcpyAsync(at, from, bytes, cudaMemcpyHostToDevice, stream));
    const uint8_t* placed = at;
    at += (bytes + sizeof(Slot) - 1) / sizeof(Slot) * sizeof(Slot);  // what follows aligned as a slot
    return placed;
  };
  for (uint32_t k = 0; k < plan.count; ++k) {
    kernels::DeviceLevel& l = plan.levels[k];
    if (l.device_heads) {
      const uint8_t* ascii = put(l.heads.ascii, 128 * sizeof(CharacterWeights));
      const uint8_t* held = put(l.heads.by_character, l.heads.held * sizeof(CharacterWeights));
      if (!ascii || !held) return false;
      l.heads.ascii = reinterpret_cast<const CharacterWeights*>(ascii);
      l.heads.by_character = reinterpret_cast<const CharacterWeights*>(held);
    }
    if (ranked[k] == nullptr) continue;
    const std::vector<Slot>& slots = ranked[k]->slots();
    const std::vector<uint32_t>& ranks = ranked[k]->ranks_by_place();
    const uint8_t* placed = put(slots.data(), slots.size() * sizeof(Slot));
    if (!placed) return false;
    l.ranked = reinterpret_cast<const Slot*>(placed);
    if (ranks.empty()) continue;
    placed = put(ranks.data(), ranks.size() * sizeof(uint32_t));
    if (!placed) return false;
    l.ranks = reinterpret_cast<const uint32_t*>(placed);
  }
  return true;
}

// `buffer` made at least `bytes` large, its old memory freed before the
// new is asked for; its contents are not kept.
void grow_buffer(cuda::DeviceBuffer& buffer, size_t bytes) {
  if (bytes <= buffer.size()) return;
  buffer = cuda::DeviceBuffer();
  buffer = cuda::DeviceBuffer(bytes);
}

}  // namespace

DeviceEntrySort::DeviceEntrySort(int device, std::shared_ptr<DeviceBudget> budget, const Log* log)
    : device_(selected(device)), share_(std::move(budget)), log_(log) {}

bool DeviceEntrySort::sort(WideEntry* entries, uint64_t n) {
  GSORT_CUDA_CHECK(cudaSetDevice(device_));
  if (!make_room(n, 0)) return false;
  auto* a = reinterpret_cast<kernels::LineEntry*>(a_.data());
  auto* b = reinterpret_cast<kernels::LineEntry*>(b_.data());
  const uint64_t bytes = n * sizeof(WideEntry);
  // Registered for the round trip only: the CPU sorter owns the entries
  // and may free them once it returns. Copies of pageable memory go
  // through the driver's staging at a fifth of the speed.
  const cuda::HostRegistration pinned(device_, entries, bytes, cudaHostRegisterDefault);
  GSORT_CUDA_CHECK(cudaMemcpyAsync(a, entries, bytes, cudaMemcpyHostToDevice, stream_.get()));
  const kernels::LineEntry* sorted = kernels::sort_line_entries(a, b, n, temp_.data(), temp_.size(), stream_.get());
  GSORT_CUDA_CHECK(cudaMemcpyAsync(entries, sorted, bytes, cudaMemcpyDeviceToHost, stream_.get()));
  stream_.synchronize();
  return true;
}

bool DeviceEntrySort::copy_in(const LineSpan& lines, cuda::RegisteredCopies& pins) {
  GSORT_CUDA_CHECK(cudaSetDevice(device_));
  copied_ = Copied{};
  const Stopwatch took;
  const uint64_t n = lines.count, text_bytes = lines.bytes(), starts_bytes = (n + 1) * sizeof(uint64_t);
  if (!make_room(n, starts_bytes + text_bytes)) return false;
  const double reserved_s = took.seconds();
  const uint8_t* text = lines.text + lines.starts[0];
  // Copies of pageable memory go through the driver's staging at a fifth
  // of the speed: registered for the copy only, a piece at a time.
  pins.copy(lines.starts, starts_bytes, fill_.data(), cudaHostRegisterDefault);
  pins.copy(text, text_bytes, fill_.data() + starts_bytes, cudaHostRegisterReadOnly);
  copied_ = Copied{lines.text, lines.starts, n, took.seconds(), reserved_s};
  return true;
}

std::optional<Misfits> DeviceEntrySort::fill_and_sort(const LineSpan& lines, kernels::DeviceComposite plan,
                                                      const std::vector<const FewSlots*>& ranked, WideEntry* entries,
                                                      const std::optional<DeviceTies>& ties) {
  GSORT_CUDA_CHECK(cudaSetDevice(device_));
  const Stopwatch took;
  cuda::RegisteredCopies pins(device_, stream_);  // a copy in's registrations, ended once its copies are done
  if (!copied(lines) && !copy_in(lines, pins)) return std::nullopt;
  const uint64_t n = lines.count, starts_bytes = (n + 1) * sizeof(uint64_t);
  if (!copy_plan_tables(plan, ranked, plan_.data(), plan_.data() + kRankedBytes, stream_.get())) return std::nullopt;
  auto* a = reinterpret_cast<kernels::LineEntry*>(a_.data());
  auto* b = reinterpret_cast<kernels::LineEntry*>(b_.data());
  auto* count = reinterpret_cast<unsigned long long*>(plan_.data() + kRankedBytes);
  auto* listed = reinterpret_cast<uint32_t*>(count + 1);
  kernels::fill_composite_entries(plan, fill_.data() + starts_bytes, reinterpret_cast<const uint64_t*>(fill_.data()), n,
                                  a, count, listed, static_cast<uint32_t>(kMisfitsMost), stream_.get());
  // The entries registered for their copy back while the device copies
  // the text in and fills (the misfits' count below waits for the fill).
  const Stopwatch registering;
  const cuda::HostRegistration entries_pinned(device_, entries, n * sizeof(WideEntry), cudaHostRegisterDefault);
  const double registered_s = registering.seconds();
  unsigned long long misfit_count = 0;
  GSORT_CUDA_CHECK(cudaMemcpyAsync(&misfit_count, count, sizeof misfit_count, cudaMemcpyDeviceToHost, stream_.get()));
  stream_.synchronize();  // the text's and slots' copies done, too
  Misfits m;
  if (misfit_count > 0) {
    m.many = misfit_count > kMisfitsMost;
    std::vector<uint32_t> found(std::min<uint64_t>(misfit_count, kMisfitsMost));
    GSORT_CUDA_CHECK(cudaMemcpy(found.data(), listed, found.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    m.lines.assign(found.begin(), found.end());
    return m;
  }
  const double filled_s = took.seconds();
  kernels::LineEntry* sorted = kernels::sort_line_entries(a, b, n, temp_.data(), temp_.size(), stream_.get(), plan.bits);
  if (ties) refine_ties(*ties, sorted, n, m);
  GSORT_CUDA_CHECK(cudaMemcpyAsync(entries, sorted, n * sizeof(WideEntry), cudaMemcpyDeviceToHost, stream_.get()));
  pins.release();  // while the device sorts: the text's copies were done by the misfits' count
  stream_.synchronize();
  report(n, starts_bytes + lines.bytes(), took.seconds(), filled_s, registered_s);
  return m;
}

bool DeviceEntrySort::write_sorted(const LineSpan& lines, const uint32_t* order, const HostBuffer& staging,
                                   const std::function<void(const uint8_t*, uint64_t, bool)>& put) {
  GSORT_CUDA_CHECK(cudaSetDevice(device_));
  const uint64_t n = lines.count, bytes = lines.bytes(), starts_bytes = (n + 1) * sizeof(uint64_t);
  const uint64_t piece = staging.size() / 2 / 4096 * 4096;
  // a_ holds the order and then the lengths, b_ the offsets (the entries are back on the host).
  const uint64_t lengths_at = (n * sizeof(uint32_t) + 7) / 8 * 8;
  if (!copied(lines) || n == 0 || piece == 0 || lengths_at + n * sizeof(uint64_t) > a_.size() ||
      n * sizeof(uint64_t) > b_.size() || !room_to_gather(bytes, kernels::line_gather_temp_bytes(n))) {
    return false;
  }
  auto* device_order = reinterpret_cast<uint32_t*>(a_.data());
  {
    const cuda::HostRegistration order_pinned(device_, const_cast<uint32_t*>(order), n * sizeof(uint32_t),
                                              cudaHostRegisterDefault);
    GSORT_CUDA_CHECK(cudaMemcpyAsync(device_order, order, n * sizeof(uint32_t), cudaMemcpyHostToDevice, stream_.get()));
    kernels::gather_sorted_lines(fill_.data() + starts_bytes, reinterpret_cast<const uint64_t*>(fill_.data()),
                                 device_order, n, reinterpret_cast<uint64_t*>(a_.data() + lengths_at),
                                 reinterpret_cast<uint64_t*>(b_.data()), out_.data(), temp_.data(), temp_.size(),
                                 stream_.get());
    stream_.synchronize();  // before the registration ends
  }
  // Piece k+1 crosses the bus into one half of the staging while put()
  // takes piece k from the other.
  uint8_t* half[2] = {staging.data(), staging.data() + piece};
  const cuda::Event crossed[2];
  const uint64_t pieces = (bytes + piece - 1) / piece;
  const auto size_of = [&](uint64_t k) { return std::min(piece, bytes - k * piece); };
  const auto fetch = [&](uint64_t k) {
    GSORT_CUDA_CHECK(cudaMemcpyAsync(half[k % 2], out_.data() + k * piece, size_of(k), cudaMemcpyDeviceToHost,
                                     stream_.get()));
    crossed[k % 2].record(stream_);
  };
  fetch(0);
  for (uint64_t k = 0; k < pieces; ++k) {
    GSORT_CUDA_CHECK(cudaEventSynchronize(crossed[k % 2].get()));
    if (k + 1 < pieces) fetch(k + 1);
    put(half[k % 2], size_of(k), k + 1 == pieces);
  }
  stream_.synchronize();
  return true;
}

bool DeviceEntrySort::room_to_gather(uint64_t bytes, size_t temp) {
  const uint64_t grow = (bytes > out_.size() ? bytes - out_.size() : 0) + (temp > temp_.size() ? temp - temp_.size() : 0);
  if (!share_.hold(buffer_bytes() + grow)) {
    note_no_gather(bytes, "more than --gpu-memory leaves");
    return false;
  }
  try {
    grow_buffer(out_, bytes);
    grow_buffer(temp_, temp);
  } catch (const DeviceOutOfMemory&) {
    out_ = cuda::DeviceBuffer();
    share_.hold(buffer_bytes());
    note_no_gather(bytes, "not free on the device");
    return false;
  }
  return true;
}

void DeviceEntrySort::refine_ties(const DeviceTies& ties, kernels::LineEntry* sorted, uint64_t n, Misfits& m) {
  const Stopwatch took;
  if (!room_for_ties(kernels::line_ties_bytes(n))) return;
  const uint64_t starts_bytes = (n + 1) * sizeof(uint64_t);
  const kernels::LineTies t = kernels::refine_line_ties(
      ties.spec, ties.depth, fill_.data() + starts_bytes, reinterpret_cast<const uint64_t*>(fill_.data()), sorted, n,
      std::max(kDeviceTiesLeast, n / kDeviceTiesShare), kDeviceTieRounds, ties_.data(), stream_.get());
  m.words_refined = t.words;
  m.settled = t.tied == 0;
  tie_chunks_ += t.words > 0;
  if (log_ && t.words > 0) {
    log_->info("lines: the GPU refined the ties among " + std::to_string(n) + " lines by image words " +
               std::to_string(ties.depth) + " to " + std::to_string(ties.depth + t.words - 1) + " in " +
               seconds_text(took.seconds()) + "; " + std::to_string(t.tied) + " still tie");
  }
}

bool DeviceEntrySort::room_for_ties(uint64_t bytes) {
  const uint64_t grow = bytes > ties_.size() ? bytes - ties_.size() : 0;
  if (grow == 0) return true;
  if (!share_.hold(buffer_bytes() + grow)) return false;
  try {
    grow_buffer(ties_, bytes);
  } catch (const DeviceOutOfMemory&) {
    ties_ = cuda::DeviceBuffer();
    share_.hold(buffer_bytes());
    return false;
  }
  return true;
}

void DeviceEntrySort::note_no_gather(uint64_t bytes, const char* why) const {
  if (log_) {
    log_->info("lines: the GPU's room to gather " + std::to_string(bytes) + " bytes of lines is " + why +
               "; gathered on the CPU");
  }
}

void DeviceEntrySort::report(uint64_t n, uint64_t bytes, double seconds, double filled_s, double registered_s) const {
  if (!log_) return;
  char text[300];
  std::snprintf(text, sizeof text,
                "lines: the GPU filled and sorted %llu lines' entries in %.3f s (its memory taken in %.3f s; %.2f GB "
                "registered a piece at a time and copied in, then filled, by %.3f s, the copies queued by %.3f s; "
                "the entries' host memory registered meanwhile in %.3f s)",
                static_cast<unsigned long long>(n), seconds, copied_.reserved_s, static_cast<double>(bytes) / 1e9,
                filled_s, copied_.seconds, registered_s);
  log_->info(text);
}

// Holds in --gpu-memory what the buffers will hold in all, if they grow
// (never less than they hold), then grows them.
bool DeviceEntrySort::make_room(uint64_t n, uint64_t fill_bytes) {
  const size_t temp = kernels::entry_sort_temp_bytes(n);
  const uint64_t fill = fill_bytes == 0 ? fill_.size() + plan_.size() : std::max<uint64_t>(fill_bytes, fill_.size()) + kPlanBytes;
  const uint64_t need =
      std::max(2 * n, 2 * capacity_) * sizeof(WideEntry) + std::max(temp, temp_.size()) + fill + out_.size() + ties_.size();
  if (!share_.hold(need)) {
    note_no_room(n, "more than --gpu-memory leaves");
    return false;
  }
  try {
    reserve(n, temp, fill_bytes);
  } catch (const DeviceOutOfMemory&) {
    release();
    note_no_room(n, "not free on the device");
    return false;
  }
  return true;
}

void DeviceEntrySort::reserve(uint64_t n, size_t temp, uint64_t fill_bytes) {
  if (n > capacity_) {
    a_ = cuda::DeviceBuffer();
    b_ = cuda::DeviceBuffer();
    a_ = cuda::DeviceBuffer(n * sizeof(WideEntry));
    b_ = cuda::DeviceBuffer(n * sizeof(WideEntry));
    capacity_ = n;
  }
  grow_buffer(temp_, temp);
  grow_buffer(fill_, fill_bytes);
  if (fill_bytes > 0 && plan_.size() == 0) plan_ = cuda::DeviceBuffer(kPlanBytes);
}

void DeviceEntrySort::release() {
  a_ = cuda::DeviceBuffer();
  b_ = cuda::DeviceBuffer();
  temp_ = cuda::DeviceBuffer();
  fill_ = cuda::DeviceBuffer();
  plan_ = cuda::DeviceBuffer();
  out_ = cuda::DeviceBuffer();
  ties_ = cuda::DeviceBuffer();
  capacity_ = 0;
  copied_ = Copied{};
  share_.reset();
}

void DeviceEntrySort::note_no_room(uint64_t n, const char* why) const {
  if (log_) log_->info("lines: the GPU's room for a chunk of " + std::to_string(n) + " lines is " + why + "; sorted on the CPU");
}

}  // namespace gsort
