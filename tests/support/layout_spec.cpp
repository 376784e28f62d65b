#include "tests/support/layout_spec.h"

namespace gsort_test {

namespace {

RefKind ref_kind_of(gsort::KeyKind kind) {
  switch (kind) {
    case gsort::KeyKind::kBytes: return RefKind::kBytes;
    case gsort::KeyKind::kUnsigned: return RefKind::kUnsigned;
    case gsort::KeyKind::kSigned: return RefKind::kSigned;
    case gsort::KeyKind::kFloat: return RefKind::kFloat;
  }
  return RefKind::kBytes;
}

}  // namespace

RefSpec ref_spec_of(const gsort::KeyLayout& layout) {
  RefSpec spec;
  spec.record_size = layout.record_size();
  for (const gsort::KeyField& f : layout.fields()) {
    spec.keys.push_back(RefKey{f.offset, f.length, ref_kind_of(f.kind), f.big_endian, f.descending});
  }
  return spec;
}

}  // namespace gsort_test
