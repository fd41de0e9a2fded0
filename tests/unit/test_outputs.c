// SPDX-License-Identifier: GPL-2.0
/*
 * What the report writes stays where it belongs: a link planted at an
 * output's name is refused, not followed, and a boot named like a path in
 * its boot.json still gets its trace inside traces/.
 */
#include "check.h"
#include "report.h"
#include "rundata.h"
#include "util.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* A NUL-terminated stream through the one stream reader. */
static void parse_text(struct boot_data *b, const char *text, const char *label)
{
	boot_data__parse_events(b, text, strlen(text), label);
}

static char tmpdir[] = "/tmp/bootprobe-test-outputs.XXXXXX";

static char *in(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static void planted_links(void)
{
	char *target = in("target"), *link = in("out.txt"), *tmp_link = in("atomic.txt.tmp");
	char *atomic = in("atomic.txt"), *text;
	struct out_file o;
	struct stat st;

	write_file_atomic(target, "keep", 4);
	CHECK(symlink(target, link) == 0 && symlink(target, tmp_link) == 0, "links are planted");
	fputs("new", out_file__open(&o, tmpdir, "out.txt"));
	CHECK(out_file__commit(&o, "test") == 0 && lstat(link, &st) == 0 && S_ISREG(st.st_mode),
	      "an out_file replaces a link at its name by the file, not writing through it");
	/* The temporary name is a new random one: what stands at NAME.tmp is never opened. */
	CHECK(write_file_atomic(atomic, "x", 1) == 0, "write_file_atomic writes beside a link "
	      "planted at NAME.tmp, not through it");
	text = read_file(target, NULL);
	CHECK(text && !strcmp(text, "keep"), "the link's target is untouched");
	free(text);
	free(atomic);
	free(tmp_link);
	free(link);
	free(target);
}

static void names(void)
{
	char buf[32];

	file_name_of("sync-001", buf, sizeof(buf));
	CHECK_STR(buf, "sync-001", "an ordinary boot name stays as it is");
	file_name_of("../../x", buf, sizeof(buf));
	CHECK_STR(buf, "_._.._x", "a path becomes one name, not hidden, with no slash");
	file_name_of("..", buf, sizeof(buf));
	CHECK_STR(buf, "_.", "'..' is no longer the parent");
	file_name_of("", buf, sizeof(buf));
	CHECK_STR(buf, "_", "an empty name becomes '_'");
	file_name_of("a\nb/c", buf, 4);
	CHECK_STR(buf, "a_b", "control bytes and slashes become '_', cut to fit");
}

static struct boot_data *boot(const char *name)
{
	struct boot_data *b = boot_data__new(tmpdir);

	parse_text(b, "{\"type\":\"probe\",\"driver\":\"d\",\"device\":\"v\","
				"\"pid\":1,\"start_ns\":1000,\"end_ns\":2000,\"ret\":0}\n", "ev");
	free(b->name);
	free(b->mode);
	free(b->outcome);
	b->name = xstrdup(name);
	b->mode = xstrdup("sync");
	b->outcome = xstrdup("ok");
	return b;
}

static void trace_names(void)
{
	struct report_opts o = { .traces = true };
	struct run_data *r = xcalloc(1, sizeof(*r));
	char *out = in("report"), *escaped = in("escaped.json"), *p1, *p2;

	r->dir = xstrdup(tmpdir);
	r->run_id = xstrdup("outputs");
	r->boots = xcalloc(2, sizeof(*r->boots));
	r->boots[r->nr_boots++] = boot("../escaped");
	r->boots[r->nr_boots++] = boot("_._escaped");
	run_data__analyze(r);
	o.out = out;
	CHECK(report__write(r, &o) == 0, "the report of boots named like paths is written");
	CHECK(access(escaped, F_OK) != 0, "no trace was written outside the report folder");
	p1 = xasprintf("%s/traces/_._escaped.json", out);
	p2 = xasprintf("%s/traces/_._escaped-2.json", out);
	CHECK(access(p1, F_OK) == 0 && access(p2, F_OK) == 0,
	      "both traces are in traces/, the second of two alike names kept apart");
	free(p2);
	free(p1);
	free(escaped);
	free(out);
	run_data__free(r);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("not ok - a temporary folder is made\n");
		return 1;
	}
	planted_links();
	names();
	trace_names();
	{
		char *cmd = getenv("KEEP") ? xstrdup("true") : xasprintf("rm -rf '%s'", tmpdir);

		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
		free(cmd);
	}
	CHECK_DONE();
}
