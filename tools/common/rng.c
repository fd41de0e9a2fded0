// SPDX-License-Identifier: GPL-2.0
#include "rng.h"

#define SPLITMIX64_GAMMA 0x9e3779b97f4a7c15ull

uint64_t rng__mix(uint64_t x)
{
	x += SPLITMIX64_GAMMA;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

uint64_t rng__next(uint64_t *state)
{
	uint64_t x = *state;

	*state += SPLITMIX64_GAMMA;
	return rng__mix(x);
}
