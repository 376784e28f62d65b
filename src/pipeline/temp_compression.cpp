#include "src/pipeline/temp_compression.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "io/cache/page_cache_room.h"
#include "io/temp/write_probe.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

// Compressed runs: frames of a quarter of a merge read window (a refill
// takes whole frames, and at most one frame per run waits aside), within
// these bounds: zstd slows down on frames under 64 KiB (incompressible data
// 1.7 GB/s in 32 KiB frames, 3.5 GB/s in 64 KiB ones, level 1).
constexpr uint64_t kMinRunFrameBytes = 64 << 10, kMaxRunFrameBytes = 1 << 20;
// Frames the sample holds at most: enough to keep every thread busy twice.
constexpr uint64_t kMostSampleFrames = 32;

std::string mb(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f MB", bytes / 1e6);
  return text;
}

std::string mb_s(double bytes_per_s) { return mb(bytes_per_s) + "/s"; }

std::string ratio_text(double r) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", r);
  return text;
}

// What a decision reads and where it goes.
struct Decision {
  const TempSettings& settings;
  uint64_t frame_bytes;  // a run frame's
  TempRuns& runs;
  TempChoice& choice;
};

void compress_runs(const Decision& d, int level) {
  RunCompression c;
  c.enabled = true;
  c.level = level;
  c.frame_bytes = d.frame_bytes;
  // Compression was the bottleneck of spilling on one core (~350 MB/s):
  // the frames of each block are compressed by all threads at once.
  c.pool = &d.settings.pool;
  d.runs.compress(c);
  d.choice.compressed = true;
  d.choice.level = level;
}

struct Sample {
  double ratio = 1;        // bytes in / bytes out
  double bytes_per_s = 0;  // all threads
};

// Frames of the sorted chunk, evenly spread over it, compressed as a run's
// frames are, side by side on the pool's threads.
Sample sample_compression(const Decision& d, int level, const SampleFrames& chunk) {
  const uint64_t frame = std::min(d.frame_bytes, chunk.bytes);
  ThreadPool& pool = d.settings.pool;
  // At most an eighth of the chunk, at least one frame.
  const uint64_t frames = std::clamp<uint64_t>(chunk.bytes / (8 * frame), 1, std::min<uint64_t>(kMostSampleFrames, 2 * pool.size()));
  std::mutex mutex;
  uint64_t in = 0, out = 0;
  double seconds = 0;
  pool.parallel_for(frames, [&](size_t f) {
    const std::vector<uint8_t> raw = chunk.frame(f, frames, frame);
    std::vector<uint8_t> packed(ZstdCompressor::bound(raw.size()));
    ZstdCompressor zstd(level);
    // Once to size the context's tables (a run's writer does that once),
    // then timed twice, the faster kept: a thread preempted meanwhile
    // (the kernel's reclaim in a memory cgroup) once made a 3.3 GB/s
    // compressor look like 0.9 GB/s.
    (void)zstd.compress(packed.data(), packed.size(), raw.data(), raw.size());
    size_t stored = 0;
    double s = 0;
    for (int timing = 0; timing < 2; ++timing) {
      const auto start = std::chrono::steady_clock::now();
      stored = zstd.compress(packed.data(), packed.size(), raw.data(), raw.size());
      const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      s = timing == 0 ? took : std::min(s, took);
    }
    std::lock_guard<std::mutex> lock(mutex);
    in += raw.size();
    out += stored + sizeof(RunFrameHeader);
    seconds += s;
  });
  Sample sample;
  sample.ratio = out > 0 ? static_cast<double>(in) / static_cast<double>(out) : 1;
  sample.bytes_per_s = seconds > 0 ? static_cast<double>(in) / seconds * pool.size() : 0;
  return sample;
}

// A chunk of records as its run holds them: frame f of `frames` is whole
// records, evenly spread.
SampleFrames record_frames(const RunSample& chunk, uint32_t rs) {
  SampleFrames s;
  s.bytes = chunk.count * rs;
  s.frame = [chunk, rs](size_t f, size_t frames, uint64_t frame_bytes) {
    const uint64_t count = chunk.count;
    const uint64_t frame = std::clamp<uint64_t>(frame_bytes / rs, 1, count);
    const uint64_t first = split_point(count - frame, frames > 1 ? frames - 1 : 1, f);
    std::vector<uint8_t> raw(frame * rs);
    for (uint64_t i = 0; i < frame; ++i) {
      std::memcpy(raw.data() + i * rs, chunk.records + uint64_t{chunk.order[first + i]} * rs, rs);
    }
    return raw;
  };
  return s;
}

// The temp device's write speed, by the probe; in_memory for tmpfs.
WriteSpeed probe_temp_device(TempRuns& runs) {
  TempDir& dir = runs.dir();
  if (directory_in_memory(dir.path())) {
    WriteSpeed memory;
    memory.in_memory = true;
    memory.how = "tmpfs";
    return memory;
  }
  uint64_t number = 0;
  TempFile probe = dir.create_file("probe", &number);
  WriteSpeed speed = measure_write_speed(probe.file, kProbeBytes);
  dir.remove(probe);
  return speed;
}

