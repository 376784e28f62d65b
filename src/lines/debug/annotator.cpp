#include "src/lines/debug/annotator.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "src/keys/line_fields.h"
#include "src/keys/line_month.h"
#include "src/keys/line_number.h"

namespace gsort {
namespace {

constexpr size_t kFlushBytes = 1 << 16;

// The columns bytes [from, to) take: a tab one, other control bytes none,
// every other byte one (GNU sort's debug_width in the C locale).
uint64_t columns(const uint8_t* line, uint64_t from, uint64_t to) {
  uint64_t width = 0;
  for (uint64_t i = from; i < to; ++i) {
    const uint8_t c = line[i];
    width += c == '\t' || !(c < 0x20 || c == 0x7f);
  }
  return width;
}

// Where the number at line[at, limit) ends, as -n and -h read one for
// --debug: an optional '-', digits, and '.' and digits; -h's unit after
// it. `at` itself when there is no digit.
uint64_t number_end(const uint8_t* line, uint64_t at, uint64_t limit, bool human) {
  uint64_t p = at + (at < limit && line[at] == '-');
  bool digits = false;
  for (; p < limit && is_ascii_digit(line[p]); ++p) digits = true;
  if (p < limit && line[p] == '.') {
    for (++p; p < limit && is_ascii_digit(line[p]); ++p) digits = true;
  }
  if (!digits) return at;
  return p + (human && p < limit && unit_order_of(line[p]) != 0);
}

// Where the month name at line[at, limit) ends (its three letters), `at`
// itself when there is none: what -M reads of a key whose blanks are
// passed (line_month.h).
uint64_t month_end(const uint8_t* line, uint64_t at, uint64_t limit) {
  return line_month(line + at, limit - at) != 0 ? at + 3 : at;
}

// Where strtold stops in line[at, limit), as -g reads the key (GNU sort
// underlines what strtold took); `at` where it takes nothing.
uint64_t general_end(const uint8_t* line, uint64_t at, uint64_t limit) {
  const std::string key(reinterpret_cast<const char*>(line + at), static_cast<size_t>(limit - at));
  char* end = nullptr;
  (void)std::strtold(key.c_str(), &end);
  return at + static_cast<uint64_t>(end - key.c_str());
}

// One key's mark: spaces up to its start, then '_' under it.
void mark_key(const LineSpec& spec, const LineKey* key, const uint8_t* line, uint64_t len, std::string& out) {
  uint64_t begin = 0, limit = len;
  if (key) {
    // A key from the line's start (GNU's unset start field) starts there;
    // its blanks are passed over below, as sort does, only up to the limit.
    const bool from_line_start = key->start_field == 0 && key->start_char == 0;
    begin = from_line_start ? 0 : line_key_start(line, len, *key, spec.separator);
    limit = line_key_limit(line, len, *key, spec.separator);
    if ((from_line_start && key->skip_start_blanks) || reads_number(*key) || key->month || key->general) {
      // Past the limit where it is before the start, as sort does.
      const uint64_t stop = limit >= begin ? limit : len;
      while (begin < stop && is_line_blank(line[begin])) ++begin;
      if (limit >= begin) {
        if (reads_number(*key)) limit = number_end(line, begin, limit, key->human);
        else if (key->month) limit = month_end(line, begin, limit);
        else if (key->general) limit = general_end(line, begin, limit);
      }
    }
  }
  const uint64_t offset = columns(line, 0, begin);
  const uint64_t width = limit > begin ? columns(line, begin, limit) : 0;
  out.append(offset, ' ');
  if (width == 0) {
    out += "^ no match for key\n";
  } else {
    out.append(width, '_');
    out += '\n';
  }
}

}  // namespace

std::string debug_marks(const LineSpec& spec, const uint8_t* line, uint64_t len) {
  std::string out;
  for (const LineKey& key : spec.keys) mark_key(spec, &key, line, len, out);
  if (spec.last_resort()) mark_key(spec, nullptr, line, len, out);
  return out;
}

void DebugAnnotator::annotate(const uint8_t* line, uint64_t len) {
  const size_t at = out_.size();
  out_.append(reinterpret_cast<const char*>(line), len);
  std::replace(out_.begin() + static_cast<std::ptrdiff_t>(at), out_.end(), '\t', '>');
  out_ += '\n';
  out_ += debug_marks(spec_, line, len);
  if (out_.size() >= kFlushBytes) flush();
}

void DebugAnnotator::flush() {
  file_.write_all(reinterpret_cast<const uint8_t*>(out_.data()), out_.size());
  bytes_out_ += out_.size();
  out_.clear();
}

void DebugAnnotator::write(const uint8_t* data, size_t n) {
  const uint8_t* end = data + n;
  while (data < end) {
    const uint8_t* eol = static_cast<const uint8_t*>(std::memchr(data, spec_.eol, static_cast<size_t>(end - data)));
    if (!eol) {
      partial_.append(reinterpret_cast<const char*>(data), static_cast<size_t>(end - data));
      return;
    }
    if (partial_.empty()) {
      annotate(data, static_cast<uint64_t>(eol - data));
    } else {
      partial_.append(reinterpret_cast<const char*>(data), static_cast<size_t>(eol - data));
      annotate(reinterpret_cast<const uint8_t*>(partial_.data()), partial_.size());
      partial_.clear();
    }
    data = eol + 1;
  }
}

void DebugAnnotator::finish() {
  // The writer ends every line; a partial one would be a line without its end.
  if (!partial_.empty()) annotate(reinterpret_cast<const uint8_t*>(partial_.data()), partial_.size());
  partial_.clear();
  flush();
}

}  // namespace gsort
