#include "src/gen/key_field_writer.h"

#include <cstring>

#include "src/gen/field_bytes.h"

namespace gsort::gen {

KeyFieldWriter::KeyFieldWriter(std::vector<KeyField> fields, bool stored_order)
    : fields_(std::move(fields)), stored_order_(stored_order) {}

void KeyFieldWriter::write(const uint8_t* digits, uint8_t* record) const {
  for (const KeyField& f : fields_) {
    uint8_t* out = record + f.offset;
    if (stored_order_) {
      std::memcpy(out, digits, f.length);
    } else if (f.kind == KeyKind::kBytes) {
      const uint8_t flip = f.descending ? 0xFF : 0x00;
      for (uint32_t i = 0; i < f.length; ++i) out[i] = digits[i] ^ flip;
    } else {
      uint64_t n = 0;
      for (uint32_t i = 0; i < f.length; ++i) n = (n << 8) | digits[i];
      store_number(f, denormalised_number(f, n), record);
    }
    digits += f.length;
  }
}

}  // namespace gsort::gen
