#include "src/distributed/ranks/rank_stats.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <type_traits>

namespace gsort {
namespace {

static_assert(std::is_trivially_copyable<RankStats>::value, "gathered as bytes");

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

}  // namespace

std::vector<RankStats> gather_rank_stats(const RankGroup& group, const RankStats& mine) {
  std::vector<RankStats> all(group.rank == 0 ? static_cast<size_t>(group.size) : 0);
  MPI_Gather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, 0, group.comm);
  return all;
}

std::vector<std::string> describe_rank_stats(const std::vector<RankStats>& all, uint32_t record_size) {
  std::vector<std::string> lines;
  uint64_t largest = 0, smallest = UINT64_MAX, total = 0;
  for (size_t r = 0; r < all.size(); ++r) {
    const RankStats& s = all[r];
    largest = std::max(largest, s.received_records);
    smallest = std::min(smallest, s.received_records);
    total += s.received_records;
    lines.push_back(format("rank %zu: %llu records in, %llu in its partition, %llu out; sent %llu bytes, received "
                           "%llu in %llu rounds; %llu runs; partitioned on the %s",
                           r, ull(s.slice_records), ull(s.received_records), ull(s.output_records),
                           ull(s.bytes_sent), ull(s.bytes_received), ull(s.rounds), ull(s.runs),
                           s.partitioned_on_gpu ? "GPU" : "CPU"));
    lines.push_back(format("rank %zu: splitters %.3f s, exchange %.3f s (read and partition %.3f s [map %.3f s, "
                           "classify %.3f s, place %.3f s], start %.3f s, allocate %.3f s, %.3f s in collectives), "
                           "local sort %.3f s (sort %.3f s, gather and write %.3f s, release %.3f s), write %.3f s, "
                           "total %.3f s",
                           r, s.splitters_s, s.exchange_s, s.read_s, s.map_s, s.classify_s, s.place_s, s.start_s,
                           s.allocate_s, s.exchange_wait_s,
                           s.sort_s, s.order_s, s.part_write_s, s.release_s, s.write_s, s.total_s));
  }
  const double mean = all.empty() ? 0 : static_cast<double>(total) / static_cast<double>(all.size());
  lines.push_back(format("partitions: largest %llu records, smallest %llu (skew %.3f of the mean), %u-byte records",
                         ull(largest), ull(all.empty() ? 0 : smallest), mean > 0 ? static_cast<double>(largest) / mean : 0.0,
                         record_size));
  return lines;
}

std::string rank_stats_json(const std::vector<RankStats>& all, uint32_t record_size, double total_s) {
  using Json = nlohmann::ordered_json;
  // The keys one process's --stats has where they mean the same, then the ranks'.
  uint64_t records = 0, out_records = 0;
  for (const RankStats& s : all) {
    records += s.slice_records;
    out_records += s.output_records;
  }
  Json j;
  j["gsort_version"] = GSORT_VERSION;
  j["mode"] = "sort";
  j["record_size"] = record_size;
  j["input"] = {{"records", records}, {"bytes", records * record_size}};
  j["output"] = {{"records", out_records}, {"bytes", out_records * record_size}};
  j["total_s"] = total_s;
  j["throughput_mb_s"] = total_s > 0 ? static_cast<double>(records * record_size) / 1e6 / total_s : 0.0;
  j["ranks"] = all.size();
  Json per_rank = Json::array();
  for (size_t r = 0; r < all.size(); ++r) {
    const RankStats& s = all[r];
    per_rank.push_back(
        {{"rank", r}, {"input_records", s.slice_records}, {"partition_records", s.received_records},
         {"output_records", s.output_records}, {"bytes_sent", s.bytes_sent}, {"bytes_received", s.bytes_received},
         {"rounds", s.rounds}, {"runs", s.runs}, {"partitioned_on", s.partitioned_on_gpu ? "gpu" : "cpu"},
         {"phases",
          {{"splitters_s", s.splitters_s}, {"exchange_s", s.exchange_s}, {"read_s", s.read_s}, {"map_s", s.map_s},
           {"classify_s", s.classify_s}, {"place_s", s.place_s}, {"start_s", s.start_s},
           {"allocate_s", s.allocate_s}, {"exchange_wait_s", s.exchange_wait_s}, {"sort_s", s.sort_s},
           {"order_s", s.order_s}, {"part_write_s", s.part_write_s}, {"release_s", s.release_s},
           {"write_s", s.write_s}, {"total_s", s.total_s}}}});
  }
  j["per_rank"] = per_rank;
  return j.dump() + "\n";
}

}  // namespace gsort
