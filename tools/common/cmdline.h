/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one scanner of a kernel command line, and what the guest takes from
 * it.  A KEY=VALUE word starts the line or follows whitespace; of several,
 * the last one wins (the kernel's parse_args() and udevd read them in
 * order, each overriding the one before).
 */
#ifndef BOOTPROBE_CMDLINE_H
#define BOOTPROBE_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The value of the first KEY=VALUE word of @cmdline at or after @from (a
 * pointer into @cmdline): @len bytes, up to the next whitespace; NULL if none.
 */
const char *cmdline__next(const char *cmdline, const char *from, const char *key, size_t *len);
/* The value of the last KEY=VALUE word, or NULL. */
const char *cmdline__last(const char *cmdline, const char *key, size_t *len);
/* Whether a KEY=VALUE word is there. */
static inline bool cmdline__has(const char *cmdline, const char *key)
{
	size_t len;

	return cmdline__next(cmdline, cmdline, key, &len) != NULL;
}

/* udevd's default event timeout (udev 252). */
#define UDEV_EVENT_TIMEOUT_DEFAULT_S 180.0

/*
 * From systemd 256 (b16c6076cb33, docs/debian.md "When systemd-udevd kills")
 * udevd kills a worker at its event timeout plus an extra time,
 * $SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC (parse_sec()), 10 s unless set; a value
 * it cannot parse or over 5 hours leaves the 10 s.  Up to 255 it kills at
 * the timeout.
 */
#define UDEV_EXTRA_TIMEOUT_SINCE	256
#define UDEV_EXTRA_TIMEOUT_DEFAULT_S	10.0
#define UDEV_EXTRA_TIMEOUT_MAX_S	(5 * 3600.0)

/*
 * What a boot ran with, as the guest reads its command line:
 *   udev_event_timeout_s  udev.event_timeout= (the last one udevd can read), else
 *                         bootprobe.udev_conf_event_timeout= (/init writes it
 *                         into udev.conf), else udevd's default
 *   timeout_signal        udev.timeout_signal=, "" for udevd's default (SIGKILL)
 *   kill_policy           kthread.sigkill_policy=, "" for the kernel's default
 *   udev_extra_timeout_s  udevd 256's extra time: the last
 *                         systemd.setenv=SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=N (PID 1
 *                         keeps the last assignment of a variable and hands it
 *                         to udevd), else 10 s; one udevd ignores leaves 10 s
 */
struct boot_settings {
	double udev_event_timeout_s;
	char refused[64];	/* the last KEY=VALUE refused as no time in range, or "" */
	double udev_extra_timeout_s;
	char extra_set[64];	/* the systemd.setenv= value that set it, or "" */
	bool extra_ignored;	/* udevd ignores extra_set (no time, over 5 h): 10 s */
	char timeout_signal[16];
	char kill_policy[32];
};

void boot_settings__from_cmdline(struct boot_settings *s, const char *cmdline);
/*
 * A udev time as systemd's parse_sec() reads it ("3", "2.5s", "1min30s"):
 * @len bytes of @s into seconds; false where parse_sec() fails or for
 * "infinity".
 */
bool udev_parse_sec(const char *s, size_t len, double *out);

#endif
