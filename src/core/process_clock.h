// One clock for the whole run: seconds since gsort started (main() reads it
// first), so that phases timed on any thread land on one timeline (-v,
// --stats, --trace).
#pragma once

namespace gsort {

// Seconds since the first call; main() makes the first call at its top.
double process_seconds();

}  // namespace gsort
