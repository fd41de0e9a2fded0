// SPDX-License-Identifier: GPL-2.0
#include "cmdline.h"
#include "ranges.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
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

/*
 * systemd's parse_sec() (src/basic/time-util.c, parse_time() and
 * extract_multiplier() in 257.13; the same in 252): "3", "2.5s", "2500ms",
 * "1min30s", "infinity"; a number with no unit is seconds.  @len bytes of
 * @s into microseconds; false where parse_sec() fails.
 */
#define USEC_INFINITY_ UINT64_MAX
static const struct { const char *suffix; uint64_t usec; } sec_units[] = {
	{ "seconds", 1000000ULL }, { "second", 1000000ULL }, { "sec", 1000000ULL },
	{ "s", 1000000ULL }, { "minutes", 60000000ULL }, { "minute", 60000000ULL },
	{ "min", 60000000ULL }, { "months", 2629800000000ULL }, { "month", 2629800000000ULL },
	{ "M", 2629800000000ULL }, { "msec", 1000ULL }, { "ms", 1000ULL }, { "m", 60000000ULL },
	{ "hours", 3600000000ULL }, { "hour", 3600000000ULL }, { "hr", 3600000000ULL },
	{ "h", 3600000000ULL }, { "days", 86400000000ULL }, { "day", 86400000000ULL },
	{ "d", 86400000000ULL }, { "weeks", 604800000000ULL }, { "week", 604800000000ULL },
	{ "w", 604800000000ULL }, { "years", 31557600000000ULL }, { "year", 31557600000000ULL },
	{ "y", 31557600000000ULL }, { "usec", 1 }, { "us", 1 },
	{ "\xce\xbcs", 1 }, { "\xc2\xb5s", 1 },
};

static const char *sec_unit(const char *p, uint64_t *mult)
{
	for (size_t i = 0; i < sizeof(sec_units) / sizeof(sec_units[0]); i++)
		if (!strncmp(p, sec_units[i].suffix, strlen(sec_units[i].suffix))) {
			*mult = sec_units[i].usec;
			return p + strlen(sec_units[i].suffix);
		}
	return p;
}

static bool parse_sec_usec(const char *s, size_t len, uint64_t *out)
{
	char buf[64];
	const char *p = buf, *u;
	uint64_t usec = 0, mult, k;
	bool something = false;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	p += strspn(p, " \t\n\r");
	if (!strncmp(p, "infinity", 8)) {
		u = p + 8 + strspn(p + 8, " \t\n\r");
		if (*u)
			return false;
		*out = USEC_INFINITY_;
		return true;
	}
	for (;;) {
		char *e;
		long long l;

		p += strspn(p, " \t\n\r");
		if (!*p)
			break;
		if (*p == '-')
			return false;
		errno = 0;
		l = strtoll(p, &e, 10);
		/* ".5" is a fraction alone: strtoll() read nothing, parse_time() takes it */
		if (errno || l < 0 || (e == p && *e != '.'))
			return false;
		p = *e == '.' ? e + 1 + strspn(e + 1, "0123456789") : e;
		mult = 1000000ULL;
		u = sec_unit(p + strspn(p, " \t\n\r"), &mult);
		if (u == p && *u)
			return false;
		p = u;
		if ((uint64_t)l >= USEC_INFINITY_ / mult)
			return false;
		k = (uint64_t)l * mult;
		if (k >= USEC_INFINITY_ - usec)
			return false;
		usec += k;
		something = true;
		if (*e == '.') {
			const char *d = e + 1;

			for (uint64_t m = mult / 10; *d >= '0' && *d <= '9'; d++, m /= 10)
				usec += (uint64_t)(*d - '0') * m;
			if (d == e + 1)
				return false;
		}
	}
	if (!something)
		return false;
	*out = usec;
	return true;
}

bool udev_parse_sec(const char *s, size_t len, double *out)
{
	uint64_t usec;

	if (!parse_sec_usec(s, len, &usec) || usec == USEC_INFINITY_)
		return false;
	*out = usec / 1e6;
	return true;
}

/* A udev time (parse_sec()) within field_ranges, in seconds. */
static bool udev_seconds(const char *s, size_t len, double *out)
{
	/* 1e999, -1 and nan are no time: refused, never compared with. */
	return udev_parse_sec(s, len, out) && field_range__ok(FR_EVENT_TIMEOUT, *out);
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

/*
 * udevd 256's extra time: PID 1 takes each systemd.setenv=NAME=VALUE in
 * order, the last one of a name replacing the others (src/core/main.c,
 * parse_proc_cmdline_item(); rd.systemd.setenv= is no such word), and
 * udevd reads $SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC with parse_sec(), ignoring a
 * value it cannot parse or over 5 hours (udev-manager.c:326-352 in 257.13).
 */
static void extra_timeout(struct boot_settings *s, const char *cmdline)
{
	static const char name[] = "SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=";
	const char *v, *last = NULL;
	size_t n, last_n = 0;
	double x;

	for (v = cmdline; (v = cmdline__next(cmdline, v, "systemd.setenv", &n)); v += n)
		if (n >= sizeof(name) - 1 && !strncmp(v, name, sizeof(name) - 1)) {
			last = v + sizeof(name) - 1;
			last_n = n - (sizeof(name) - 1);
		}
	if (!last)
		return;
	snprintf(s->extra_set, sizeof(s->extra_set), "%.*s", last_n > 40 ? 40 : (int)last_n, last);
	if (udev_parse_sec(last, last_n, &x) && x <= UDEV_EXTRA_TIMEOUT_MAX_S)
		s->udev_extra_timeout_s = x;
	else
		s->extra_ignored = true;
}

void boot_settings__from_cmdline(struct boot_settings *s, const char *cmdline)
{
	memset(s, 0, sizeof(*s));
	s->udev_event_timeout_s = UDEV_EVENT_TIMEOUT_DEFAULT_S;
	s->udev_extra_timeout_s = UDEV_EXTRA_TIMEOUT_DEFAULT_S;
	if (!cmdline)
		return;
	/* The kernel command line wins over udev.conf in udevd. */
	if (!last_seconds(cmdline, "udev.event_timeout", &s->udev_event_timeout_s, s->refused))
		last_seconds(cmdline, "bootprobe.udev_conf_event_timeout", &s->udev_event_timeout_s,
			     s->refused);
	copy_value(s->timeout_signal, sizeof(s->timeout_signal), cmdline, "udev.timeout_signal");
	copy_value(s->kill_policy, sizeof(s->kill_policy), cmdline, "kthread.sigkill_policy");
	extra_timeout(s, cmdline);
}
