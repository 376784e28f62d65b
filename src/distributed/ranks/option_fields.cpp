#include "src/distributed/ranks/option_fields.h"

#include <time.h>

#include <string>

#include "io/file/checksum.h"
#include "src/distributed/ranks/line_option_fields.h"
#include "src/keys/key_layout.h"

namespace gsort {
namespace {

std::string on_off(bool on) { return on ? "on" : "off"; }
std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string mode_text(const SortConfig& c) {
  if (c.mode == Mode::kMerge) return "merge";
  if (c.mode == Mode::kCheck) return c.check_quiet ? "check quietly" : "check";
  return "sort";
}

std::string keys_text(const std::vector<KeyField>& keys) {
  if (keys.empty()) return "the whole record";
  std::string s;
  for (const KeyField& k : keys) s += (s.empty() ? "" : ",") + describe_key_field(k);
  return s;
}

std::string exchange_text(ExchangeChoice e) {
  switch (e) {
    case ExchangeChoice::kMpi: return "mpi";
    case ExchangeChoice::kNccl: return "nccl";
    case ExchangeChoice::kShm: return "shm";
    case ExchangeChoice::kAuto: break;
  }
  return "auto";
}

std::string compression_text(const SortConfig& c) {
  if (!c.compress_output) return "off";
  return std::string(format_name(c.output_format)) + " level " + std::to_string(c.output_level);
}

// UTC, so that ranks in different time zones write the same text.
std::string utc_text(int64_t seconds) {
  const time_t t = static_cast<time_t>(seconds);
  struct tm parts;
  char text[64];
  if (::gmtime_r(&t, &parts) == nullptr || ::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &parts) == 0) {
    return std::to_string(seconds) + " s";
  }
  return text;
}

}  // namespace

SharedFields option_fields(const SortConfig& c) {
  // Left out, each for its own rank: inputs (input_fields compares them);
  // -S, --parallel, --batch-size, -T, --compress-temp and its level,
  // --spill-streams, --page-cache, --no-space-check (how a rank sorts its
  // part, not what it writes); --backend, --algorithm, --device,
  // --gpu-memory (where it sorts); -v, --progress, --to-terminal (what it
  // says; rank 0 speaks for all). Text lines add what orders them
  // (line_option_fields.h).
  SharedFields fields = {
      {"gsort", "version", GSORT_VERSION, "run the same gsort on every rank"},
      {"option -c, -C or -m", "", mode_text(c), ""},
      {"option --record-size", "", std::to_string(c.record_size), ""},
      {"option --key", "", keys_text(c.keys), ""},
      {"option --reverse", "", on_off(c.reverse), ""},
      {"option --unique", "", on_off(c.unique), ""},
      {"option -o", "", quoted(c.output), ""},
      {"option --output-parts", "", on_off(c.output_parts), ""},
      {"option --exchange", "", exchange_text(c.exchange), ""},
      {"option --verify", "", on_off(c.verify), ""},
      {"option --fsync", "", on_off(c.fsync), ""},
      {"option --compress-output", "", compression_text(c), ""},
      {"option --stats", "", c.stats_path.empty() ? "none" : quoted(c.stats_path), ""},
      {"option --trace", "", c.trace_path.empty() ? "none" : quoted(c.trace_path), ""},
      {"text lines", "", on_off(c.lines.enabled), ""},
  };
  if (c.lines.enabled) {
    const SharedFields lines = line_option_fields(c);
    fields.insert(fields.end(), lines.begin(), lines.end());
  }
  return fields;
}

SharedFields input_fields(const std::vector<InputIdentity>& inputs) {
  SharedFields fields{{"the list of inputs", "count", std::to_string(inputs.size()), ""}};
  for (size_t i = 0; i < inputs.size(); ++i) {
    const InputIdentity& in = inputs[i];
    const std::string input = "input " + quoted(in.name);
    fields.push_back({"input " + std::to_string(i + 1), "name", quoted(in.name), ""});
    fields.push_back({input, "size", std::to_string(in.size), ""});
    fields.push_back({input, "modified", utc_text(in.modified_s),
                      "every rank must read the same file (copies keep its time with cp -p or rsync -t)"});
    fields.push_back({input, "sampled content", checksum_hex(in.sampled_hash), "every rank must read the same file"});
  }
  return fields;
}

}  // namespace gsort
