// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "scenario.h"
#include "util.h"

#include <ctype.h>
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
	sc->devices = 0;
	sc->boots = 0;
	sc->timeout_s = 0;
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
		name = strndup(spec, colon - spec);
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

static bool valid_kill_policy(const char *s)
{
	long ms;

	if (!strcmp(s, "killable") || !strcmp(s, "unkillable"))
		return true;
	return !strncmp(s, "grace=", 6) && parse_long(s + 6, 0, 3600000, &ms);
}

/* One "key = value" line of a [mode NAME] section. */
static int mode__set(struct mode *m, const char *key, const char *val,
		     char *err, int errlen)
{
	if (!strcmp(key, "cmdline")) {
		free(m->cmdline);
		m->cmdline = xstrdup(val);
	} else if (!strcmp(key, "event_timeout")) {
		if (!parse_long(val, 1, 86400, &m->event_timeout)) {
			seterr(err, errlen, "event_timeout '%s': want whole seconds 1..86400", val);
			return -1;
		}
	} else if (!strcmp(key, "timeout_signal")) {
		if (!valid_signal(val)) {
			seterr(err, errlen, "timeout_signal '%s': want a signal name such as SIGKILL", val);
			return -1;
		}
		free(m->timeout_signal);
		m->timeout_signal = xstrdup(val);
	} else if (!strcmp(key, "kill_policy")) {
		if (!valid_kill_policy(val)) {
			seterr(err, errlen, "kill_policy '%s': want killable, unkillable or grace=<ms>", val);
			return -1;
		}
		free(m->kill_policy);
		m->kill_policy = xstrdup(val);
	} else if (!strcmp(key, "devices")) {
		if (!parse_long(val, 0, 24, &m->devices)) {
			seterr(err, errlen, "devices '%s': want 0..24", val);
			return -1;
		}
	} else {
		seterr(err, errlen, "unknown key '%s' in a mode section "
		       "(cmdline, event_timeout, timeout_signal, kill_policy, devices)", key);
		return -1;
	}
	return 0;
}

/* One "key = value" line of the [scenario] section. */
static int scenario__set(struct scenario *sc, const char *key, const char *val,
			 char *err, int errlen)
{
	if (!strcmp(key, "name")) {
		if (!name_is_valid(val)) {
			seterr(err, errlen, "name '%s': use letters, digits, '_', '.', '-'", val);
			return -1;
		}
		free(sc->name);
		sc->name = xstrdup(val);
	} else if (!strcmp(key, "cmdline")) {
		free(sc->cmdline);
		sc->cmdline = xstrdup(val);
	} else if (!strcmp(key, "devices")) {
		if (!parse_long(val, 0, 24, &sc->devices)) {
			seterr(err, errlen, "devices '%s': want 0..24", val);
			return -1;
		}
	} else if (!strcmp(key, "boots")) {
		if (!parse_long(val, 1, 100000, &sc->boots)) {
			seterr(err, errlen, "boots '%s': want 1..100000", val);
			return -1;
		}
	} else if (!strcmp(key, "timeout")) {
		if (!parse_seconds(val, &sc->timeout_s)) {
			seterr(err, errlen, "timeout '%s': want seconds > 0", val);
			return -1;
		}
	} else {
		seterr(err, errlen, "unknown key '%s' in [scenario] (name, cmdline, devices, boots, timeout)", key);
		return -1;
	}
	return 0;
}

/* A "[scenario]" or "[mode NAME]" header; sets *mode (NULL for scenario). */
static int parse_section(struct scenario *sc, char *line, struct mode **mode,
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
		*mode = NULL;
		return 0;
	}
	if (!strncmp(name, "mode", 4) && isspace((unsigned char)name[4])) {
		*mode = scenario__new_mode(sc, trim(name + 4), err, errlen);
		return *mode ? 0 : -1;
	}
	seterr(err, errlen, "unknown section [%s] (want [scenario] or [mode NAME])", name);
	return -1;
}

int scenario__load(struct scenario *sc, const char *path, char *err, int errlen)
{
	char msg[256], *buf, *line;
	struct mode *mode = NULL;
	bool in_section = false;
	const char *base;
	int lineno = 0;
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
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	free(sc->name);
	sc->name = strndup(base, strcspn(base, "."));
	if (!name_is_valid(sc->name)) {
		free(sc->name);
		sc->name = xstrdup("scenario");
	}

	for (char *next = buf; next && *next; ) {
		char *key, *val, *eq;
		int rc;

		line = next;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line = trim(line);
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (*line == '[') {
			rc = parse_section(sc, line, &mode, msg, sizeof(msg));
			in_section = true;
		} else if (!(eq = strchr(line, '='))) {
			snprintf(msg, sizeof(msg), "expected 'key = value', got '%s'", line);
			rc = -1;
		} else if (!in_section) {
			snprintf(msg, sizeof(msg), "'%s' before any [scenario] or [mode NAME] section", line);
			rc = -1;
		} else {
			*eq = '\0';
			key = trim(line);
			val = trim(eq + 1);
			rc = mode ? mode__set(mode, key, val, msg, sizeof(msg))
				  : scenario__set(sc, key, val, msg, sizeof(msg));
		}
		if (rc) {
			seterr(err, errlen, "%s:%d: %s", path, lineno, msg);
			free(buf);
			return -1;
		}
	}
	free(buf);
	if (!sc->nr_modes) {
		seterr(err, errlen, "%s: no [mode NAME] section", path);
		return -1;
	}
	return 0;
}

long mode__devices(const struct scenario *sc, const struct mode *m)
{
	return m->devices >= 0 ? m->devices : sc->devices;
}

char *mode__kernel_args(const struct scenario *sc, const struct mode *m)
{
	struct strv parts = { 0 };
	char *out, *p;
	size_t len = 0;

	if (*sc->cmdline)
		strv__push(&parts, sc->cmdline);
	if (*m->cmdline)
		strv__push(&parts, m->cmdline);
	if (m->event_timeout)
		strv__pushf(&parts, "udev.event_timeout=%ld", m->event_timeout);
	if (m->timeout_signal)
		strv__pushf(&parts, "udev.timeout_signal=%s", m->timeout_signal);
	if (m->kill_policy)
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
