#include "src/lines/debug/annotator.h"

#include <locale.h>
#include <wchar.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <cwctype>
#include <string>

#include "src/keys/line_fields.h"
#include "src/keys/line_month.h"
#include "src/keys/line_number.h"
#include "src/keys/line_orders.h"

namespace gsort {
namespace {

constexpr size_t kFlushBytes = 1 << 16;

// The columns bytes [from, to) take, tabs one each (GNU sort's
// debug_width: gnulib's mbsnwidth, and the tabs): in the C locale a
// control byte none and every other byte one; in another (`ctype`, a
// locale_t), each character its wcwidth, an unprintable one 1 unless a
// control, a byte that starts no character 1, and a character cut short
// at the end 1.
uint64_t columns(const uint8_t* line, uint64_t from, uint64_t to, void* ctype) {
  uint64_t width = 0;
  if (ctype == nullptr) {
    for (uint64_t i = from; i < to; ++i) {
      const uint8_t c = line[i];
      width += c == '\t' || !(c < 0x20 || c == 0x7f);
    }
    return width;
  }
  const locale_t previous = uselocale(static_cast<locale_t>(ctype));
  const bool multibyte = MB_CUR_MAX > 1;
  std::mbstate_t state{};
  for (uint64_t i = from; i < to;) {
    const uint8_t c = line[i];
    if (c == '\t') ++width;
    if (!multibyte) {
      width += std::isprint(c) || !std::iscntrl(c);
      ++i;
      continue;
    }
    wchar_t wc = 0;
    const size_t bytes = std::mbrtowc(&wc, reinterpret_cast<const char*>(line + i), to - i, &state);
    if (bytes == static_cast<size_t>(-2)) {  // cut short: the rest is one column
      ++width;
      for (++i; i < to; ++i) width += line[i] == '\t';
      break;
    }
    if (bytes == static_cast<size_t>(-1)) {
      state = std::mbstate_t{};
      ++width, ++i;
      continue;
    }
    const int w = wcwidth(wc);
    if (w >= 0) width += static_cast<uint64_t>(w);
    else width += !std::iswcntrl(static_cast<wint_t>(wc));
    i += bytes == 0 ? 1 : bytes;
  }
  uselocale(previous);
  return width;
}

// Where the number at line[at, limit) ends, as -n and -h read one for
// --debug (GNU's traverse_raw_number): an optional '-', digits with one
// thousands separator after each passed over, and the decimal point and
// digits; -h's unit after it. A separator not followed by a digit ends it
// before the separator. `at` itself when there is no digit.
uint64_t number_end(const uint8_t* line, uint64_t at, uint64_t limit, bool human, NumberMarks marks) {
  uint64_t p = at + (at < limit && line[at] == '-');
  bool digits = false, ends_with_separator = false;
  while (p < limit && is_ascii_digit(line[p])) {
    digits = true;
    ++p;
    ends_with_separator = p < limit && line[p] == marks.thousands_separator;
    if (ends_with_separator) ++p;
  }
  if (ends_with_separator) return p - 1;  // (after a digit)
  if (p < limit && line[p] == marks.decimal_point) {
    for (++p; p < limit && is_ascii_digit(line[p]); ++p) digits = true;
  }
  if (!digits) return at;
  return p + (human && p < limit && unit_order_of(line[p]) != 0);
}

// Where the month name at line[at, limit) ends, `at` itself when there is
// none: what -M reads of a key whose blanks are passed (line_month.h).
uint64_t month_end(const uint8_t* line, uint64_t at, uint64_t limit, const LocaleRules* rules) {
  uint64_t end = 0;
  return line_month(line + at, limit - at, rules, &end) != 0 ? at + end : at;
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
        if (reads_number(*key)) limit = number_end(line, begin, limit, key->human, key->marks);
        else if (key->month) limit = month_end(line, begin, limit, key->rules);
        else if (key->general) limit = begin + general_number_end(line + begin, limit - begin, key->rules);
      }
    }
  }
  const uint64_t offset = columns(line, 0, begin, spec.ctype);
  const uint64_t width = limit > begin ? columns(line, begin, limit, spec.ctype) : 0;
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
