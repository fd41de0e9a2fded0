// SPDX-License-Identifier: GPL-2.0
#include "cmdline.h"
#include "ranges.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char *cmdline__next(const char *cmdline, const char *from, const char *key, size_t *len)
{
	size_t klen = strlen(key);

	for (const char *p = from; p && (p = strstr(p, key)); p += klen) {
		const char *v = p + klen;

		if ((p != cmdline && !isspace((unsigned char)p[-1])) || *v != '=')
			continue;
		v++;
		*len = strcspn(v, " \t\n");
		return v;
	}
	return NULL;
}

const char *cmdline__last(const char *cmdline, const char *key, size_t *len)
{
	const char *last = NULL, *v;
	size_t n;

	for (v = cmdline; (v = cmdline__next(cmdline, v, key, &n)); v += n) {
		last = v;
		*len = n;
	}
	return last;
}

/* A time as udev's parse_sec() reads the ones bootprobe writes: "3", "2.5s", "2500ms". */
static bool udev_seconds(const char *s, size_t len, double *out)
{
	char buf[32], unit[4] = "";
	double x;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (sscanf(buf, "%lf%3[a-z]", &x, unit) < 1)
		return false;
	if (!unit[0] || !strcmp(unit, "s"))
		*out = x;
	else if (!strcmp(unit, "ms"))
		*out = x / 1000;
	else
		return false;
	/* nan, 1e999 and -1 are no timeout: refused, never compared with. */
	return field_range__ok(FR_EVENT_TIMEOUT, *out);
}

/*
 * The last @key=VALUE that reads as seconds wins, as in udevd (it skips
 * the others); false if none.  A value that is no time in range
 * (field_ranges) is skipped and, if @refused, written there as KEY=VALUE.
 */
#define REFUSED_LEN sizeof(((struct boot_settings *)0)->refused)

static bool last_seconds(const char *cmdline, const char *key, double *out, char *refused)
{
	bool found = false;
	const char *v;
	size_t n;
	double x;

	for (v = cmdline; (v = cmdline__next(cmdline, v, key, &n)); v += n)
		if (udev_seconds(v, n, &x)) {
			*out = x;
			found = true;
		} else if (refused) {
			snprintf(refused, REFUSED_LEN, "%s=%.*s", key, n > 40 ? 40 : (int)n, v);
		}
	return found;
}

static void copy_value(char *dst, size_t size, const char *cmdline, const char *key)
{
	size_t n;
	const char *v = cmdline__last(cmdline, key, &n);

	snprintf(dst, size, "%.*s", v ? (int)n : 0, v ? v : "");
}

void boot_settings__from_cmdline(struct boot_settings *s, const char *cmdline)
{
	memset(s, 0, sizeof(*s));
	s->udev_event_timeout_s = UDEV_EVENT_TIMEOUT_DEFAULT_S;
	if (!cmdline)
		return;
	/* The kernel command line wins over udev.conf in udevd. */
	if (!last_seconds(cmdline, "udev.event_timeout", &s->udev_event_timeout_s, s->refused))
		last_seconds(cmdline, "bootprobe.udev_conf_event_timeout", &s->udev_event_timeout_s,
			     s->refused);
	copy_value(s->timeout_signal, sizeof(s->timeout_signal), cmdline, "udev.timeout_signal");
	copy_value(s->kill_policy, sizeof(s->kill_policy), cmdline, "kthread.sigkill_policy");
}
