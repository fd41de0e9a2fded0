// SPDX-License-Identifier: GPL-2.0
/*
 * The boot loader on bad input: garbage lines, a truncated stream, unknown
 * record types, a boot folder missing files, an empty run.  Whatever is
 * usable is kept, every problem is named by file and line, nothing crashes.
 */
#define _GNU_SOURCE
#include "analyze.h"
#include "explain.h"
#include "boot.h"
#include "check.h"
#include "events.h"
#include "rundata.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* A NUL-terminated stream through the one stream reader. */
static void parse_text(struct boot_data *b, const char *text, const char *label)
{
	boot_data__parse_events(b, text, strlen(text), label);
}

static char tmpdir[] = "/tmp/bootprobe-test-boot.XXXXXX";

static bool has_warning(const struct boot_data *b, const char *what)
{
	for (size_t i = 0; i < b->warnings.n; i++)
		if (strstr(b->warnings.v[i], what))
			return true;
	return false;
}

static const char probe_line[] =
	"{\"type\":\"probe\",\"ts_ns\":5000000000,\"pid\":38,\"comm\":\"(udev-worker)\","
	"\"driver\":\"slowprobe\",\"device\":\"0000:00:03.0\",\"bus\":\"pci\",\"owner\":\"slowprobe\","
	"\"async\":false,\"start_ns\":3000000000,\"end_ns\":5000000000,\"ret\":-4,"
	"\"origin\":{\"kind\":\"module_load\",\"pid\":38,\"comm\":\"(udev-worker)\",\"module\":\"slowprobe\"}}\n";

static void malformed_events(void)
{
	struct boot_data *b = boot_data__new("t");
	char *text = xasprintf("{\"type\":\"header\",\"schema\":1}\n"
			       "this is not json\n"
			       "%s"
			       "[1,2,3]\n"
			       "{\"type\":\"frobnicate\",\"ts_ns\":1}\n"
			       "{\"type\":\"frobnicate\",\"ts_ns\":2}\n"
			       "{\"no_type\":true}\n"
			       "\n"
			       "{\"type\":\"probe\",\"driver\":\"x\",\"start_ns\":\"soon\"", probe_line);

	parse_text(b, text, "ev.jsonl");
	CHECK(b->nr_probes == 1 && !strcmp(b->probes[0].driver, "slowprobe") &&
	      b->probes[0].ret == -4 && b->probes[0].start_ns == 3000000000LL,
	      "the valid probe record among garbage is kept with its fields");
	CHECK(has_warning(b, "ev.jsonl:2: not a JSON object"), "a garbage line is named by file and line");
	CHECK(has_warning(b, "ev.jsonl:4: not a JSON object"), "a JSON array is not taken for a record");
	CHECK(has_warning(b, "ev.jsonl:5: unknown record type 'frobnicate'") && b->unknown_records == 2,
	      "unknown record types are named once and counted");
	CHECK(has_warning(b, "ev.jsonl:7: record without a type"), "a record without a type is named");
	CHECK(has_warning(b, "ev.jsonl:9: truncated last line"), "a truncated last line is named");
	CHECK(has_warning(b, "no trailer record"), "a stream without its trailer is called truncated");
	boot_data__free(b);
	free(text);
}

