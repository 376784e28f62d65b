// What every rank must have alike before any record moves, as a canonical
// list of fields: the options that change the output or the ranks' common
// steps, the output, and each input's identity (option_fields.h makes the
// list). Ranks that differ in any of them would write a mix of different
// inputs, or wait in a collective that another rank never enters; so each
// rank compares its list with rank 0's (rank_agreement.h), and the first
// field that differs is named.
#pragma once

#include <string>
#include <vector>

namespace gsort {

struct SharedField {
  std::string subject;  // as messages name it: "option --unique", "input 'in.dat'"
  std::string aspect;   // which of its properties: "size"; empty where the value is the whole of it
  std::string value;    // canonical text, compared byte for byte
  std::string note;     // said after a difference, never compared (how to make them alike)
};
using SharedFields = std::vector<SharedField>;

// Subjects, aspects and values, each length-prefixed: any bytes round-trip.
std::string encode_fields(const SharedFields& fields);
// What encode_fields made; a malformed tail is dropped (it then differs).
SharedFields decode_fields(const std::string& text);

// The line naming the first field of `mine` that differs from rank 0's,
// "input 'in.dat' differs from rank 0's (size 4000000 against 10000000)",
// or an empty string where all are alike.
std::string first_difference(const SharedFields& mine, const SharedFields& rank0s);

}  // namespace gsort
