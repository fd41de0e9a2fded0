// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "scenario.h"
#include "cmdline.h"
#include "rng.h"
#include "qemu.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scenario__init(struct scenario *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->name = xstrdup("adhoc");
	sc->cmdline = xstrdup("");
	sc->time_scale = 1.0;
	sc->nthreads = -1;
	sc->fw_wait_ms = -1;
	sc->image_name = "lab";
}

bool jobs__parse(const char *s, long *jobs)
{
	if (!strcmp(s, "auto")) {
		*jobs = JOBS_AUTO;
		return true;
	}
	return parse_long(s, 1, MAX_JOBS, jobs);
}

static const struct guest_image_info guest_images[] = {
	{ "lab", IMAGE_LAB, NULL, "our patched 6.1 kernel, busybox /init" },
	{ "debian", IMAGE_DEBIAN, "build/debian", "Debian 12, kernel 6.1" },
	{ "debian-12", IMAGE_DEBIAN, "build/debian", "Debian 12, kernel 6.1" },
	{ "debian-13", IMAGE_DEBIAN, "build/debian-13", "Debian 13, kernel 6.12" },
	{ "debian-13-bpo", IMAGE_DEBIAN, "build/debian-13-bpo",
	  "Debian 13, trixie-backports kernel 7.x" },
	{ "debian-13-dracut", IMAGE_DEBIAN, "build/debian-13-dracut",
	  "Debian 13, kernel 6.12, initrd by dracut" },
	{ "debian-sid", IMAGE_DEBIAN, "build/debian-sid", "Debian sid" },
};

const struct guest_image_info *guest_image__find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(guest_images) / sizeof(*guest_images); i++)
		if (!strcmp(guest_images[i].name, name))
			return &guest_images[i];
	return NULL;
}

const char *mode__image(const struct scenario *sc, const struct mode *m)
{
	return m->image_name ? m->image_name : sc->image_name;
}

const char *guest_image__names(void)
{
	return "lab, debian (= debian-12), debian-13, debian-13-bpo, debian-13-dracut, debian-sid";
}

static void mode__free(struct mode *m)
{
	free(m->name);
	free(m->cmdline);
	free(m->timeout_signal);
	free(m->kill_policy);
}

void scenario__free(struct scenario *sc)
{
	for (int i = 0; i < sc->nr_modes; i++)
		mode__free(&sc->modes[i]);
	free(sc->name);
	free(sc->path);
	free(sc->cmdline);
	free(sc->driver);
	free(sc->baseline);
	free(sc->controller);
	for (int i = 0; i < sc->nr_qemu_devices; i++)
		free(sc->qemu_devices[i]);
	memset(sc, 0, sizeof(*sc));
}

bool name_is_valid(const char *name)
{
	if (!*name || strlen(name) > 64)
		return false;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_.-", *c))
			return false;
	return name[0] != '.';
}