static void kill_chain(void)
{
	struct boot_data *b = boot_data__new("t");
	char *text = xasprintf(
		"{\"type\":\"header\",\"schema\":1}\n"
		"{\"type\":\"module_load\",\"ts_ns\":5100000000,\"pid\":38,\"comm\":\"(udev-worker)\","
		"\"name\":\"slowprobe\",\"start_ns\":2900000000,\"end_ns\":5100000000,\"ret\":0}\n"
		"{\"type\":\"signal_generate\",\"ts_ns\":3010000000,\"pid\":32,\"comm\":\"systemd-udevd\","
		"\"sig\":9,\"result\":\"delivered\",\"target\":{\"pid\":38,\"comm\":\"(udev-worker)\"},"
		"\"target_state\":{\"module_load\":{\"name\":\"slowprobe\",\"for_ns\":110000000},"
		"\"probe\":{\"driver\":\"slowprobe\",\"device\":\"0000:00:03.0\",\"for_ns\":10000000}},"
		"\"target_stack\":[\"msleep+0x2d\",\"slowprobe_probe+0x5e\"]}\n"
		"{\"type\":\"kthread_end\",\"ts_ns\":5000000000,\"pid\":38,\"wait_ns\":1000,\"ret\":-4}\n"
		"%s{\"type\":\"trailer\",\"events_written\":5,\"events_dropped\":0,\"bpf_drops\":0}\n",
		probe_line);
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	boot_data__parse_console(b, "[    2.1] bootprobe: init start at 2.10 s\n"
				    "[    9.5] bootprobe: coldplug done at 9.50 s\n"
				    "[    9.6] bootprobe: device 0000:00:03.0 driver=none\n"
				    "garbage \x01\x02 line\n", "console.log");
	free(b->kernel_cmdline);
	b->kernel_cmdline = xstrdup("udev.event_timeout=3 x=1");
	b->event_timeout_s = 3;
	parse_text(b, text, "ev.jsonl");
	CHECK(b->warnings.n == 0, "a complete stream loads without warnings");
	CHECK(b->nr_kills == 1 && b->kills[0].stack.n == 2, "the SIGKILL and the victim's stack are read");
	CHECK(fabs(boot_data__boot_time(b) - 9.5) < 1e-9,
	      "boot time is the later of coldplug done (9.5 s) and the last probe end (5 s)");
	CHECK(probe_span__readiness_gap(b, &b->probes[0]) == 0,
	      "a probe that ended before its module load returned has no readiness gap");
	f = open_memstream(&out, &len);
	boot__explain(b, f);
	fclose(f);
	CHECK(strstr(out, "systemd-udevd [32] sent SIGKILL at 3.01 s to (udev-worker) [38] after the udev event timeout (3 s)") != NULL,
	      "explain names sender, time, victim and the udev timeout");
	CHECK(strstr(out, "in finit_module(slowprobe) for 0.11 s, in probe of 0000:00:03.0 (slowprobe) for 0.01 s") != NULL,
	      "explain gives what the victim was doing and for how long");
	CHECK(strstr(out, "kthread_create returned -EINTR") && strstr(out, "the probe failed (-EINTR)") &&
	      strstr(out, "device 0000:00:03.0 is unbound"),
	      "explain follows the chain: -EINTR, failed probe, unbound device");
	CHECK(strstr(out, "at risk: slowprobe probe of 0000:00:03.0 took 2.00 s = 67 % of the udev event timeout") != NULL,
	      "a probe past a third of the udev timeout is named at risk");
	CHECK(strstr(out, "failed probe: slowprobe of 0000:00:03.0 returned -EINTR at 5.00 s") &&
	      strstr(out, "  kthread_create() returned -EINTR at 5.00 s\n") &&
	      strstr(out, "systemd-udevd [32] had sent this task SIGKILL at 3.01 s, 1.99 s before "
		     "kthread_create() failed; kill policy killable, the default"),
	      "a failed probe is tied to the SIGKILL before it and to its failed kthread_create()");
	if (!strstr(out, "sent SIGKILL"))
		printf("# explain said:\n%s", out);
	free(out);
	boot_data__free(b);
	free(text);
}

static void folders(void)
{
	char err[512], *dir = xasprintf("%s/run/boots/sync-001", tmpdir), *path, *run;
	struct boot_data *b;
	struct run_data *r;

	mkdir_p(dir);
	b = boot_data__load(dir, err, sizeof(err));
	CHECK(!b && strstr(err, "boot.json: No such file or directory: not a finished boot"),
	      "a folder without boot.json is refused by name");
	path = xasprintf("%s/boot.json", dir);
	{
		const char *j = "{\"boot\":\"sync-001\",\"mode\":\"sync\",\"outcome\":\"ok\"}";

		write_file_atomic(path, j, strlen(j));
	}
	b = boot_data__load(dir, err, sizeof(err));
	CHECK(b && has_warning(b, "console.log: No such file") && !b->has_events,
	      "a boot folder missing its console and events loads, naming what is missing");
	boot_data__free(b);
	run = xasprintf("%s/empty", tmpdir);
	mkdir_p(run);
	r = run_data__load(run, err, sizeof(err));
	CHECK(!r && strstr(err, "no finished boot"), "an empty run is a clear error");
	free(run);
	run = xasprintf("%s/run", tmpdir);
	r = run_data__load(run, err, sizeof(err));
	CHECK(r && r->nr_boots == 1 && r->warnings.n >= 1, "a run without manifest reads its boots/ folder, with a warning");
	if (r)
		run_data__analyze(r);
	CHECK(r && r->nr_modes == 1 && r->modes[0].ok == 1, "its boot is analysed");
	run_data__free(r);
	free(run);
	free(path);
	free(dir);
}

/*
 * Inputs that are not plain files of text: a FIFO is not waited on, a NUL
 * byte spoils its line only, a boot.json with a NUL is refused.
 */
