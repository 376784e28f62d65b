// Float key values that sorting code tends to get wrong: NaNs of both signs
// and several payloads, ±inf, ±0.0, subnormals and the extremes.
#pragma once

#include <cstdint>

#include "src/gen/prng.h"
#include "src/keys/key_field.h"

namespace gsort::gen {

// About one call in 16 replaces the float field's value with a special
// one; each call draws one random word from `rng`.
void maybe_store_float_special(const KeyField& f, uint8_t* record, Xoshiro256ss& rng);

// Turns an infinity or NaN bit pattern in the field into a finite number
// (for --float-specials=off).
void make_float_finite(const KeyField& f, uint8_t* record);

}  // namespace gsort::gen
