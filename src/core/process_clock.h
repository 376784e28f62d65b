// One clock for the whole run: seconds since gsort started (main() reads it
// first), so that phases timed on any thread land on one timeline (-v,
// --stats, --trace).
#pragma once

namespace gsort {

// Seconds since the first call; main() makes the first call at its top.
double process_seconds();

// How long the process had run when process_seconds() was first called
// (the loader and static initialisers before main), from /proc to the
// kernel's clock tick (10 ms); negative where /proc cannot tell.
double seconds_before_main();

}  // namespace gsort
