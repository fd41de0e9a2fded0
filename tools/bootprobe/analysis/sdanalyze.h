/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What systemd-analyze said about a boot, read back from the text the guest
 * sent (the attachment systemd-analyze-time.txt): the one reader of it.
 */
#ifndef BOOTPROBE_SDANALYZE_H
#define BOOTPROBE_SDANALYZE_H

#include <stdbool.h>
#include <stddef.h>

#define SD_ANALYZE_TIME "systemd-analyze-time.txt"
#define SD_ANALYZE_BLAME "systemd-analyze-blame.txt"
#define SD_ANALYZE_CHAIN "systemd-analyze-critical-chain.txt"

/* Seconds; NAN for a part systemd-analyze did not print. */
struct sd_time {
	double firmware_s, loader_s, kernel_s, initrd_s, userspace_s, total_s;
	double target_s;	/* "<target> reached after N in userspace" */
	char target[64];
};

/*
 * Parse `systemd-analyze time` output ("Startup finished in 2.1s (kernel) +
 * 5.2s (initrd) + 12.3s (userspace) = 19.6s" and the target line).
 * false, with every field NAN, if @text has no "Startup finished" line.
 */
bool sd_time__parse(const char *text, struct sd_time *t);

/*
 * The time `systemd-analyze blame` gives @unit ("7.752s dev-vda.device"),
 * in seconds; NAN if @text does not list it.
 */
double sd_blame__unit(const char *text, const char *unit);

/*
 * The device unit systemd names after a disk ("vda" -> "dev-vda.device")
 * or an interface ("eth0" -> "sys-subsystem-net-devices-eth0.device"), into
 * @buf; false if the name needs systemd's escaping (it is then not looked up).
 */
bool sd_device_unit(const char *kind, const char *name, char *buf, size_t len);

/* One unit of `systemd-analyze critical-chain`'s tree. */
struct sd_chain_unit {
	char unit[128];		/* printable ASCII only: a line with anything else is skipped */
	int depth;		/* 0 the target at the top, 1 what it waited on, ... */
	double at_s;		/* "@N": when it became active, seconds after userspace started */
	double took_s;		/* "+N": how long it took to start; NAN when not printed */
};

/*
 * Parse `systemd-analyze critical-chain` output ("multi-user.target @16.1s",
 * "└─dev-vda.device @9.2s", "  └─foo.service @1.2s +345ms"): every unit
 * line in order, at most @max into @out; lines that are no unit line (the
 * two lines of explanation, anything damaged) are skipped.  How many.
 */
int sd_chain__parse(const char *text, struct sd_chain_unit *out, int max);

/* A systemd time span ("1min 2.345s", "345ms", "2.1s"), in seconds; false if none. */
bool sd_timespan__parse(const char *s, double *out, const char **end);

#endif
