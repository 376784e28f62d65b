// What every rank of a sort of lines must share beyond the records'
// options (ranks/option_fields.h): the keys and every option that orders
// lines, and the locale's categories that a sort of lines reads, since
// ranks that order lines differently would write a wrong output.
#pragma once

#include "src/config/sort_config.h"
#include "src/distributed/ranks/shared_fields.h"

namespace gsort {

SharedFields line_option_fields(const SortConfig& config);

}  // namespace gsort