static void odd_files(void)
{
	char err[512], *dir = xasprintf("%s/odd/boots/sync-001", tmpdir);
	char *json = xasprintf("%s/boot.json", dir), *ev = xasprintf("%s/events.jsonl", dir);
	char *con = xasprintf("%s/console.log", dir);
	static const char events[] =
		"{\"type\":\"header\",\"schema\":1}\n"
		"{\"type\":\"probe\",\"driver\":\"a\0b\",\"device\":\"x\",\"start_ns\":1,\"end_ns\":2}\n"
		"{\"type\":\"probe\",\"driver\":\"after\",\"device\":\"y\",\"start_ns\":3,\"end_ns\":4}\n"
		"\0\0\n"
		"{\"type\":\"trailer\"}\n";
	static const char boot_json[] = "{\"boot\":\"sync-001\",\"mode\":\"sync\",\"outcome\":\"ok\"}";
	struct boot_data *b;

	mkdir_p(dir);
	write_file_atomic(json, boot_json, strlen(boot_json));
	write_file_atomic(ev, events, sizeof(events) - 1);
	mkfifo(con, 0600);
	b = boot_data__load(dir, err, sizeof(err));
	CHECK(b && has_warning(b, "console.log: not a regular file"),
	      "a FIFO as console.log is named, not waited on");
	CHECK(b && has_warning(b, "events.jsonl:2: NUL byte (line skipped)") &&
	      has_warning(b, "events.jsonl:4: NUL byte (line skipped)"),
	      "each line with a NUL byte is an error at its own line");
	CHECK(b && b->nr_probes == 1 && !strcmp(b->probes[0].driver, "after") && b->has_trailer,
	      "the lines after a NUL byte are read, up to the trailer");
	boot_data__free(b);
	write_file_atomic(json, boot_json, sizeof(boot_json));
	b = boot_data__load(dir, err, sizeof(err));
	CHECK(!b && strstr(err, "boot.json: a NUL byte"), "a boot.json with a NUL byte is refused");
	boot_data__free(b);
	free(con);
	free(ev);
	free(json);
	free(dir);
}

/* Records validated one by one: types, one header, one trailer; a boot listed once. */
/* Fields that should be objects and are not (a fuzzer's find: "target_state":0 aborted json-c). */
static void mistyped_objects(void)
{
	struct boot_data *b = boot_data__new("t");

	parse_text(b,
		"{\"type\":\"header\",\"schema\":1}\n"
		"{\"type\":\"signal_generate\",\"sig\":10,\"comm\":\"x\",\"target_state\":0}\n"
		"{\"type\":\"signal_generate\",\"sig\":9,\"target\":[1]}\n"
		"{\"type\":\"probe\",\"driver\":\"d\",\"device\":\"x\",\"start_ns\":1,"
		"\"end_ns\":2,\"origin\":\"module_load\"}\n"
		"{\"type\":\"trailer\",\"bpf_drops\":0,"
		"\"records_by_type\":{\"probe\":1,\"module_load\":1}}\n",
		"ev");
	CHECK(has_warning(b, "ev:2: field 'target_state' is int, want object") &&
	      b->nr_signals == 0, "a signal's state that is not an object: refused, no crash");
	CHECK(b->nr_kills == 1 && b->nr_probes == 1 && b->has_trailer,
	      "a target or origin of another type is read as empty; the trailer, counting "
	      "records by type, kept");
	boot_data__free(b);
}

static void records(void)
{
	struct boot_data *b = boot_data__new("t");
	char err[512], *run = xasprintf("%s/twice", tmpdir), *dir, *path;
	struct run_data *r;

	parse_text(b,
		"{\"type\":\"header\",\"schema\":1}\n"
		"{\"type\":\"probe\",\"driver\":\"d\",\"device\":\"x\",\"pid\":\"152\","
		"\"start_ns\":1,\"end_ns\":2}\n"
		"{\"type\":\"probe\",\"driver\":\"d\",\"device\":\"y\",\"async\":\"false\","
		"\"start_ns\":1,\"end_ns\":2}\n"
		"{\"type\":\"signal_generate\",\"sig\":9,\"target\":{\"pid\":\"44\"}}\n"
		"{\"type\":\"header\",\"schema\":1}\n"
		"{\"type\":\"attachment\",\"name\":\"blame.txt\",\"truncated\":true,\"text\":\"x\"}\n"
		"{\"type\":\"trailer\",\"bpf_drops\":0}\n"
		"{\"type\":\"trailer\",\"bpf_drops\":7}\n",
		"ev");
	CHECK(has_warning(b, "ev:2: field 'pid' is string, want int (record skipped)") &&
	      has_warning(b, "ev:3: field 'async' is string, want boolean (record skipped)") &&
	      b->nr_probes == 0, "records with mistyped fields are refused at their line");
	CHECK(has_warning(b, "ev:4: field 'pid' is string") && b->nr_kills == 0,
	      "a mistyped field in a nested object refuses its record too");
	CHECK(has_warning(b, "ev:6: attachment 'blame.txt' was cut by the collector") &&
	      boot_data__attachment(b, "blame.txt"), "an attachment the collector cut is kept and "
	      "named as cut");
	CHECK(has_warning(b, "ev:5: a second header") && has_warning(b, "ev:8: a second trailer") &&
	      b->bpf_drops == 0, "a second header or trailer is named and the first one counts");
	CHECK(b->rejected == 5 &&
	      !strcmp(b->first_rejected, "ev:2: field 'pid' is string, want int (record skipped)"),
	      "the 5 refused records are counted, the first named");
	CHECK_STR(b->unusable, "probe spans unusable (ev:2: field 'pid' is string, want int "
		  "(record skipped))", "a refused probe leaves the boot unusable, named by the "
		  "first such record");
	CHECK(boot_data__unusable(b) && b->refused_incomplete == INC_KILLS,
	      "the refused signal_generate makes the SIGKILLs incomplete, and only them (%#x)",
	      b->refused_incomplete);
	boot_data__free(b);
	dir = xasprintf("%s/boots/sync-001", run);
	mkdir_p(dir);
	path = xasprintf("%s/boot.json", dir);
	{
		const char *j = "{\"boot\":\"sync-001\",\"mode\":\"sync\",\"outcome\":\"ok\"}";

		write_file_atomic(path, j, strlen(j));
	}
	free(path);
	path = xasprintf("%s/manifest.json", run);
	{
		const char *m = "{\"boots\":[{\"dir\":\"boots/sync-001\"},{\"dir\":\"boots/sync-001\"}]}";

		write_file_atomic(path, m, strlen(m));
	}
	r = run_data__load(run, err, sizeof(err));
	CHECK(r && r->nr_boots == 1, "a boot the manifest lists twice is loaded once (%d)",
	      r ? r->nr_boots : -1);
	CHECK(r && r->warnings.n && strstr(r->warnings.v[0], "boot 'boots/sync-001' listed again"),
	      "and the manifest's repeat is named");
	run_data__free(r);
	free(path);
	free(dir);
	free(run);
}