// --compress-temp=auto: the choice and its reason in report.temp.
void decide_auto(const Decision& d, const SampleFrames& chunk) {
  TempChoice& choice = d.choice;
  const int level = d.settings.config.temp_level;
  const std::string zstd = "zstd level " + std::to_string(level);
  if (chunk.bytes == 0) {
    choice.reason = "no chunk to sample (--merge): runs are written plain";
    return;
  }
  const Sample sample = sample_compression(d, level, chunk);
  choice.sample_ratio = sample.ratio;
  choice.compress_bytes_per_s = sample.bytes_per_s;
  const std::string shrinks = "a sample of the first chunk shrinks " + ratio_text(sample.ratio) + " (" + zstd + ")";
  if (sample.ratio < kMinSampleRatio) {
    choice.reason = shrinks + ", less than " + ratio_text(kMinSampleRatio);
    return;
  }
  const TempRoom given = temp_room();
  const uint64_t room = given.page_cache_bytes;
  double device = given.device_bytes_per_s;
  std::string how;
  bool in_memory = false;
  if (device >= 0) how = "given by the test";
  choice.page_cache_room = room;
  const uint64_t expected = choice.expected_bytes;
  if (expected != 0 && expected <= room) {
    choice.reason = shrinks + ", but the runs (" + mb(static_cast<double>(expected)) +
                    ") fit in what the page cache takes at memory speed (" + mb(static_cast<double>(room)) + ")";
    return;
  }
  if (device < 0) {
    const WriteSpeed speed = probe_temp_device(d.runs);
    in_memory = speed.in_memory;
    device = speed.measured ? speed.bytes_per_s : 0;
    how = speed.how;
  }
  if (in_memory) {
    choice.reason = shrinks + ", but the temporary directory is in memory (" + how + ")";
    return;
  }
  choice.device_bytes_per_s = device;
  if (device <= 0) {
    choice.reason = shrinks + ", but the temp device's speed is unknown (" + how + ")";
    return;
  }
  const std::string speeds = zstd + " on " + std::to_string(d.settings.pool.size()) + " threads compresses " +
                             mb_s(sample.bytes_per_s) + ", the temp device writes " + mb_s(device) + " (" + how + ")";
  const std::string beyond = expected != 0 ? "the runs (" + mb(static_cast<double>(expected)) + ") exceed"
                                           : "runs of unknown size may exceed";
  if (!compression_pays(sample.ratio, sample.bytes_per_s, device)) {
    choice.reason = shrinks + ", but " + speeds + ": writing and reading back plain runs would be faster";
    return;
  }
  choice.reason = shrinks + ", " + speeds + ", and " + beyond + " what the page cache takes at memory speed (" +
                  mb(static_cast<double>(room)) + ")";
  compress_runs(d, level);
}

}  // namespace

bool compression_pays(double ratio, double compress_bytes_per_s, double device_bytes_per_s) {
  if (ratio <= 1 || compress_bytes_per_s <= 0 || device_bytes_per_s <= 0) return false;
  // Seconds per byte of records: a plain run is written, then read back;
  // a compressed one is written as fast as the slower of the compressor
  // and the disk's writes of ratio-times fewer bytes, and read back ratio
  // times faster. Reads are taken as fast as writes.
  const double plain = 2 / device_bytes_per_s;
  const double packed = std::max(1 / compress_bytes_per_s, 1 / (ratio * device_bytes_per_s)) +
                        1 / (ratio * device_bytes_per_s);
  return packed < plain;
}

TempRoom temp_room() {
  TempRoom r{page_cache_room().bytes, -1};
  if (test_hooks::temp_device) test_hooks::temp_device(&r.page_cache_bytes, &r.device_bytes_per_s);
  return r;
}

void decide_run_compression(const SortContext& ctx, uint64_t source_records, const RunSample& sample,
                            TempRuns& runs, TempChoice& choice) {
  const uint32_t rs = ctx.layout.record_size();
  const TempSettings settings{ctx.config, ctx.pool, ctx.log, source_records * rs};
  decide_run_compression(settings, record_frames(sample, rs), runs, choice);
}

void decide_run_compression(const TempSettings& settings, const SampleFrames& sample, TempRuns& runs,
                            TempChoice& choice) {
  if (choice.decided) return;
  choice.decided = true;
  const Decision d{settings, std::clamp<uint64_t>(settings.window_bytes / 4, kMinRunFrameBytes, kMaxRunFrameBytes),
                   runs, choice};
  const SortConfig& config = settings.config;
  switch (config.compress_temp) {
    case TempCompression::kOn:
      choice.mode = "on";
      choice.reason = "--compress-temp";
      compress_runs(d, config.temp_level);
      break;
    case TempCompression::kOff:
      choice.mode = "off";
      choice.reason = "--compress-temp=off";
      break;
    case TempCompression::kAuto:
      choice.mode = "auto";
      decide_auto(d, sample);
      break;
  }
  settings.log.info(std::string("temp compression: ") + (choice.compressed ? "on" : "off") + " (" + choice.mode +
                    "): " + choice.reason);
  runs.settled(choice.compressed);
}

}  // namespace gsort
