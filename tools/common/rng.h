/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one random generator: splitmix64, small and portable, the same draws
 * on every host (bootstrap resamples, chart jitter, a scenario's seeded
 * probe times).
 */
#ifndef BOOTPROBE_RNG_H
#define BOOTPROBE_RNG_H

#include <stdint.h>

/* splitmix64's output for @x: a well-mixed 64-bit function of it. */
uint64_t rng__mix(uint64_t x);
/* The next draw of the sequence whose state is @state. */
uint64_t rng__next(uint64_t *state);

#endif
