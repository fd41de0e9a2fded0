// SPDX-License-Identifier: GPL-2.0
#include "sdanalyze.h"
#include "ranges.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The units systemd's format_timespan() writes, longest name first. */
static const struct {
	const char *name;
	double s;
} units[] = {
	{ "min", 60 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "\xc2\xb5s", 1e-6 },
	{ "h", 3600 }, { "d", 86400 }, { "s", 1 },
};

/* One "<number><unit>" token at @s; its seconds, the end in *end. */
static bool span_token(const char *s, double *out, const char **end)
{
	char *num_end;
	double v;

	if (!isdigit((unsigned char)*s))
		return false;
	v = strtod(s, &num_end);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].name);

		if (!strncmp(num_end, units[i].name, n) && !isalpha((unsigned char)num_end[n])) {
			/* "1e999s" or "nan" is no time: the token is refused. */
			if (!field_range__ok(FR_SD_TIMESPAN, v * units[i].s))
				return false;
			*out = v * units[i].s;
			*end = num_end + n;
			return true;
		}
	}
	return false;
}

bool sd_timespan__parse(const char *s, double *out, const char **end)
{
	double sum = 0, v;
	bool any = false;
	const char *p = s, *e;

	while (*p == ' ')
		p++;
	while (span_token(p, &v, &e)) {
		if (!field_range__ok(FR_SD_TIMESPAN, sum + v))
			return false;
		sum += v;
		any = true;
		p = e;
		if (*p == ' ' && isdigit((unsigned char)p[1]))
			p++;
	}
	if (any) {
		*out = sum;
		if (end)
			*end = p;
	}
	return any;
}

/* "2.1s (kernel)" pieces of the "Startup finished in" line. */
static void startup_parts(const char *p, struct sd_time *t)
{
	static const struct {
		const char *name;
		size_t off;
	} parts[] = {
		{ "(firmware)", offsetof(struct sd_time, firmware_s) },
		{ "(loader)", offsetof(struct sd_time, loader_s) },
		{ "(kernel)", offsetof(struct sd_time, kernel_s) },
		{ "(initrd)", offsetof(struct sd_time, initrd_s) },
		{ "(userspace)", offsetof(struct sd_time, userspace_s) },
	};
	const char *e;
	double v;

	while (*p && *p != '\n') {
		if (*p == '=' && sd_timespan__parse(p + 1, &v, &e)) {
			t->total_s = v;
			return;
		}
		if (!sd_timespan__parse(p, &v, &e)) {
			p++;
			continue;
		}
		while (*e == ' ')
			e++;
		for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
			if (!strncmp(e, parts[i].name, strlen(parts[i].name)))
				*(double *)((char *)t + parts[i].off) = v;
		p = e;
	}
}

static void target_line(const char *p, struct sd_time *t)
{
	const char *sp = strchr(p, ' '), *e;
	size_t n = sp ? (size_t)(sp - p) : 0;
	double v;

	if (!n || n >= sizeof(t->target) || strncmp(sp, " reached after ", 15))
		return;
	if (!sd_timespan__parse(sp + 15, &v, &e) || strncmp(e, " in userspace", 13))
		return;
	memcpy(t->target, p, n);
	t->target[n] = '\0';
	t->target_s = v;
}

bool sd_time__parse(const char *text, struct sd_time *t)
{
	const char *p;

	memset(t, 0, sizeof(*t));
	t->firmware_s = t->loader_s = t->kernel_s = t->initrd_s = NAN;
	t->userspace_s = t->total_s = t->target_s = NAN;
	if (!text || !(p = strstr(text, "Startup finished in ")))
		return false;
	startup_parts(p + 20, t);
	for (p = strchr(p, '\n'); p; p = strchr(p, '\n'))
		target_line(++p, t);
	return true;
}

double sd_blame__unit(const char *text, const char *unit)
{
	size_t n = strlen(unit);
	const char *line, *e;
	double v;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (!sd_timespan__parse(line, &v, &e) || *e != ' ')
			continue;
		while (*e == ' ')
			e++;
		if (!strncmp(e, unit, n) && (e[n] == '\n' || e[n] == '\0' || e[n] == ' '))
			return v;
	}
	return NAN;
}

bool sd_device_unit(const char *kind, const char *name, char *buf, size_t len)
{
	int n;

	/* Plain names only: systemd escapes '-', '/' and the rest as \xNN. */
	if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			     "0123456789_") != strlen(name))
		return false;
	n = snprintf(buf, len, "%s%s.device",
		     strcmp(kind, "net") ? "dev-" : "sys-subsystem-net-devices-", name);
	return n > 0 && (size_t)n < len;
}

/*
 * One line of the critical chain: its tree drawing (spaces, "│", "└─",
 * "├─"), the unit's name, " @" a time span, and " +" a time span or not.
 */
static bool chain_line(const char *line, size_t len, struct sd_chain_unit *u)
{
	const char *p = line, *end = line + len, *e;
	size_t col = 0, n;

	/* The drawing: a space or one byte of "│", "├", "└", "─" (UTF-8) is one step. */
	while (p < end && (*p == ' ' || (unsigned char)*p >= 0x80)) {
		if (*p == ' ' || ((unsigned char)*p & 0xc0) != 0x80)
			col++;
		p++;
	}
	n = strcspn(p, " \n");
	if (!n || n >= sizeof(u->unit) || p + n >= end || strncmp(p + n, " @", 2))
		return false;
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x21 || p[i] > 0x7e)
			return false;
	memcpy(u->unit, p, n);
	u->unit[n] = '\0';
	if (!sd_timespan__parse(p + n + 2, &u->at_s, &e) || e > end)
		return false;
	u->took_s = NAN;
	if (e + 2 < end && !strncmp(e, " +", 2) && !sd_timespan__parse(e + 2, &u->took_s, &e))
		u->took_s = NAN;
	/* Each level of the tree is two columns in: "└─" under the unit above. */
	u->depth = (int)(col / 2);
	return true;
}

int sd_chain__parse(const char *text, struct sd_chain_unit *out, int max)
{
	int n = 0;

	for (const char *line = text; line && *line && n < max;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (chain_line(line, len, &out[n]))
			n++;
		line = nl ? nl + 1 : NULL;
	}
	return n;
}
