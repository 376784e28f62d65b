#include "src/distributed/distributed_check.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "src/distributed/lines/line_slice.h"
#include "src/distributed/lines/slice_check.h"
#include "src/distributed/partition/content_check.h"
#include "src/distributed/rank_input.h"
#include "src/distributed/ranks/rank_bytes.h"
#include "src/distributed/ranks/rank_config.h"
#include "src/keys/line_spec.h"
#include "src/verify/line_check.h"

namespace gsort {
namespace {

// The order of two units (whole records, or lines without terminators).
using UnitCompare = std::function<int(const std::string& a, const std::string& b)>;

// Where the slice lies (slice_check.h): no copy of it in -T.
SliceCheck check_line_slice(RankContext& rank, const RankInput& input, const LineComparator& compare) {
  const RecordRange range = rank_line_slice(input.inputs, compare.spec().eol, rank.group.rank, rank.group.size);
  return check_line_slice_in_place(input.inputs, range, compare, rank_max_line(rank.config), rank.pool);
}

SliceCheck check_record_slice(const RankContext& rank, const RankInput& input) {
  const KeyLayout& layout = rank.layout;
  const uint32_t rs = layout.record_size();
  SliceCheck c;
  c.units = input.slice.size();
  c.bytes = c.units * rs;
  std::vector<uint8_t> buf, previous;
  const uint64_t per_read = std::max<uint64_t>(1, (uint64_t{8} << 20) / rs);
  for (uint64_t i = 0; i < c.units && c.local.sorted;) {
    const uint64_t n = std::min(per_read, c.units - i);
    buf.resize(n * rs);
    input.inputs.read(input.slice.begin + i, n, buf.data());
    for (uint64_t k = 0; k < n; ++k, ++i) {
      const uint8_t* rec = buf.data() + k * rs;
      if (!previous.empty()) {
        const int d = layout.compare(previous.data(), rec);
        if (out_of_order(d, rank.config.unique)) {
          c.local.sorted = false;
          c.local.bad_record = i + 1;
          c.local.bad_offset = i * rs;
          c.local.previous_key = raw_key_bytes(layout, previous.data());
          c.local.bad_key = raw_key_bytes(layout, rec);
          break;
        }
      }
      previous.assign(rec, rec + rs);
    }
  }
  if (c.units > 0) {
    std::string r(rs, '\0');
    input.inputs.read(input.slice.begin, 1, reinterpret_cast<uint8_t*>(r.data()));
    c.first = r;
    input.inputs.read(input.slice.end - 1, 1, reinterpret_cast<uint8_t*>(r.data()));
    c.last = r;
  }
  return c;
}

// This rank's first disorder in input order, numbered from the input's
// start: at its first unit (against the slice before it), else in it.
CheckResult first_disorder(const RankContext& rank, const SliceCheck& c, const std::vector<std::string>& ends,
                           const UnitCompare& compare, const std::function<std::string(const std::string&)>& key) {
  uint64_t before[2] = {0, 0}, mine[2] = {c.units, c.bytes};
  MPI_Exscan(mine, before, 2, MPI_UINT64_T, MPI_SUM, rank.group.comm);
  if (rank.group.rank == 0) before[0] = before[1] = 0;  // MPI_Exscan leaves rank 0's undefined
  CheckResult r = c.local;
  r.bad_record += before[0];
  r.bad_offset += before[1];
  if (c.units == 0) return CheckResult{};
  // The last unit of the nearest slice before this one that has any.
  for (int p = rank.group.rank - 1; p >= 0; --p) {
    if (ends[static_cast<size_t>(p)].empty()) continue;
    RankBytesReader in(ends[static_cast<size_t>(p)]);
    in.bytes();  // its first
    const std::string last = in.bytes();
    const int d = compare(last, c.first);
    if (out_of_order(d, rank.config.unique)) {
      r.sorted = false;
      r.bad_record = before[0] + 1;
      r.bad_offset = before[1];
      const std::string a = key(last), b = key(c.first);
      r.previous_key.assign(a.begin(), a.end());
      r.bad_key.assign(b.begin(), b.end());
    }
    break;
  }
  return r;
}

// Collective: the first rank's verdict that finds a disorder (ranks in
// input order), the same on every rank; sorted where none does.
CheckResult first_verdict(const RankGroup& group, const CheckResult& mine) {
  RankBytesWriter out;
  out.u64(mine.sorted ? 0 : 1).u64(mine.bad_record).u64(mine.bad_offset);
  out.bytes(std::string(mine.previous_key.begin(), mine.previous_key.end()));
  out.bytes(std::string(mine.bad_key.begin(), mine.bad_key.end()));
  for (const std::string& theirs : gather_to_all(group, out.text())) {
    RankBytesReader in(theirs);
    if (in.u64() == 0) continue;
    CheckResult r;
    r.sorted = false;
    r.bad_record = in.u64();
    r.bad_offset = in.u64();
    const std::string previous = in.bytes(), bad = in.bytes();
    r.previous_key.assign(previous.begin(), previous.end());
    r.bad_key.assign(bad.begin(), bad.end());
    return r;
  }
  return CheckResult{};
}

// An input that only rank 0 can read as it comes (standard input, a pipe,
// a compressed file): rank 0 checks it whole, as one process does.
CheckResult check_on_rank0(RankContext& rank, DistributedOutput& output, const SortConfig& given) {
  prepare_rank0_inputs(rank, output, "checks them");
  CheckResult mine;
  rank.fence.attempt([&] {
    if (rank.group.rank != 0) return;
    const std::string& input = given.inputs.front();
    if (given.lines.enabled) {
      const LineComparator compare(make_line_spec(given.lines, given.reverse, given.unique));
      mine = check_sorted_lines(input, compare, rank_max_line(rank.config), nullptr);
    } else {
      mine = check_sorted(input, rank.layout, given.unique, 16u << 20);
    }
  });
  rank.fence.agree();
  return first_verdict(rank.group, mine);
}

}  // namespace

CheckResult distributed_check(const RankGroup& group, const SortConfig& given) {
  SortConfig config = given;
  if (config.lines.enabled) config.record_size = 1;  // the inputs end to end, as bytes
  RankContext rank(group, config);
  DistributedOutput output(group, rank.config);
  RankStats stats;
  if (inputs_only_rank0_reads(group, given.inputs)) return check_on_rank0(rank, output, given);
  const RankInput input = prepare_rank_input(rank, output, stats);
  ContentCheck content(input.inputs, input.views, group.rank);
  const LineComparator lines(make_line_spec(given.lines, given.reverse, given.unique));
  SliceCheck c;
  rank.fence.attempt([&] { c = given.lines.enabled ? check_line_slice(rank, input, lines) : check_record_slice(rank, input); });
  rank.fence.agree();
  RankBytesWriter ends;
  if (c.units > 0) ends.bytes(c.first).bytes(c.last);
  const UnitCompare compare = [&](const std::string& a, const std::string& b) {
    if (given.lines.enabled) {
      return lines.compare(reinterpret_cast<const uint8_t*>(a.data()), a.size(),
                           reinterpret_cast<const uint8_t*>(b.data()), b.size());
    }
    return rank.layout.compare(reinterpret_cast<const uint8_t*>(a.data()), reinterpret_cast<const uint8_t*>(b.data()));
  };
  const auto key = [&](const std::string& unit) {
    if (given.lines.enabled) return unit;
    const std::vector<uint8_t> k = raw_key_bytes(rank.layout, reinterpret_cast<const uint8_t*>(unit.data()));
    return std::string(k.begin(), k.end());
  };
  const CheckResult mine = first_disorder(rank, c, gather_to_all(group, ends.text()), compare, key);
  content.compare(rank);
  return first_verdict(group, mine);
}

}  // namespace gsort