/*
 * Times and counts the size of an int64: refused at their line, so that no
 * difference of two times (a probe's duration, a kthread's start) and no sum
 * of counts overflows.  Under make SANITIZE=1 the old code stopped at the
 * first subtraction; without it, it kept a probe of -9.2e18 s.
 */
static void huge_values(void)
{
	struct boot_data *b = boot_data__new("t");
	struct boot_metrics m;
	struct boot_losses l;

	parse_text(b,
		"{\"type\":\"header\",\"schema\":1}\n"
		"{\"type\":\"probe\",\"driver\":\"d\",\"device\":\"x\",\"pid\":7,"
		"\"start_ns\":-9223372036854775807,\"end_ns\":9223372036854775807,\"ret\":0}\n"
		"{\"type\":\"kthread_end\",\"ts_ns\":-9223372036854775807,\"pid\":7,"
		"\"wait_ns\":9223372036854775807,\"ret\":-4}\n"
		"{\"type\":\"probe\",\"driver\":\"d\",\"device\":\"y\",\"pid\":4294967296,"
		"\"start_ns\":1,\"end_ns\":2,\"ret\":0}\n"
		"{\"type\":\"trailer\",\"events_written\":1,\"events_dropped\":1,"
		"\"bpf_drops\":9223372036854775807}\n", "ev");
	CHECK(has_warning(b, "ev:2: field 'start_ns' is -9223372036854775807, outside") &&
	      b->nr_probes == 0,
	      "a probe starting at -2^63 ns is refused at its line");
	CHECK(has_warning(b, "ev:3: field 'ts_ns' is -9223372036854775807") && b->nr_kwaits == 0,
	      "a kthread_create() wait of 2^63 ns is refused at its line");
	CHECK(has_warning(b, "ev:4: field 'pid' is 4294967296, outside"),
	      "a pid that is no int is refused, not cut to 0");
	CHECK(has_warning(b, "ev:5: field 'bpf_drops' is 9223372036854775807") && !b->has_trailer,
	      "a trailer whose drops would overflow their sum is refused");
	boot__metrics(b, &m);
	boot_data__losses(b, &l);
	CHECK(!m.probes && l.incomplete == INC_EVERY && l.lost == 0,
	      "what is left: no probe, and a stream without its trailer is lossy");
	CHECK(boot_data__unusable(b) && l.refused == 4 &&
	      !strncmp(b->unusable, "probe spans unusable (ev:2: ", 28),
	      "4 refused, the first probe's leaves the boot unusable");
	boot_data__free(b);
}

/* The events lost over a mode's boots: summed without overflow, at most INT64_MAX. */
static void lost_sum(void)
{
	struct run_data *r = xcalloc(1, sizeof(*r));

	r->boots = xcalloc(2, sizeof(*r->boots));
	for (int i = 0; i < 2; i++) {
		struct boot_data *b = boot_data__new("t");

		/* 2^62 - 1 each: their sum fits in a boot, two boots' do not. */
		parse_text(b,
			"{\"type\":\"header\",\"schema\":1}\n"
			"{\"type\":\"trailer\",\"events_written\":0,"
			"\"events_dropped\":4611686018427387903,\"bpf_drops\":4611686018427387903}\n",
			"ev");
		free(b->mode);
		b->mode = xstrdup("m");
		r->boots[r->nr_boots++] = b;
		CHECK(b->warnings.n == 0 && b->bpf_drops == 4611686018427387903LL,
		      "drops of 2^62 - 1 are in range (boot %d)", i + 1);
	}
	run_data__analyze(r);
	CHECK(r->nr_modes == 1 && r->modes[0].boots_lossy == 2 &&
	      r->modes[0].events_lost == INT64_MAX,
	      "two boots' losses of 2^63 - 2 each sum to INT64_MAX, not a negative count (%lld)",
	      r->nr_modes ? (long long)r->modes[0].events_lost : 0LL);
	run_data__free(r);
}

