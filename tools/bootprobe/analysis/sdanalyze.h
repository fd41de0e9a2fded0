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

/* A systemd time span ("1min 2.345s", "345ms", "2.1s"), in seconds; false if none. */
bool sd_timespan__parse(const char *s, double *out, const char **end);

#endif