static void seterr(char *err, int errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* The offset of the first control byte (tab, newline, escape, DEL), or -1. */
static long control_byte(const char *args)
{
	for (const char *p = args; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return p - args;
	return -1;
}

/*
 * The offset of a double quote that is never closed, or -1.  The kernel
 * (next_arg() in lib/cmdline.c) reads from a quote to the next one as one
 * argument, spaces included: an open quote swallows what follows it.
 */
static long unclosed_quote(const char *args)
{
	long open = -1;

	for (const char *p = args; *p; p++)
		if (*p == '"')
			open = open < 0 ? p - args : -1;
	return open;
}

size_t kernel_cmdline__over(size_t len)
{
	return len < KERNEL_CMDLINE_SIZE ? 0 : len - (KERNEL_CMDLINE_SIZE - 1);
}

/* The length of the kernel command line @args make after the fixed arguments. */
static size_t kernel_cmdline_len(const char *args, bool realistic)
{
	return strlen(kernel_fixed_args(realistic)) + (*args ? 1 + strlen(args) : 0);
}

int kernel_args__check(const char *args, char *why, int whylen)
{
	size_t len = kernel_cmdline_len(args, false);
	long at = control_byte(args);

	if (at >= 0) {
		seterr(why, whylen, "control byte 0x%02x at byte %ld: kernel arguments are printable text",
		       (unsigned char)args[at], at + 1);
		return -1;
	}
	at = unclosed_quote(args);
	if (at >= 0) {
		seterr(why, whylen, "unbalanced double quote at byte %ld: the kernel would read the "
		       "rest of its command line as one argument", at + 1);
		return -1;
	}
	if (kernel_cmdline__over(len)) {
		seterr(why, whylen, "makes the kernel command line %zu bytes, %zu over "
		       KERNEL_CMDLINE_LIMIT, len, kernel_cmdline__over(len));
		return -1;
	}
	return 0;
}

/* A cmdline key: kernel arguments that pass kernel_args__check(). */
static int set_cmdline(char **dst, const char *key, const char *val, char *err, int errlen)
{
	char why[256];

	if (kernel_args__check(val, why, sizeof(why))) {
		seterr(err, errlen, "%s: %s", key, why);
		return -1;
	}
	free(*dst);
	*dst = xstrdup(val);
	return 0;
}

static struct mode *scenario__find_mode(struct scenario *sc, const char *name)
{
	for (int i = 0; i < sc->nr_modes; i++)
		if (!strcmp(sc->modes[i].name, name))
			return &sc->modes[i];
	return NULL;
}

static struct mode *scenario__new_mode(struct scenario *sc, const char *name,
				       char *err, int errlen)
{
	struct mode *m;

	if (!name_is_valid(name)) {
		seterr(err, errlen, "mode '%s': invalid name (use letters, digits, '_', '.', '-')", name);
		return NULL;
	}
	if (scenario__find_mode(sc, name)) {
		seterr(err, errlen, "mode '%s' is defined twice", name);
		return NULL;
	}
	if (sc->nr_modes == MAX_MODES) {
		seterr(err, errlen, "mode '%s': too many modes (at most %d)", name, MAX_MODES);
		return NULL;
	}
	m = &sc->modes[sc->nr_modes++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->cmdline = xstrdup("");
	m->devices = -1;
	return m;
}

/* Built-in modes: what a distribution engineer compares first. */
static const struct {
	const char *name;
	const char *cmdline;
} builtin_modes[] = {
	{ "sync", "" },
	{ "async", "driver_async_probe=*" },
	{ "async-module", "module.async_probe=1" },
};

int scenario__add_mode_spec(struct scenario *sc, const char *spec, char *err, int errlen)
{
	const char *colon = strchr(spec, ':');
	struct mode *m;
	char *name;

	if (colon) {
		char why[256];

		name = strndup(spec, colon - spec);
		m = NULL;
		if (kernel_args__check(colon + 1, why, sizeof(why)))
			seterr(err, errlen, "mode '%s': %s", name, why);
		else
			m = scenario__new_mode(sc, name, err, errlen);
		free(name);
		if (!m)
			return -1;
		free(m->cmdline);
		m->cmdline = xstrdup(colon + 1);
		return 0;
	}
	for (size_t i = 0; i < sizeof(builtin_modes) / sizeof(builtin_modes[0]); i++) {
		if (strcmp(spec, builtin_modes[i].name))
			continue;
		m = scenario__new_mode(sc, spec, err, errlen);
		if (!m)
			return -1;
		free(m->cmdline);
		m->cmdline = xstrdup(builtin_modes[i].cmdline);
		return 0;
	}
	seterr(err, errlen, "mode '%s': not a built-in mode (sync, async, async-module); "
	       "define one as NAME:KERNEL-ARGS", spec);
	return -1;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static bool valid_signal(const char *s)
{
	static const char *const names[] = {
		"SIGKILL", "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGABRT",
		"SIGUSR1", "SIGUSR2", NULL,
	};

	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return true;
	return false;
}

static int set_kill_policy(struct mode *m, const char *val, char *err, int errlen)
{
	long ms = 0;

	if (strcmp(val, "killable") && strcmp(val, "unkillable") &&
	    (strncmp(val, "grace=", 6) || !parse_long(val + 6, 0, 3600000, &ms))) {
		seterr(err, errlen, "kill_policy '%s': want killable, unkillable or grace=<ms>", val);
		return -1;
	}
	free(m->kill_policy);
	m->kill_policy = strndup(val, strcspn(val, "="));
	m->grace_ms = ms;
	return 0;
}

static int set_probing(struct mode *m, const char *val, char *err, int errlen)
{
	static const char *const names[] = {
		[PROBING_DEFAULT] = "sync",
		[PROBING_ASYNC_PROBE] = "async-probe",
		[PROBING_DRIVER_ASYNC] = "driver-async-probe",
		[PROBING_MODULE_ASYNC] = "module-async-probe",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(val, names[i])) {
			m->probing = (enum probing)i;
			return 0;
		}
	}
	seterr(err, errlen, "probing '%s': want sync, async-probe (DRIVER.async_probe=1), "
	       "driver-async-probe (driver_async_probe=*) or module-async-probe "
	       "(module.async_probe=1)", val);
	return -1;
}

/* udev event timeouts: seconds (fraction allowed) up to a day. */
static int set_timeout(double *out, const char *key, const char *val, char *err, int errlen)
{
	if (!parse_seconds(val, out) || *out > 86400) {
		seterr(err, errlen, "%s '%s': want seconds > 0, at most 86400", key, val);
		return -1;
	}
	return 0;
}

/* One "key = value" line of a [mode NAME] section. */
static int mode__set(struct mode *m, const char *key, const char *val, int line,
		     char *err, int errlen)
{
	if (!strcmp(key, "cmdline")) {
		m->line_cmdline = line;
		return set_cmdline(&m->cmdline, key, val, err, errlen);
	} else if (!strcmp(key, "probing")) {
		return set_probing(m, val, err, errlen);
	} else if (!strcmp(key, "event_timeout")) {
		m->line_event_timeout = line;
		return set_timeout(&m->event_timeout, key, val, err, errlen);
	} else if (!strcmp(key, "udev_conf_event_timeout")) {
		return set_timeout(&m->conf_event_timeout, key, val, err, errlen);
	} else if (!strcmp(key, "rules_event_timeout")) {
		return set_timeout(&m->rules_event_timeout, key, val, err, errlen);
	} else if (!strcmp(key, "timeout_signal")) {
		if (!valid_signal(val)) {
			seterr(err, errlen, "timeout_signal '%s': want a signal name such as SIGKILL", val);
			return -1;
		}
		free(m->timeout_signal);
		m->timeout_signal = xstrdup(val);
	} else if (!strcmp(key, "kill_policy")) {
		return set_kill_policy(m, val, err, errlen);
	} else if (!strcmp(key, "image")) {
		const struct guest_image_info *gi = guest_image__find(val);

		if (!gi || gi->kind != IMAGE_DEBIAN) {
			seterr(err, errlen, "image '%s' in a mode: want a Debian image (%s); "
			       "the lab's is a scenario's alone", val, guest_image__names());
			return -1;
		}
		m->image_name = gi->name;
		m->line_image = line;
	} else if (!strcmp(key, "devices")) {
		m->line_devices = line;
		if (!parse_long(val, 0, MAX_DEVICES, &m->devices)) {
			seterr(err, errlen, "devices '%s': want 0..%d", val, MAX_DEVICES);
			return -1;
		}
	} else {
		seterr(err, errlen, "unknown key '%s' in a mode section (cmdline, probing, "
		       "event_timeout, udev_conf_event_timeout, rules_event_timeout, "
		       "timeout_signal, kill_policy, devices, image)", key);
		return -1;
	}
	return 0;
}

/* One number of a list; "end" (kthread_at_ms only) is -1. */
static bool parse_ms_item(const char *s, bool allow_end, long *out)
{
	if (allow_end && !strcmp(s, "end")) {
		*out = -1;
		return true;
	}
	return parse_long(s, 0, 3600000, out);
}

/* "12", "12.5", "0.25": digits with at most one point; false for anything else. */
static bool parse_decimal(const char *s, double *out)
{
	size_t digits = strspn(s, "0123456789"), frac = 0;

	if (s[digits] == '.')
		frac = strspn(s + digits + 1, "0123456789") + 1;
	if (!digits || s[digits + frac] || (frac == 1))
		return false;
	*out = strtod(s, NULL);
	return isfinite(*out);
}

/*
 * A per-device time: "N", "N,N,...", "uniform LOW HIGH" or "normal MEAN SD"
 * (ms, drawn per boot).  kthread_at_ms also takes "end".
 */
static int parse_timespec(struct timespec_ms *ts, const char *key, const char *val, int line,
			  char *err, int errlen)
{
	bool allow_end = !strcmp(key, "kthread_at_ms");
	char word[16], sa[32], sb[32];
	double a = 0, b = 0;
	int used = 0;

	memset(ts, 0, sizeof(*ts));
	ts->line = line;
	if (sscanf(val, "%15s %31s %31s %n", word, sa, sb, &used) == 3 && !val[used] &&
	    (!strcmp(word, "uniform") || !strcmp(word, "normal"))) {
		ts->kind = word[0] == 'u' ? TS_UNIFORM : TS_NORMAL;
		/* Plain decimals only: no nan, inf, hex or exponents reach a draw. */
		if (!parse_decimal(sa, &a) || !parse_decimal(sb, &b) || a > 3600000 ||
		    b > 3600000 || (ts->kind == TS_UNIFORM && b < a)) {
			seterr(err, errlen, "%s '%s': want %s, plain decimals from 0 to 3600000", key,
			       val, ts->kind == TS_UNIFORM ? "uniform LOW HIGH with LOW <= HIGH"
							   : "normal MEAN SD");
			return -1;
		}
		ts->a = a;
		ts->b = b;
		return 0;
	}
	ts->kind = TS_LIST;
	for (const char *p = val; ; ) {
		size_t n = strcspn(p, ",");
		char *item = strndup(p, n);
		char *t = trim(item);
		bool ok = ts->n < MAX_DEVICES && parse_ms_item(t, allow_end, &ts->v[ts->n]);

		free(item);
		if (!ok) {
			seterr(err, errlen, "%s '%s': want ms as N, a list N,N,... of at most %d%s, "
			       "'uniform LOW HIGH' or 'normal MEAN SD'", key, val, MAX_DEVICES,
			       allow_end ? " ('end' = at the end of the probe)" : "");
			return -1;
		}
		ts->n++;
		if (!p[n])
			break;
		p += n + 1;
	}
	return 0;
}

static int set_name(char **dst, const char *key, const char *val, char *err, int errlen)
{
	if (!name_is_valid(val)) {
		seterr(err, errlen, "%s '%s': use letters, digits, '_', '.', '-'", key, val);
		return -1;
	}
	free(*dst);
	*dst = xstrdup(val);
	return 0;
}

static int set_image(struct scenario *sc, const char *val, int line, char *err, int errlen)
{
	const struct guest_image_info *gi = guest_image__find(val);

	if (!gi) {
		seterr(err, errlen, "image '%s': want one of %s", val, guest_image__names());
		return -1;
	}
	sc->image = gi->kind;
	sc->image_name = gi->name;
	sc->line_image = line;
	return 0;
}

/* "megasas, pvscsi": QEMU models added to a Debian machine, each known. */
static int set_qemu_devices(struct scenario *sc, const char *val, int line, char *err,
			    int errlen)
{
	char *list = xstrdup(val), *save = NULL, *tok;
	int n = 0, ret = 0;

	for (tok = strtok_r(list, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		while (*tok == ' ' || *tok == '\t')
			tok++;
		end = tok + strlen(tok);
		while (end > tok && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (!qemu__extra_device_known(tok)) {
			seterr(err, errlen, "qemu_devices: '%s' is not a model bootprobe knows how to "
			       "attach (%s)", tok, qemu__extra_device_names());
			ret = -1;
		} else if (n == MAX_QEMU_DEVICES) {
			seterr(err, errlen, "qemu_devices: more than %d models", MAX_QEMU_DEVICES);
			ret = -1;
		} else {
			n++;
		}
	}
	free(list);
	if (ret)
		return ret;
	if (!n) {
		seterr(err, errlen, "qemu_devices: empty (want models such as megasas, pvscsi)");
		return -1;
	}
	for (int i = 0; i < sc->nr_qemu_devices; i++)
		free(sc->qemu_devices[i]);
	sc->nr_qemu_devices = 0;
	list = xstrdup(val);
	for (tok = strtok_r(list, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save))
		sc->qemu_devices[sc->nr_qemu_devices++] = xstrdup(tok);
	free(list);
	sc->line_qemu_devices = line;
	return 0;
}

static int set_controller(struct scenario *sc, const char *val, int line, char *err, int errlen)
{
	if (!controller__max_disks(val)) {
		seterr(err, errlen, "controller '%s': want mptsas1068 or virtio-scsi", val);
		return -1;
	}
	free(sc->controller);
	sc->controller = xstrdup(val);
	sc->line_controller = line;
	return 0;
}

/* The fleet's keys of the [scenario] section; 1 if @key is not one. */
static int fleet__set(struct scenario *sc, const char *key, const char *val, int line,
		      char *err, int errlen)
{
	long seed;

	if (!strcmp(key, "probe_ms"))
		return parse_timespec(&sc->probe_ms, key, val, line, err, errlen);
	if (!strcmp(key, "kthread_at_ms"))
		return parse_timespec(&sc->kthread_at_ms, key, val, line, err, errlen);
	if (!strcmp(key, "nthreads")) {
		if (!parse_long(val, 0, 8, &sc->nthreads)) {
			seterr(err, errlen, "nthreads '%s': want 0..8", val);
			return -1;
		}
	} else if (!strcmp(key, "fw_wait_ms")) {
		sc->line_fw_wait = line;
		if (!parse_long(val, 0, 3600000, &sc->fw_wait_ms)) {
			seterr(err, errlen, "fw_wait_ms '%s': want ms 0..3600000", val);
			return -1;
		}
	} else if (!strcmp(key, "seed")) {
		if (!parse_long(val, 0, 0x7fffffff, &seed)) {
			seterr(err, errlen, "seed '%s': want 0..2147483647", val);
			return -1;
		}
		sc->seed = (uint64_t)seed;
	} else if (!strcmp(key, "driver")) {
		return set_name(&sc->driver, key, val, err, errlen);
	} else if (!strcmp(key, "baseline")) {
		sc->line_baseline = line;
		return set_name(&sc->baseline, key, val, err, errlen);
	} else if (!strcmp(key, "controller")) {
		return set_controller(sc, val, line, err, errlen);
	} else if (!strcmp(key, "qemu_devices")) {
		return set_qemu_devices(sc, val, line, err, errlen);
	} else if (!strcmp(key, "disks")) {
		sc->line_disks = line;
		if (!parse_long(val, 1, 256, &sc->disks)) {
			seterr(err, errlen, "disks '%s': want 1..256", val);
			return -1;
		}
	} else {
		return 1;
	}
	return 0;
}

/* One "key = value" line of the [scenario] section. */
static int scenario__set(struct scenario *sc, const char *key, const char *val, int line,
			 char *err, int errlen)
{
	int rc = fleet__set(sc, key, val, line, err, errlen);

	if (rc <= 0)
		return rc;
	if (!strcmp(key, "name")) {
		return set_name(&sc->name, key, val, err, errlen);
	} else if (!strcmp(key, "image")) {
		return set_image(sc, val, line, err, errlen);
	} else if (!strcmp(key, "cmdline")) {
		return set_cmdline(&sc->cmdline, key, val, err, errlen);
	} else if (!strcmp(key, "devices")) {
		if (!parse_long(val, 0, MAX_DEVICES, &sc->devices)) {
			seterr(err, errlen, "devices '%s': want 0..%d", val, MAX_DEVICES);
			return -1;
		}
	} else if (!strcmp(key, "boots")) {
		if (!parse_long(val, 1, 100000, &sc->boots)) {
			seterr(err, errlen, "boots '%s': want 1..100000", val);
			return -1;
		}
	} else if (!strcmp(key, "jobs")) {
		if (!jobs__parse(val, &sc->jobs)) {
			seterr(err, errlen, "jobs '%s': want auto or 1..%d", val, MAX_JOBS);
			return -1;
		}
	} else if (!strcmp(key, "timeout")) {
		if (!parse_seconds(val, &sc->timeout_s)) {
			seterr(err, errlen, "timeout '%s': want seconds > 0", val);
			return -1;
		}
	} else if (!strcmp(key, "time_scale")) {
		if (!parse_seconds(val, &sc->time_scale) || sc->time_scale > 10) {
			seterr(err, errlen, "time_scale '%s': want a factor > 0, at most 10", val);
			return -1;
		}
	} else {
		seterr(err, errlen, "unknown key '%s' in [scenario] (name, image, cmdline, boots, jobs, timeout, "
		       "time_scale, baseline, devices, probe_ms, kthread_at_ms, nthreads, fw_wait_ms, "
		       "seed, driver, controller, disks, qemu_devices)", key);
		return -1;
	}
	return 0;
}

/* A "[scenario]" or "[mode NAME]" header; sets *mode (NULL for scenario). */
static int parse_section(struct scenario *sc, char *line, int lineno, struct mode **mode,
			 char *err, int errlen)
{
	char *end = strchr(line, ']');
	char *name;

	if (!end || trim(end + 1)[0]) {
		seterr(err, errlen, "malformed section header '%s'", line);
		return -1;
	}
	*end = '\0';
	name = trim(line + 1);
	if (!strcmp(name, "scenario")) {
		/* A second one would reopen the first, its keys still set. */
		if (sc->line) {
			seterr(err, errlen, "[scenario] is defined twice (first at line %d)", sc->line);
			return -1;
		}
		sc->line = lineno;
		*mode = NULL;
		return 0;
	}
	if (!strncmp(name, "mode", 4) && isspace((unsigned char)name[4])) {
		*mode = scenario__new_mode(sc, trim(name + 4), err, errlen);
		if (*mode)
			(*mode)->line = lineno;
		return *mode ? 0 : -1;
	}
	seterr(err, errlen, "unknown section [%s] (want [scenario] or [mode NAME])", name);
	return -1;
}

/* A key given twice in one section is a mistake, not an override. */
static bool seen_before(struct strv *seen, struct mode *mode, const char *key)
{
	char *id = xasprintf("%s\n%s", mode ? mode->name : "", key);
	bool dup = false;

	for (size_t i = 0; i < seen->n && !dup; i++)
		dup = !strcmp(seen->v[i], id);
	if (!dup)
		strv__push(seen, id);
	free(id);
	return dup;
}

/*
 * A '#' or ';' that starts a word of a value: a comment written after it.
 * Taken as part of the value it would reach the kernel; dropped, it would
 * hide a value that ends in one.  NULL if there is none.
 */
static const char *inline_comment(const char *val)
{
	for (const char *p = val; *p; p++)
		if ((*p == '#' || *p == ';') && (p == val || isspace((unsigned char)p[-1])))
			return p;
	return NULL;
}

static int parse_line(struct scenario *sc, char *line, int lineno, struct mode **mode,
		      bool *in_section, struct strv *seen, char *msg, int msglen)
{
	char *eq, *key, *val;

	if (*line == '[') {
		*in_section = true;
		return parse_section(sc, line, lineno, mode, msg, msglen);
	}
	eq = strchr(line, '=');
	if (!eq) {
		seterr(msg, msglen, "expected 'key = value', got '%s'", line);
		return -1;
	}
	if (!*in_section) {
		seterr(msg, msglen, "'%s' before any [scenario] or [mode NAME] section", line);
		return -1;
	}
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	if (seen_before(seen, *mode, key)) {
		seterr(msg, msglen, "'%s' is given twice in this section", key);
		return -1;
	}
	if (inline_comment(val)) {
		seterr(msg, msglen, "%s: inline comment '%.40s': comments must be on their own line",
		       key, inline_comment(val));
		return -1;
	}
	return *mode ? mode__set(*mode, key, val, lineno, msg, msglen)
		     : scenario__set(sc, key, val, lineno, msg, msglen);
}

static void name_after_file(struct scenario *sc, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	free(sc->name);
	sc->name = strndup(base, strcspn(base, "."));
	if (!name_is_valid(sc->name)) {
		free(sc->name);
		sc->name = xstrdup("scenario");
	}
}

int scenario__load(struct scenario *sc, const char *path, char *err, int errlen)
{
	struct strv seen = { 0 };
	struct mode *mode = NULL;
	bool in_section = false;
	int lineno = 0, rc = 0;
	char msg[384], *buf;
	size_t len;

	buf = read_file(path, &len);
	if (!buf) {
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (strlen(buf) != len) {
		seterr(err, errlen, "%s: binary file (NUL byte)", path);
		free(buf);
		return -1;
	}
	free(sc->path);
	sc->path = xstrdup(path);
	/* The scenario is named after its file unless it says otherwise. */
	name_after_file(sc, path);

	for (char *next = buf; next && *next && !rc; ) {
		char *line = next;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line = trim(line);
		if (!*line || *line == '#' || *line == ';')
			continue;
		rc = parse_line(sc, line, lineno, &mode, &in_section, &seen, msg, sizeof(msg));
		if (rc)
			seterr(err, errlen, "%s:%d: %s", path, lineno, msg);
	}
	free(buf);
	strv__free(&seen);
	if (rc)
		return -1;
	if (!sc->nr_modes) {
		seterr(err, errlen, "%s: no [mode NAME] section", path);
		return -1;
	}
	return scenario__validate(sc, err, errlen);
}

long controller__max_disks(const char *model)
{
	/* QEMU's SAS1068 has 8 ports; virtio-scsi takes far more, 64 is plenty. */
	if (!strcmp(model, "mptsas1068"))
		return 8;
	if (!strcmp(model, "virtio-scsi"))
		return 64;
	return 0;
}

const char *scenario__driver(const struct scenario *sc)
{
	if (sc->driver)
		return sc->driver;
	if (sc->controller)
		return !strcmp(sc->controller, "mptsas1068") ? "mptsas" : "virtio_scsi";
	if (sc->probe_ms.kind != TS_NONE || sc->devices > 0)
		return "slowprobe";
	return NULL;
}

long mode__devices(const struct scenario *sc, const struct mode *m)
{
	return m->devices >= 0 ? m->devices : sc->devices;
}

/* A time as the guest gets it: scaled, in whole ms; -1 stays -1 ("end"). */
static long scaled_ms(const struct scenario *sc, double ms)
{
	return ms < 0 ? -1 : lround(ms * sc->time_scale);
}

/* "file:line: " when the scenario came from a file. */
static int verr(const struct scenario *sc, int line, char *err, int errlen, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (sc->path && line)
		seterr(err, errlen, "%s:%d: %s", sc->path, line, msg);
	else if (sc->path)
		seterr(err, errlen, "%s: %s", sc->path, msg);
	else
		seterr(err, errlen, "%s", msg);
	return -1;
}

/* A time written nonzero that the time scale rounds to 0 ms: no time at all. */
static int check_scaled_ms(const struct scenario *sc, int line, const char *what, double ms,
			   char *err, int errlen)
{
	if (ms <= 0 || scaled_ms(sc, ms))
		return 0;
	return verr(sc, line, err, errlen, "%s %.10g ms at time_scale %g is %.3g ms, which rounds "
		    "to 0 ms", what, ms, sc->time_scale, ms * sc->time_scale);
}

/* Every value of a list, or both parameters of a distribution. */
static int check_scaled_timespec(const struct scenario *sc, const struct timespec_ms *ts,
				 const char *what, char *err, int errlen)
{
	for (int i = 0; i < ts->n; i++)
		if (check_scaled_ms(sc, ts->line, what, (double)ts->v[i], err, errlen))
			return -1;
	if (ts->kind != TS_UNIFORM && ts->kind != TS_NORMAL)
		return 0;
	return check_scaled_ms(sc, ts->line, what, ts->a, err, errlen) ||
	       check_scaled_ms(sc, ts->line, what, ts->b, err, errlen) ? -1 : 0;
}

static long list_at(const struct timespec_ms *ts, int i)
{
	return ts->v[i < ts->n ? i : ts->n - 1];
}

static long max_devices(const struct scenario *sc)
{
	long n = sc->devices;

	for (int i = 0; i < sc->nr_modes; i++)
		if (sc->modes[i].devices > n)
			n = sc->modes[i].devices;
	return n;
}

/* The first mode with more devices of its own than @n, or NULL. */
static const struct mode *mode_beyond(const struct scenario *sc, int n)
{
	for (int i = 0; i < sc->nr_modes; i++)
		if (sc->modes[i].devices > n)
			return &sc->modes[i];
	return NULL;
}

static int validate_fleet(const struct scenario *sc, char *err, int errlen)
{
	const struct timespec_ms *p = &sc->probe_ms, *k = &sc->kthread_at_ms;
	const struct timespec_ms *lists[] = { p, k };
	const char *names[] = { "probe_ms", "kthread_at_ms" };

	for (int i = 0; i < 2; i++) {
		if (lists[i]->kind == TS_NONE)
			continue;
		if (max_devices(sc) == 0)
			return verr(sc, lists[i]->line, err, errlen,
				    "%s is set but no mode has slowprobe devices (devices = 0)", names[i]);
		if (lists[i]->kind == TS_LIST && lists[i]->n > 1 && lists[i]->n != sc->devices)
			return verr(sc, lists[i]->line, err, errlen,
				    "%s lists %d values but devices = %ld", names[i], lists[i]->n,
				    sc->devices);
		/* A mode may boot fewer devices than the list names, not more. */
		if (lists[i]->kind == TS_LIST && lists[i]->n > 1 && mode_beyond(sc, lists[i]->n)) {
			const struct mode *m = mode_beyond(sc, lists[i]->n);

			return verr(sc, m->line_devices, err, errlen, "mode '%s': devices = %ld but %s "
				    "lists %d values", m->name, m->devices, names[i], lists[i]->n);
		}
	}
	if (p->kind == TS_LIST && k->kind == TS_LIST) {
		for (int i = 0; i < (p->n > k->n ? p->n : k->n); i++)
			if (list_at(k, i) > list_at(p, i))
				return verr(sc, k->line, err, errlen,
					    "kthread_at_ms %ld of device %d is beyond its probe_ms %ld",
					    list_at(k, i), i, list_at(p, i));
	}
	if (sc->fw_wait_ms >= 0 && max_devices(sc) == 0)
		return verr(sc, sc->line_fw_wait, err, errlen,
			    "fw_wait_ms is set but no mode has slowprobe devices (devices = 0)");
	if (check_scaled_timespec(sc, p, "probe_ms", err, errlen) ||
	    check_scaled_timespec(sc, k, "kthread_at_ms", err, errlen))
		return -1;
	return check_scaled_ms(sc, sc->line_fw_wait, "fw_wait_ms", (double)sc->fw_wait_ms, err, errlen);
}

static int validate_storage(const struct scenario *sc, char *err, int errlen)
{
	if (sc->controller && !sc->disks)
		return verr(sc, sc->line_controller, err, errlen,
			    "controller %s needs disks = N", sc->controller);
	if (sc->disks && !sc->controller)
		return verr(sc, sc->line_disks, err, errlen,
			    "disks = %ld needs a controller (mptsas1068 or virtio-scsi)", sc->disks);
	if (sc->controller && sc->disks > controller__max_disks(sc->controller))
		return verr(sc, sc->line_disks, err, errlen, "disks = %ld: %s takes at most %ld",
			    sc->disks, sc->controller, controller__max_disks(sc->controller));
	return 0;
}

static int validate_mode(const struct scenario *sc, const struct mode *m, char *err, int errlen)
{
	const double t[] = { m->event_timeout, m->conf_event_timeout, m->rules_event_timeout };
	const char *names[] = { "event_timeout", "udev_conf_event_timeout", "rules_event_timeout" };

	if (m->probing == PROBING_ASYNC_PROBE && !scenario__driver(sc))
		return verr(sc, m->line, err, errlen, "mode '%s': probing = async-probe but the "
			    "scenario has no driver (set driver, devices or controller)", m->name);
	for (int i = 0; i < 3; i++)
		if (t[i] && t[i] * sc->time_scale < 1.0)
			return verr(sc, m->line, err, errlen, "mode '%s': %s %g s at time_scale %g "
				    "is %.3g s, under the 1 s minimum", m->name, names[i],
				    t[i], sc->time_scale, t[i] * sc->time_scale);
	if (m->kill_policy && !strcmp(m->kill_policy, "grace")) {
		char what[96];

		snprintf(what, sizeof(what), "mode '%s': grace", m->name);
		if (check_scaled_ms(sc, m->line, what, (double)m->grace_ms, err, errlen))
			return -1;
	}
	if (m->event_timeout && (cmdline__has(m->cmdline, "udev.event_timeout") ||
				 cmdline__has(sc->cmdline, "udev.event_timeout")))
		return verr(sc, m->line_event_timeout, err, errlen, "mode '%s': event_timeout "
			    "and a cmdline udev.event_timeout= both set the timeout", m->name);
	if (m->kill_policy && (cmdline__has(m->cmdline, "kthread.sigkill_policy") ||
			       cmdline__has(sc->cmdline, "kthread.sigkill_policy")))
		return verr(sc, m->line, err, errlen, "mode '%s': kill_policy and a cmdline "
			    "kthread.sigkill_policy= both set the policy", m->name);
	return 0;
}

/*
 * The Debian image is the stock kernel with its own initramfs and systemd:
 * slowprobe is there (built against its headers, loaded by its udev), but
 * no kill-policy knob of our series, no /init of ours to write udev.conf or
 * rules files.
 */
static int validate_image(const struct scenario *sc, char *err, int errlen)
{
	for (int i = 0; i < sc->nr_modes && sc->image != IMAGE_DEBIAN; i++)
		if (sc->modes[i].image_name)
			return verr(sc, sc->modes[i].line_image, err, errlen, "mode '%s': image "
				    "%s, but the scenario's image is %s: a mode may choose "
				    "another Debian image only in a Debian scenario (one "
				    "machine for all)", sc->modes[i].name,
				    sc->modes[i].image_name, sc->image_name);
	if (sc->image != IMAGE_DEBIAN && sc->nr_qemu_devices)
		return verr(sc, sc->line_qemu_devices, err, errlen, "qemu_devices: for a Debian "
			    "image's machine (the lab's has controller and disks)");
	if (sc->image != IMAGE_DEBIAN)
		return 0;
	if (sc->controller)
		return verr(sc, sc->line_image, err, errlen, "image debian: its machine has its "
			    "own storage; controller is for the lab image");
	for (int i = 0; i < sc->nr_modes; i++) {
		const struct mode *m = &sc->modes[i];

		if (m->kill_policy || m->conf_event_timeout || m->rules_event_timeout)
			return verr(sc, m->line, err, errlen, "mode '%s': image debian has no %s "
				    "(the stock kernel and its own initramfs)", m->name,
				    m->kill_policy ? "kill_policy" : "udev.conf or rules writer");
	}
	return 0;
}

int scenario__validate(const struct scenario *sc, char *err, int errlen)
{
	const struct mode *m;
	size_t len;

	if (validate_fleet(sc, err, errlen) || validate_storage(sc, err, errlen) ||
	    validate_image(sc, err, errlen))
		return -1;
	if (sc->baseline && !scenario__find_mode((struct scenario *)sc, sc->baseline))
		return verr(sc, sc->line_baseline, err, errlen, "baseline '%s': no such mode",
			    sc->baseline);
	for (int i = 0; i < sc->nr_modes; i++)
		if (validate_mode(sc, &sc->modes[i], err, errlen))
			return -1;
	m = scenario__too_long(sc, &len);
	if (m)
		return verr(sc, m->line_cmdline ? m->line_cmdline : m->line, err, errlen,
			    "mode '%s': makes the kernel command line %zu bytes, %zu over "
			    KERNEL_CMDLINE_LIMIT, m->name, len, kernel_cmdline__over(len));
	return 0;
}

/* A uniform draw in (0, 1) for (seed, boot, device, stream). */
static double draw01(uint64_t seed, long index, int dev, int stream)
{
	uint64_t x = rng__mix(rng__mix(rng__mix(seed) ^ (uint64_t)index) ^ ((uint64_t)dev << 8 | stream));

	return ((x >> 11) + 0.5) / 9007199254740992.0;
}

/* Device @dev's value at boot @index, in ms before scaling; -1 = "end". */
static double timespec__value(const struct timespec_ms *ts, uint64_t seed, long index,
			      int dev, int stream)
{
	double u, v;

	switch (ts->kind) {
	case TS_LIST:
		return (double)list_at(ts, dev);
	case TS_UNIFORM:
		return ts->a + (ts->b - ts->a) * draw01(seed, index, dev, stream);
	case TS_NORMAL:
		u = draw01(seed, index, dev, stream);
		v = draw01(seed, index, dev, stream + 16);
		v = ts->a + ts->b * sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
		return v < 0 ? 0 : v;
	default:
		return -1;
	}
}

/* "slowprobe.probe_ms=a,b,c" with every device's scaled value. */
static void push_fleet_list(struct strv *parts, const struct scenario *sc, const char *key,
			    long devices, long index, const long *probe)
{
	const struct timespec_ms *ts = !strcmp(key, "probe_ms") ? &sc->probe_ms
								: &sc->kthread_at_ms;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	fprintf(f, "slowprobe.%s=", key);
	for (long d = 0; d < devices; d++) {
		long ms = scaled_ms(sc, timespec__value(ts, sc->seed, index, (int)d, probe ? 1 : 0));

		/* A drawn thread time past a drawn probe time means "at the end". */
		if (probe && ms > probe[d])
			ms = -1;
		fprintf(f, "%s%ld", d ? "," : "", ms);
	}
	fclose(f);
	strv__push(parts, buf);
	free(buf);
}

static void push_fleet(struct strv *parts, const struct scenario *sc, long devices, long index)
{
	long probe[MAX_DEVICES];

	if (!devices)
		return;
	for (long d = 0; d < devices; d++)
		probe[d] = scaled_ms(sc, timespec__value(&sc->probe_ms, sc->seed, index, (int)d, 0));
	if (sc->probe_ms.kind != TS_NONE)
		push_fleet_list(parts, sc, "probe_ms", devices, index, NULL);
	if (sc->kthread_at_ms.kind != TS_NONE)
		push_fleet_list(parts, sc, "kthread_at_ms", devices, index,
				sc->probe_ms.kind != TS_NONE ? probe : NULL);
	if (sc->nthreads >= 0)
		strv__pushf(parts, "slowprobe.nthreads=%ld", sc->nthreads);
	if (sc->fw_wait_ms >= 0)
		strv__pushf(parts, "slowprobe.fw_wait_ms=%ld", scaled_ms(sc, sc->fw_wait_ms));
	if (sc->probe_ms.kind != TS_NONE && !cmdline__has(sc->cmdline, "bootprobe.expect"))
		strv__pushf(parts, "bootprobe.expect=%ld", devices);
}

/* Seconds as udev's parse_sec() reads them: "3" or "2500ms". */
static void push_seconds(struct strv *parts, const char *key, double s, double scale)
{
	long long ms = llround(s * scale * 1000);

	if (ms % 1000)
		strv__pushf(parts, "%s=%lldms", key, ms);
	else
		strv__pushf(parts, "%s=%lld", key, ms / 1000);
}

static void push_probing(struct strv *parts, const struct scenario *sc, const struct mode *m)
{
	switch (m->probing) {
	case PROBING_ASYNC_PROBE:
		strv__pushf(parts, "%s.async_probe=1", scenario__driver(sc));
		break;
	case PROBING_DRIVER_ASYNC:
		strv__push(parts, "driver_async_probe=*");
		break;
	case PROBING_MODULE_ASYNC:
		strv__push(parts, "module.async_probe=1");
		break;
	default:
		break;
	}
}

static void push_udev(struct strv *parts, const struct scenario *sc, const struct mode *m)
{
	if (m->event_timeout)
		push_seconds(parts, "udev.event_timeout", m->event_timeout, sc->time_scale);
	if (m->conf_event_timeout)
		push_seconds(parts, "bootprobe.udev_conf_event_timeout", m->conf_event_timeout,
			     sc->time_scale);
	if (m->rules_event_timeout)
		push_seconds(parts, "bootprobe.rules_event_timeout", m->rules_event_timeout,
			     sc->time_scale);
	if (m->timeout_signal)
		strv__pushf(parts, "udev.timeout_signal=%s", m->timeout_signal);
}

char *mode__kernel_args(const struct scenario *sc, const struct mode *m, long index)
{
	struct strv parts = { 0 };
	char *out, *p;
	size_t len = 0;

	if (*sc->cmdline)
		strv__push(&parts, sc->cmdline);
	push_fleet(&parts, sc, mode__devices(sc, m), index);
	if (sc->controller)
		strv__pushf(&parts, "bootprobe.disks=%ld", sc->disks);
	if (*m->cmdline)
		strv__push(&parts, m->cmdline);
	push_probing(&parts, sc, m);
	push_udev(&parts, sc, m);
	if (m->kill_policy && !strcmp(m->kill_policy, "grace"))
		strv__pushf(&parts, "kthread.sigkill_policy=grace=%ld", scaled_ms(sc, m->grace_ms));
	else if (m->kill_policy)
		strv__pushf(&parts, "kthread.sigkill_policy=%s", m->kill_policy);
	for (size_t i = 0; i < parts.n; i++)
		len += strlen(parts.v[i]) + 1;
	out = xmalloc(len + 1);
	p = out;
	*p = '\0';
	for (size_t i = 0; i < parts.n; i++)
		p += sprintf(p, "%s%s", i ? " " : "", parts.v[i]);
	strv__free(&parts);
	return out;
}

const struct mode *scenario__too_long(const struct scenario *sc, size_t *len)
{
	for (int i = 0; i < sc->nr_modes; i++) {
		char *args = mode__kernel_args(sc, &sc->modes[i], 1);

		*len = kernel_cmdline_len(args, sc->image == IMAGE_DEBIAN);
		free(args);
		if (kernel_cmdline__over(*len))
			return &sc->modes[i];
	}
	return NULL;
}
