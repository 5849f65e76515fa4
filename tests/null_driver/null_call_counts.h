// How many times each null-driver entry point was called, for measuring
// which driver calls a cuhost path makes (a launch, a first cached call):
// on a real GPU each one costs driver time the null driver does not show.
// Every entry point counts through Recorded<fn>::call (null_failures.h);
// scripts read the counts through ctypes: cuhostNullCallCounts() (one
// "cuXxx N" line per entry point called, in the order of first calls) and
// cuhostNullClearCallCounts().
#pragma once

#include <atomic>

namespace null_driver {

// Registers an entry point's counter (once, at its first call).
bool register_call_counter(const void* entry, std::atomic<long>* counter);

}  // namespace null_driver
