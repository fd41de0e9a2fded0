// SPDX-License-Identifier: GPL-2.0
/* Scenario files and mode specs: what they produce and how they fail. */
#include "check.h"
#include "scenario.h"
#include "util.h"

#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/bootprobe-test-scenario.XXXXXX";

static char *write_tmp(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", tmpdir, name);

	write_file_atomic(path, text, strlen(text));
	return path;
}

/* Load @text as a scenario; the error message, or NULL on success. */
static char *load_err(const char *text, struct scenario *sc)
{
	static char err[512];
	char *path = write_tmp("s.conf", text);
	int rc;

	scenario__init(sc);
	rc = scenario__load(sc, path, err, sizeof(err));
	free(path);
	return rc ? err : NULL;
}

static void good_file(void)
{
	struct scenario sc;
	char *err, *args;

	err = load_err("# a comment\n"
		       "[scenario]\n"
		       "name = storage\n"
		       "devices = 3\n"
		       "boots = 7\n"
		       "timeout = 90\n"
		       "cmdline = slowprobe.probe_ms=4000\n"
		       "\n"
		       "[mode killable]\n"
		       "event_timeout = 3\n"
		       "kill_policy = killable\n"
		       "[mode grace]\n"
		       "event_timeout = 3\n"
		       "timeout_signal = SIGKILL\n"
		       "kill_policy = grace=2000\n"
		       "devices = 1\n"
		       "cmdline = driver_async_probe=*\n", &sc);
	CHECK(!err, "a valid scenario file loads%s%s", err ? ": " : "", err ? err : "");
	CHECK_STR(sc.name, "storage", "[scenario] name is taken");
	CHECK(sc.nr_modes == 2 && sc.boots == 7 && sc.devices == 3 && sc.timeout_s == 90,
	      "modes, boots, devices and timeout are read");
	args = mode__kernel_args(&sc, &sc.modes[1]);
	CHECK_STR(args, "slowprobe.probe_ms=4000 driver_async_probe=* udev.event_timeout=3 "
		  "udev.timeout_signal=SIGKILL kthread.sigkill_policy=grace=2000",
		  "a mode's kernel arguments = scenario's + mode's + udev + kill policy");
	free(args);
	CHECK(mode__devices(&sc, &sc.modes[0]) == 3 && mode__devices(&sc, &sc.modes[1]) == 1,
	      "a mode's devices override the scenario's");
	scenario__free(&sc);
}

static void bad_files(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "[mode a]\ndely = 3\n", "s.conf:2: unknown key 'dely'" },
		{ "[scenario]\nboots = -1\n[mode a]\n", "s.conf:2: boots '-1'" },
		{ "[mode a]\n[mode a]\n", "s.conf:2: mode 'a' is defined twice" },
		{ "[mode a]\nevent_timeout = soon\n", "s.conf:2: event_timeout 'soon'" },
		{ "[mode a]\nkill_policy = grace=x\n", "s.conf:2: kill_policy 'grace=x'" },
		{ "[mode a]\ntimeout_signal = KILL\n", "s.conf:2: timeout_signal 'KILL'" },
		{ "cmdline = x\n", "s.conf:1: 'cmdline = x' before any" },
		{ "[mode a/b]\n", "s.conf:1: mode 'a/b': invalid name" },
		{ "[modes]\n", "s.conf:1: unknown section [modes]" },
		{ "[scenario]\ndevices = 3\n", "s.conf: no [mode NAME] section" },
		{ "[mode a]\njust words\n", "s.conf:2: expected 'key = value'" },
	};
	struct scenario sc;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *err = load_err(cases[i].text, &sc);

		CHECK(err && strstr(err, cases[i].want),
		      "bad scenario %zu is refused naming file and line (%s)", i, cases[i].want);
		if (err && !strstr(err, cases[i].want))
			printf("#   got: %s\n", err);
		scenario__free(&sc);
	}
	scenario__init(&sc);
	{
		char err[512];

		CHECK(scenario__load(&sc, "/nonexistent/x.conf", err, sizeof(err)) &&
		      strstr(err, "/nonexistent/x.conf: No such file"),
		      "a missing scenario file is named in the error");
	}
	scenario__free(&sc);
}

static void mode_specs(void)
{
	struct scenario sc;
	char err[256];
	char *args;

	scenario__init(&sc);
	CHECK(!scenario__add_mode_spec(&sc, "async", err, sizeof(err)) &&
	      !strcmp(sc.modes[0].cmdline, "driver_async_probe=*"),
	      "built-in mode async is driver_async_probe=*");
	CHECK(!scenario__add_mode_spec(&sc, "slow:udev.event_timeout=3 foo.bar=1", err, sizeof(err)),
	      "NAME:ARGS defines a mode");
	args = mode__kernel_args(&sc, &sc.modes[1]);
	CHECK_STR(args, "udev.event_timeout=3 foo.bar=1", "a NAME:ARGS mode passes its arguments");
	free(args);
	CHECK(scenario__add_mode_spec(&sc, "turbo", err, sizeof(err)) &&
	      strstr(err, "mode 'turbo': not a built-in mode"), "an unknown mode name is refused");
	CHECK(scenario__add_mode_spec(&sc, "async", err, sizeof(err)) &&
	      strstr(err, "defined twice"), "a mode given twice is refused");
	CHECK(scenario__add_mode_spec(&sc, "../x:a", err, sizeof(err)) &&
	      strstr(err, "invalid name"), "a mode name that could escape the results folder is refused");
	scenario__free(&sc);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	good_file();
	bad_files();
	mode_specs();
	unlink(xasprintf("%s/s.conf", tmpdir));
	rmdir(tmpdir);
	CHECK_DONE();
}
