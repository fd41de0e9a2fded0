/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The clocks the tools read, in ns: one definition for the host tools and
 * the guest's (header-only, so that the static guest binaries need no
 * library for it).
 */
#ifndef BOOTPROBE_CLOCK_H
#define BOOTPROBE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Since boot, suspend included: bpf_ktime_get_boot_ns(), trace_clock=boot. */
static inline uint64_t boot_ns(void)
{
	return clock_ns(CLOCK_BOOTTIME);
}

/* For intervals on this machine. */
static inline uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

#endif