/*
 * The boot-time trace's losses in the trailer: an entry overwritten makes
 * every count incomplete, a span not kept the probe spans; counts beyond
 * INT64_MAX / 8 are refused at their line, the largest accepted ones sum
 * without overflow.
 */
static void boot_trace_losses(void)
{
	static const struct {
		const char *boot_trace;
		bool refused, events, probes;
		int64_t lost;
	} cases[] = {
		{ "{\"lost_entries\":0,\"kprobe_missed\":0,\"starts_dropped\":0,"
		  "\"after_cutover\":{\"lost\":0}}", false, false, false, 0 },
		{ "{\"lost_entries\":0,\"kprobe_missed\":2,\"starts_dropped\":1,"
		  "\"after_cutover\":{\"lost\":4}}", false, false, true, 7 },
		{ "{\"lost_entries\":5}", false, true, true, 5 },
		{ "{\"lost_entries\":1152921504606846975,\"kprobe_missed\":1152921504606846975,"
		  "\"starts_dropped\":1152921504606846975,"
		  "\"after_cutover\":{\"lost\":1152921504606846975}}",
		  false, true, true, 4611686018427387900 },
		{ "{\"kprobe_missed\":1152921504606846976}", true, true, true, 0 },
		{ "{\"after_cutover\":{\"lost\":-1}}", true, true, true, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct boot_data *b = boot_data__new("t");
		char *text = xasprintf("{\"type\":\"header\",\"schema\":1}\n"
				       "{\"type\":\"trailer\",\"events_written\":0,"
				       "\"events_dropped\":0,\"bpf_drops\":0,"
				       "\"boot_trace\":%s}\n", cases[i].boot_trace);
		struct boot_losses l;

		parse_text(b, text, "ev");
		boot_data__losses(b, &l);
		CHECK(boot_data__unusable(b) == cases[i].refused &&
		      (l.incomplete == INC_EVERY) == cases[i].events &&
		      !!(l.incomplete & INC_PROBES) == cases[i].probes && l.lost == cases[i].lost &&
		      !(l.incomplete & INC_KILLS) == !cases[i].events,
		      "boot_trace %s: %s, lost %lld, %s", cases[i].boot_trace,
		      cases[i].refused ? "refused: the trailer unusable" : "read", (long long)l.lost,
		      cases[i].events ? "every count incomplete" :
		      cases[i].probes ? "probe spans incomplete" : "nothing incomplete");
		boot_data__free(b);
		free(text);
	}
}

/*
 * A bad record never sinks a boot: refused devnode, signal_generate,
 * kthread_end and probe_start records, a line of no JSON, cost what
 * depends on each type; the probe spans, header and trailer are whole, so
 * the boot is kept, its parts marked incomplete through the losses, and
 * its refusals said in one line.  (The old rule made this boot damaged.)
 */
static void refused_kept(void)
{
	struct boot_data *b = boot_data__new("t");
	struct boot_losses l;
	struct boot_metrics m;
	char *why;

	parse_text(b,
		"{\"type\":\"header\",\"schema\":1}\n"
		"{\"type\":\"devnode\",\"ts_ns\":5,\"name\":\"vda\"}\n"
		"{\"type\":\"devnode\",\"ts_ns\":6,\"kind\":\"block\",\"name\":\"vdb\"}\n"
		"{\"type\":\"signal_generate\",\"ts_ns\":7,\"sig\":99,\"pid\":1}\n"
		"{\"type\":\"kthread_end\",\"ts_ns\":\"8\",\"pid\":1}\n"
		"{\"type\":\"probe_start\",\"ts_ns\":-1,\"pid\":1}\n"
		"{\"type\":\"probe\",\"driver\":\"d\",\"device\":\"x\",\"pid\":3,"
		"\"start_ns\":1000,\"end_ns\":2000,\"ret\":0}\n"
		"{\"type\":\"trailer\",\"events_written\":3,\"events_dropped\":0,"
		"\"bpf_drops\":0}\n", "ev");
	boot_data__losses(b, &l);
	boot__metrics(b, &m);
	CHECK(!boot_data__unusable(b) && b->rejected == 4 && b->nr_probes == 1 &&
	      b->nr_devnodes == 1 && m.probes == 1,
	      "4 records refused: the boot is kept, with its probe and its good devnode");
	CHECK(l.refused == 4 && l.incomplete == (INC_DEVNODES | INC_KILLS | INC_KTHREADS),
	      "the losses mark disks and interfaces, SIGKILLs and kthread_create() incomplete, "
	      "nothing for a probe_start (%#x)", l.incomplete);
	why = boot_data__refusals(b);
	CHECK_STR(why, "4 records refused (first: ev:2: devnode without kind, name or time "
		  "(skipped)); incomplete: SIGKILLs, kthread_create(), disks and interfaces",
		  "one line says how many, the first at FILE:LINE, and what is incomplete");
	free(why);
	boot_data__free(b);

	b = boot_data__new("t");
	parse_text(b, "{\"type\":\"header\",\"schema\":1}\nnot json\n"
		   "{\"type\":\"trailer\",\"bpf_drops\":0}\n", "ev");
	boot_data__losses(b, &l);
	CHECK(!boot_data__unusable(b) && l.incomplete == INC_EVERY,
	      "a line whose type cannot be read makes every count incomplete, like a drop");
	boot_data__free(b);
}

/* The refusal cost of every record type: the header, trailer and probe only sink a boot. */
static void refusal_costs(void)
{
	for (int t = 0; t < EVENT_TYPE_MAX; t++) {
		const char *unusable;
		unsigned inc = boot_data__refusal_cost(t, &unusable);
		bool sinks = t == EVENT_HEADER || t == EVENT_TRAILER || t == EVENT_PROBE;

		CHECK(!!unusable == sinks && !(unusable && inc) && !(inc & ~INC_EVERY),
		      "a refused '%s' record %s", t ? event_type__name(t) : "(unknown type)",
		      sinks ? "leaves the boot out" : "keeps the boot");
	}
}

/* The row of docs/events.md's cost table naming `@name`, or NULL. */
static char *doc_row(char *const *rows, int n, const char *name)
{
	char *tick = xasprintf("`%s`", name);

	for (int i = 0; i < n; i++) {
		char *cell1_end = strchr(rows[i] + 1, '|');

		if (cell1_end && memmem(rows[i], cell1_end - rows[i], tick, strlen(tick))) {
			free(tick);
			return rows[i];
		}
	}
	free(tick);
	return NULL;
}

/* Cell @k (1-based) of a "| a | b | c |" row, trimmed, into @buf. */
static const char *doc_cell(const char *row, int k, char *buf, size_t len)
{
	const char *p = row;

	for (int i = 0; i < k && p; i++)
		p = strchr(p + 1, '|');
	if (!p)
		return "";
	p += strspn(p + 1, " ") + 1;
	snprintf(buf, len, "%.*s", (int)strcspn(p, "|"), p);
	for (size_t n = strlen(buf); n && buf[n - 1] == ' '; n--)
		buf[n - 1] = '\0';
	return buf;
}

/*
 * docs/gather.md's "What a refused log line costs" says what
 * log_refusal_costs[] does, kind by kind: a refused kernel-log line never
 * sinks the boot.
 */
static void log_refusal_costs_documented(void)
{
	size_t len = 0;
	char *text = read_file("docs/gather.md", &len), *sec;

	sec = text ? strstr(text, "### What a refused log line costs") : NULL;
	if (!sec) {
		CHECK(0, "docs/gather.md has a section \"What a refused log line costs\"");
		free(text);
		return;
	}
	if (strstr(sec + 1, "\n##"))
		*strstr(sec + 1, "\n##") = '\0';
	for (int k = 0; k < LOG_KIND_MAX; k++) {
		const char *unusable;
		unsigned inc = boot_data__log_refusal_cost(k, &unusable);
		char want[256], *row = xasprintf("\n| %s | kept | %s |", log_kind__name(k),
						 inc ? incomplete__text(inc, want, sizeof(want)) :
						       "nothing");

		CHECK(!unusable && strstr(sec, row), "docs/gather.md: a refused %s line: kept, "
		      "incomplete: %s", log_kind__name(k), inc ? want : "nothing");
		free(row);
	}
	free(text);
}

/*
 * docs/events.md's "What a refused record costs" says what refusal_costs[]
 * does, type by type: one fact, two places, checked to agree.
 */
static void refusal_costs_documented(void)
{
	size_t len = 0;
	char *text = read_file("docs/events.md", &len), *sec, *save = NULL, *rows[64];
	int n = 0;

	sec = text ? strstr(text, "### What a refused record costs") : NULL;
	if (!sec) {
		CHECK(0, "docs/events.md has a section \"What a refused record costs\"");
		free(text);
		return;
	}
	if (strstr(sec + 1, "\n##"))
		*strstr(sec + 1, "\n##") = '\0';
	for (char *l = strtok_r(sec, "\n", &save); l && n < 64; l = strtok_r(NULL, "\n", &save))
		if (!strncmp(l, "| `", 3) || !strncmp(l, "| a line", 8))
			rows[n++] = l;
	for (int t = 1; t <= EVENT_TYPE_MAX; t++) {
		/* EVENT_TYPE_MAX stands for a line whose type cannot be read (-1). */
		bool untyped = t == EVENT_TYPE_MAX;
		const char *name = untyped ? "a line whose type" : event_type__name(t), *unusable;
		unsigned inc = boot_data__refusal_cost(untyped ? -1 : t, &unusable);
		char *row = untyped ? NULL : doc_row(rows, n, name), want[256], got[2][256];

		for (int i = 0; untyped && i < n; i++)
			if (!strncmp(rows[i], "| a line", 8))
				row = rows[i];
		if (!unusable && !inc)
			snprintf(want, sizeof(want), "nothing");
		else
			incomplete__text(inc, want, sizeof(want));
		CHECK(row && !strcmp(doc_cell(row, 1, got[0], sizeof(got[0])),
				     unusable ? "left out" : "kept") &&
		      !strcmp(doc_cell(row, 2, got[1], sizeof(got[1])), unusable ? "—" : want),
		      "docs/events.md: a refused %s: %s, incomplete: %s", name,
		      unusable ? "left out" : "kept", unusable ? "—" : want);
	}
	free(text);
}

/*
 * /init's start from the console: a stamp or a mark out of its range
 * (ranges.h: 0..1e7 s, finite) is refused with its line, so /init's start
 * stays unknown and every probe counts as one in user space; one in range
 * is compared, never converted to nanoseconds in an int64 (a float-cast
 * overflow, then a wrong answer: -1e300 s came out as after every probe).
 */
static void far_init_start(void)
{
	static const struct {
		const char *console;
		bool in_user_space;
		int refused;
	} cases[] = {
		{ "[-1.0e300] bootprobe: init start at 1 s\n", true, 1 },
		{ "[1.0e300] bootprobe: init start at 1 s\n", true, 1 },
		{ "bootprobe: init start at 1e999 s\n", true, 1 },
		{ "bootprobe: init start at nan s\n", true, 1 },
		{ "[    2.100000] bootprobe: init start at 2.10 s\n", false, 0 },
		{ "[    1.000500] bootprobe: init start at 1.00 s\n", true, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct boot_data *b = boot_data__new("t");

		boot_data__parse_console(b, cases[i].console, "console.log");
		parse_text(b, "{\"type\":\"probe\",\"driver\":\"d\",\"device\":\"x\","
					"\"start_ns\":1000000000,\"end_ns\":2000000000}\n", "ev");
		CHECK(b->nr_probes == 1 &&
		      probe_span__in_user_space(b, &b->probes[0]) == cases[i].in_user_space,
		      "a probe at 1 s with /init at %g s is %sin user space", b->init_start_s,
		      cases[i].in_user_space ? "" : "not ");
		CHECK(b->console_refused == cases[i].refused, "'%.*s': %d console line%s refused",
		      (int)strcspn(cases[i].console, "\n"), cases[i].console, cases[i].refused,
		      cases[i].refused == 1 ? "" : "s");
		boot_data__free(b);
	}
}

/*
 * A probe the boot-time trace recorded after /init (udev's, while the
 * collector started up beside the boot) is in user space like a BPF one;
 * not one before /init, nor one on another trace clock (its times are not
 * the boot's).
 */
static void pre_collector_probes(void)
{
	static const struct {
		const char *fields;
		bool in_user_space;
	} cases[] = {
		{ "\"pre_collector\":true,\"clock\":\"boot\",\"start_ns\":3000000000", true },
		{ "\"pre_collector\":true,\"clock\":\"boot\",\"start_ns\":1000000000", false },
		{ "\"pre_collector\":true,\"clock\":\"local\",\"start_ns\":3000000000", false },
		{ "\"start_ns\":3000000000", true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct boot_data *b = boot_data__new("t");
		char *line = xasprintf("{\"type\":\"probe\",\"driver\":\"virtio_blk\","
				       "\"device\":\"virtio1\",%s,\"end_ns\":4000000000}\n",
				       cases[i].fields);

		boot_data__parse_console(b, "[    2.000000] bootprobe: init start at 2.00 s\n",
					 "console.log");
		parse_text(b, line, "ev");
		CHECK(b->nr_probes == 1 &&
		      probe_span__in_user_space(b, &b->probes[0]) == cases[i].in_user_space,
		      "a probe with %s, /init at 2 s, is %sin user space", cases[i].fields,
		      cases[i].in_user_space ? "" : "not ");
		boot_data__free(b);
		free(line);
	}
}

/* A boot folder of @cmdline and @console; NULL if it does not load. */
/* A boot folder of boot.json (@cmdline, and @extra fields) and @console, loaded. */
static struct boot_data *boot_of(const char *name, const char *cmdline, const char *extra,
				 const char *console)
{
	char err[512], *dir = xasprintf("%s/udev/%s", tmpdir, name), *path;
	char *json = xasprintf("{\"boot\":\"%s\",\"mode\":\"m\",\"outcome\":\"ok\","
			       "\"kernel_cmdline\":\"%s\"%s}", name, cmdline, extra);
	struct boot_data *b;

	mkdir_p(dir);
	path = xasprintf("%s/boot.json", dir);
	write_file_atomic(path, json, strlen(json));
	free(path);
	path = xasprintf("%s/console.log", dir);
	write_file_atomic(path, console, strlen(console));
	b = boot_data__load(dir, err, sizeof(err));
	free(path);
	free(json);
	free(dir);
	return b;
}

/* udevd's timeout: command line over udev.conf, the rules line never; disks. */
static void udev_settings(void)
{
	static const struct {
		const char *cmdline;
		double want;
	} cases[] = {
		{ "x=1", 180 },
		{ "udev.event_timeout=3", 3 },
		{ "udev.event_timeout=2500ms", 2.5 },
		/* systemd's parse_sec(): units, several of them, a fraction alone */
		{ "udev.event_timeout=1min30s", 90 },
		{ "udev.event_timeout=.5", 0.5 },
		{ "udev.event_timeout=3.x", 180 },
		{ "bootprobe.udev_conf_event_timeout=18", 18 },
		{ "bootprobe.udev_conf_event_timeout=18 udev.event_timeout=3", 3 },
		{ "bootprobe.udev_conf_event_timeout=3 bootprobe.rules_event_timeout=18", 3 },
		{ "bootprobe.rules_event_timeout=18", 180 },
		/* one scanner: the last one wins, whole words only */
		{ "udev.event_timeout=3 udev.event_timeout=5", 5 },
		{ "udev.event_timeout=3 udev.event_timeout=soon", 3 },
		{ "xudev.event_timeout=3 bootprobe.udev_event_timeout=4", 180 },
	};
	const char *console =
		"[    3.0] systemd-udevd[95]: /etc/udev/rules.d/69-bootprobe-event-timeout.rules:1 "
		"Invalid value for OPTIONS key, ignoring: 'event_timeout=18'\n"
		"[    3.1] bootprobe: coldplug done at 3.10 s\n"
		"[    7.5] bootprobe: 7 of 8 expected disks present at 7.50 s\n";
	struct boot_data *b;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *name = xasprintf("b%zu", i);

		b = boot_of(name, cases[i].cmdline, "", "");
		CHECK(b && b->event_timeout_s == cases[i].want, "udev event timeout of '%s' is %g s",
		      cases[i].cmdline, cases[i].want);
		boot_data__free(b);
		free(name);
	}
	b = boot_of("ignored", "x=1", "", console);
	CHECK(b && b->udev_ignored.n == 1 && strstr(b->udev_ignored.v[0], "69-bootprobe-event-timeout.rules:1"),
	      "udevd's 'Invalid value for OPTIONS key' line is kept with its file and line");
	CHECK(b && b->disks == 7 && b->disks_expected == 8 && boot_data__boot_time(b) == 7.5,
	      "the disks mark is read and ends the boot time when it comes last");
	boot_data__free(b);
}

/*
 * The kill policy and the udev timeout a boot ran with: boot.json's, as the
 * runner wrote them; the command line's, by the same scanner, for a
 * boot.json from before.
 */
static void boot_settings(void)
{
	struct boot_data *b;

	b = boot_of("stored", "udev.event_timeout=3 kthread.sigkill_policy=unkillable",
		    ",\"udev_event_timeout_s\":7.5,\"kill_policy\":\"grace=30000\"", "");
	CHECK(b && b->event_timeout_s == 7.5 && !strcmp(b->kill_policy, "grace=30000"),
	      "boot.json's udev timeout and kill policy are read, not the command line's");
	boot_data__free(b);
	b = boot_of("stored-default", "kthread.sigkill_policy=unkillable",
		    ",\"udev_event_timeout_s\":180,\"kill_policy\":\"\"", "");
	CHECK(b && b->event_timeout_s == 180 && !*b->kill_policy,
	      "boot.json's empty kill policy is the kernel's default, whatever the text says");
	boot_data__free(b);
	b = boot_of("old", "kthread.sigkill_policy=grace=100 xkthread.sigkill_policy=a "
		    "kthread.sigkill_policy=unkillable", "", "");
	CHECK(b && !strcmp(b->kill_policy, "unkillable"),
	      "an old boot.json: the kill policy is the command line's last whole word");
	boot_data__free(b);
}

int main(void)
{
	if (!mkdtemp(tmpdir))
		return 1;
	malformed_events();
	kill_chain();
	folders();
	udev_settings();
	boot_settings();
	odd_files();
	mistyped_objects();
	records();
	huge_values();
	lost_sum();
	boot_trace_losses();
	refused_kept();
	refusal_costs();
	refusal_costs_documented();
	log_refusal_costs_documented();
	far_init_start();
	pre_collector_probes();
	{
		char *cmd = xasprintf("rm -rf '%s'", tmpdir);

		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
		free(cmd);
	}
	CHECK_DONE();
}
