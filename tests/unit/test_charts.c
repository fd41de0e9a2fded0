// SPDX-License-Identifier: GPL-2.0
/*
 * Names from a guest never run as gnuplot commands: a driver name and a
 * mode name built to break out of gnuplot's quoting go through the real
 * gnuplot, which must draw the charts and run nothing.
 */
#include "check.h"
#include "report.h"
#include "rundata.h"
#include "util.h"

#include <stdlib.h>
#include <unistd.h>

/* Each would run `touch PWNED-n` in the charts folder if pasted as it is. */
#define EVIL_DRIVER "x';system 'touch PWNED-1';#"
#define EVIL_MODE "m'\nsystem 'touch PWNED-2'\n#"
#define EVIL_DEVICE "d\"\n0 0 0 0 \"x"

static char tmpdir[] = "/tmp/bootprobe-test-charts.XXXXXX";

static struct boot_data *boot_of(const char *mode, int i)
{
	struct boot_data *b = boot_data__new(mode);
	char *text = xasprintf(
		"{\"type\":\"header\",\"schema\":1}\n"
		"{\"type\":\"probe\",\"ts_ns\":%d,\"pid\":7,\"driver\":\"x';system 'touch PWNED-1';#\","
		"\"device\":\"d\\\"\\n0 0 0 0 \\\"x\",\"start_ns\":1000000000,\"end_ns\":%d,\"ret\":0}\n"
		"{\"type\":\"trailer\",\"events_written\":2,\"events_dropped\":0,\"bpf_drops\":0}\n",
		1200000000 + i * 1000000, 1200000000 + i * 1000000);

	boot_data__parse_events(b, text, strlen(text), "events.jsonl");
	free(b->mode);
	free(b->outcome);
	free(b->name);
	b->mode = xstrdup(mode);
	b->outcome = xstrdup("ok");
	b->name = xasprintf("boot-%d", i);
	b->coldplug_done_s = 2 + i * 0.1;
	free(text);
	return b;
}

static bool exists_in(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	bool e = access(path, F_OK) == 0;

	free(path);
	return e;
}

static char *read_in(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text = read_file(path, NULL);

	free(path);
	return text;
}

int main(void)
{
	struct report_opts o = { .charts = true };
	struct run_data *r;
	char *charts, *gp;

	if (system("command -v gnuplot >/dev/null 2>&1")) {
		printf("ok - hostile names and gnuplot # SKIP gnuplot is not installed\n");
		return 0;
	}
	if (!mkdtemp(tmpdir)) {
		printf("not ok - a temporary folder is made\n");
		return 1;
	}
	r = xcalloc(1, sizeof(*r));
	r->dir = xstrdup(tmpdir);
	r->run_id = xstrdup("hostile");
	r->boots = xcalloc(6, sizeof(*r->boots));
	for (int i = 0; i < 3; i++)
		r->boots[r->nr_boots++] = boot_of("sync", i);
	for (int i = 0; i < 3; i++)
		r->boots[r->nr_boots++] = boot_of(EVIL_MODE, i);
	run_data__analyze(r);
	o.out = tmpdir;
	charts = xasprintf("%s/charts", tmpdir);
	CHECK(report__write(r, &o) == 0, "the report with hostile names is written, charts too");
	CHECK(!exists_in(charts, "PWNED-1") && !exists_in(charts, "PWNED-2") &&
	      !exists_in(tmpdir, "PWNED-1") && !exists_in(tmpdir, "PWNED-2"),
	      "gnuplot ran none of the commands hidden in a driver or mode name");
	CHECK(exists_in(charts, "gantt.svg") && exists_in(charts, "drivers.svg") &&
	      exists_in(charts, "boottime.svg"), "gnuplot drew the charts");
	gp = read_in(charts, "drivers.gp");
	CHECK(gp && strstr(gp, "set ytics ('x'';system ''touch PWNED-1'';#' 0)"),
	      "in a script a quote in a name is doubled, inside the one string");
	CHECK(gp && strstr(gp, "title 'm''?system ''touch PWNED-2''?# against sync'"),
	      "a newline in a mode name does not start a command");
	free(gp);
	gp = read_in(charts, "gantt.gp");
	CHECK(gp && strstr(gp, "set title 'm''?system ''touch PWNED-2''?#: boot-"),
	      "the timeline's row title escapes the mode name too");
	free(gp);
	gp = read_in(charts, "gantt-0.dat");
	CHECK(gp && strstr(gp, " \"x';system 'touch PWNED-1';# d'?0 0 0 0 'x 0.20 s\"\n") &&
	      !strstr(gp, "\n0 0 0 0"), "in a data file a label stays one field on one line");
	free(gp);
	run_data__free(r);
	free(charts);
	{
		char *cmd = getenv("KEEP") ? xstrdup("true") : xasprintf("rm -rf '%s'", tmpdir);

		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
		free(cmd);
	}
	CHECK_DONE();
}
