#include "src/verify/ledger.h"

#include "io/file/checksum.h"
#include "src/core/errors.h"

namespace gsort {

void VerifyLedger::input(uint64_t units, uint64_t hash_sum) {
  in_units_.fetch_add(units);
  in_sum_.fetch_add(hash_sum);
}

void VerifyLedger::written(uint64_t units, uint64_t hash_sum) {
  out_units_.fetch_add(units);
  out_sum_.fetch_add(hash_sum);
}

void VerifyLedger::dropped(uint64_t units, uint64_t hash_sum) {
  drop_units_.fetch_add(units);
  drop_sum_.fetch_add(hash_sum);
}

void VerifyLedger::disorder(uint64_t number) {
  uint64_t seen = first_disorder_.load();
  while ((seen == 0 || number < seen) && !first_disorder_.compare_exchange_weak(seen, number)) {
  }
}

std::string VerifyLedger::units(uint64_t n) const { return std::to_string(n) + " " + unit_ + (n == 1 ? "" : "s"); }

void VerifyLedger::throw_disorder(uint64_t number) const {
  throw DataError("verification failed: output " + std::string(unit_) + " " + std::to_string(number) +
                  (strict_ ? " does not sort after" : " sorts before") + " the one above it");
}

void VerifyLedger::finish() const {
  if (const uint64_t at = first_disorder_.load()) throw_disorder(at);
  const uint64_t in = in_units_.load(), out = out_units_.load(), dropped = drop_units_.load();
  if (out + dropped != in) {
    std::string msg = "verification failed: " + units(in) + " read but " + std::to_string(out) + " written";
    if (dropped > 0) msg += " and " + std::to_string(dropped) + " dropped by -u";
    throw DataError(msg);
  }
  const uint64_t sum = out_sum_.load() + drop_sum_.load();
  if (sum != in_sum_.load()) {
    throw DataError("verification failed: the " + std::string(unit_) + "s written differ from the " + unit_ +
                    "s read (checksum " + checksum_hex(sum) + ", expected " + checksum_hex(in_sum_.load()) + ")");
  }
}

}  // namespace gsort
