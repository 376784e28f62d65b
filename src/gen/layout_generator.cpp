#include "src/gen/layout_generator.h"

#include "src/gen/field_bytes.h"
#include "src/gen/float_specials.h"

namespace gsort::gen {
namespace {

std::vector<KeyField> key_fields(const GenOptions& o) {
  if (!o.keys.empty()) return o.keys;
  KeyField whole;
  whole.length = o.record_size;
  return {whole};
}

uint32_t key_width(const std::vector<KeyField>& fields) {
  uint32_t width = 0;
  for (const KeyField& f : fields) width += f.length;
  return width;
}

KeyDigitsParams key_params(const GenOptions& o, uint32_t width) {
  KeyDigitsParams p;
  p.distribution = o.distribution;
  p.width = width;
  p.radix = 256;
  p.records = o.records;
  p.distinct = o.distinct;
  p.seed = o.seed;
  return p;
}

// The first offset of 8 bytes that no key field covers.
std::optional<uint32_t> free_word_offset(const std::vector<KeyField>& fields, uint32_t record_size) {
  std::vector<bool> covered(record_size, false);
  for (const KeyField& f : fields) {
    for (uint32_t i = 0; i < f.length; ++i) covered[f.offset + i] = true;
  }
  uint32_t run = 0;
  for (uint32_t i = 0; i < record_size; ++i) {
    run = covered[i] ? 0 : run + 1;
    if (run == 8) return i - 7;
  }
  return std::nullopt;
}

bool has_float_field(const std::vector<KeyField>& fields) {
  for (const KeyField& f : fields) {
    if (f.kind == KeyKind::kFloat) return true;
  }
  return false;
}

}  // namespace

LayoutGenerator::LayoutGenerator(const GenOptions& o)
    : record_size_(o.record_size),
      fields_(key_fields(o)),
      keys_(key_params(o, key_width(fields_))),
      writer_(fields_, keys_.stored_order()),
      digits_(key_width(fields_)),
      row_number_offset_(free_word_offset(fields_, o.record_size)),
      shape_floats_(o.distribution == Distribution::kUniform && has_float_field(fields_)),
      float_specials_(o.float_specials),
      filler_rng_(o.seed, Stream::kFiller),
      specials_rng_(o.seed, Stream::kFloatSpecials) {}

void LayoutGenerator::generate(uint8_t* out, size_t count) {
  filler_rng_.fill(out, count * record_size_);
  for (size_t i = 0; i < count; ++i, ++row_) {
    uint8_t* record = out + i * record_size_;
    keys_.next(row_, digits_.data());
    writer_.write(digits_.data(), record);
    if (shape_floats_) shape_floats(record);
    if (row_number_offset_) {
      KeyField word;
      word.offset = *row_number_offset_;
      word.length = 8;
      word.big_endian = true;
      store_number(word, row_, record);
    }
  }
}

void LayoutGenerator::shape_floats(uint8_t* record) {
  for (const KeyField& f : fields_) {
    if (f.kind != KeyKind::kFloat) continue;
    if (float_specials_) {
      maybe_store_float_special(f, record, specials_rng_);
    } else {
      make_float_finite(f, record);
    }
  }
}

}  // namespace gsort::gen
