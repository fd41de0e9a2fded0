// SPDX-License-Identifier: GPL-2.0
/*
 * bootprobe import: the streams an installed bootprobe-collector keeps on a
 * real machine (/var/log/bootprobe/BOOT_ID.jsonl), from one machine or many,
 * as a run folder that report, explain, timeline and compare read as usual.
 *
 * Each log becomes RUN/boots/MODE-NNN/ with the stream as events.jsonl, the
 * kernel log it carries (its dmesg.txt attachment) as console.log, and a
 * boot.json that says what the log says: the kernel release, command line
 * and machine.  A log is input from elsewhere: it is read through the same
 * checks as any stream, refused with a reason when it cannot be a boot, and
 * copied, never changed.
 */
#define _GNU_SOURCE
#include "boot.h"
#include "jsonio.h"
#include "outcome.h"
#include "commands.h"
#include "scenario.h"

#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define WHO "bootprobe import"

static const char import_usage[] =
"Usage: bootprobe import [OPTIONS] LOG.jsonl...\n"
"\n"
"Make a run folder of the boot logs an installed bootprobe-collector keeps on\n"
"a real machine (/var/log/bootprobe/BOOT_ID.jsonl), copied from one machine or\n"
"many.  Each log is one boot; its mode is --mode, else the kernel release the\n"
"log names (so logs from before and after a kernel update are two modes).\n"
"\n"
"Options:\n"
"  -m, --mode NAME       the mode of every log given (default: its kernel release)\n"
"  -o, --results DIR     results root (default results)\n"
"      --run-id ID       run folder name (default DATE-TIME-import); never reused\n"
"  -q, --quiet           no line per log\n"
"  -h, --help            this text\n"
"\n"
"A log with records the reader refuses is imported and named (\"kept,\n"
"incomplete\"), unless its header, trailer or probe spans are unusable.\n"
"\n"
"Exit: 0 every log imported, 1 some refused (named; the others imported),\n"
"2 bad usage or nothing to import.\n"
"\n"
"Examples:\n"
"  scp 'host:/var/log/bootprobe/*.jsonl' logs/\n"
"  bootprobe import logs/*.jsonl --run-id fleet\n"
"  bootprobe import --mode before old/*.jsonl --run-id before\n"
"  bootprobe import --mode after new/*.jsonl --run-id after\n"
"  bootprobe compare results/before results/after\n";

struct import_opts {
	const char *mode, *results, *run_id;
	bool quiet;
};

/* One imported boot, for the manifest. */
struct imported {
	char *name, *mode, *cmdline;
};

/* The first line of an attachment, or "". */
static char *first_line(const struct boot_data *b, const char *name)
{
	const char *t = boot_data__attachment(b, name);

	return t ? strndup(t, strcspn(t, "\n")) : xstrdup("");
}

/*
 * @log parsed as a stream: NULL with @why when it cannot be an imported
 * boot (unreadable, no header: not a collector's stream, or its header,
 * trailer or probe spans unusable).  A log with other records refused is
 * imported: what they cost is said when it is read.
 */
static struct boot_data *import__read(const char *log, char **text, size_t *len,
				      const char **why)
{
	struct boot_data *b;

	*text = read_file(log, len);
	if (!*text) {
		*why = read_file_strerror(errno);
		return NULL;
	}
	if (strlen(*text) != *len) {
		*why = "a NUL byte";
		return NULL;
	}
	b = boot_data__new(log);
	boot_data__parse_events(b, *text, *len, log);
	if (!b->has_header)
		*why = "no header record: not a bootprobe-collector stream";
	else if (boot_data__unusable(b))
		*why = b->unusable;
	return b;
}

static struct json_object *boot__json(const struct boot_data *b, const char *name,
				      const char *mode, int index, const char *log)
{
	struct json_object *o = json_object_new_object();
	char *release = first_line(b, "uname-r.txt"), *cmdline = first_line(b, "kernel-cmdline.txt");
	char *machine = first_line(b, "dmi-product-name.txt");
	const char *slash = strrchr(log, '/');

	json_object_object_add(o, "boot", json_object_new_string(name));
	json_object_object_add(o, "mode", json_object_new_string(mode));
	json_object_object_add(o, "index", json_object_new_int(index));
	/* The collector wrote its trailer: the boot got as far as the finish service. */
	json_object_object_add(o, "outcome", json_object_new_string(
		outcome__name(b->has_trailer ? OUTCOME_OK : OUTCOME_TIMEOUT)));
	json_object_object_add(o, "accel", json_object_new_string("none (a real machine)"));
	json_object_object_add(o, "kernel_cmdline", json_object_new_string(cmdline));
	json_object_object_add(o, "kernel_release", json_object_new_string(release));
	json_object_object_add(o, "machine", json_object_new_string(machine));
	json_object_object_add(o, "imported_from", json_object_new_string(slash ? slash + 1 : log));
	free(machine);
	free(cmdline);
	free(release);
	return o;
}

/* The boot's folder: events.jsonl (the log as it is), console.log, boot.json. */
static int import__write(const char *dir, const struct boot_data *b, const char *text,
			 size_t len, struct json_object *bj)
{
	const char *dmesg = boot_data__attachment(b, "dmesg.txt");
	char *path;
	int err = mkdir_p(dir);

	if (err) {
		fprintf(stderr, WHO ": %s: %s\n", dir, strerror(-err));
		return -1;
	}
	path = xasprintf("%s/events.jsonl", dir);
	err = write_file_or_say(path, text, len, WHO);
	free(path);
	path = xasprintf("%s/console.log", dir);
	err |= write_file_or_say(path, dmesg ? dmesg : "", dmesg ? strlen(dmesg) : 0, WHO);
	free(path);
	path = xasprintf("%s/boot.json", dir);
	err |= jwrite(path, bj, WHO);
	free(path);
	return err;
}

/* A log imported with records refused: what they cost, on stderr. */
static void import__say_refusals(const char *log, const struct boot_data *b)
{
	char *why = boot_data__refusals(b);

	if (why)
		fprintf(stderr, WHO ": kept, incomplete: %s: %s\n", log, why);
	free(why);
}

/* The mode of a log: --mode, else its kernel release, else "unknown-kernel". */
static char *import__mode(const struct import_opts *o, const struct boot_data *b)
{
	char *release, buf[NAME_LEN];

	if (o->mode)
		return xstrdup(o->mode);
	release = first_line(b, "uname-r.txt");
	file_name_of(*release ? release : "unknown-kernel", buf, sizeof(buf));
	free(release);
	return xstrdup(buf);
}

/* How many boots of @mode were imported before: the next index is one more. */
static int mode_count(const struct imported *v, int n, const char *mode)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		c += !strcmp(v[i].mode, mode);
	return c;
}

static int write_manifest(const char *dir, const char *run_id, const struct imported *v, int n)
{
	struct json_object *o = json_object_new_object(), *modes = json_object_new_array();
	struct json_object *boots = json_object_new_array();
	char *path = xasprintf("%s/manifest.json", dir);
	int err;

	for (int i = 0; i < n; i++) {
		struct json_object *b = json_object_new_object();
		char *rel;

		if (mode_count(v, i, v[i].mode) == 0) {
			struct json_object *m = json_object_new_object();

			json_object_object_add(m, "name", json_object_new_string(v[i].mode));
			json_object_object_add(m, "kernel_args", json_object_new_string(v[i].cmdline));
			json_object_object_add(m, "devices", json_object_new_int(0));
			json_object_array_add(modes, m);
		}
		json_object_object_add(b, "boot", json_object_new_string(v[i].name));
		json_object_object_add(b, "mode", json_object_new_string(v[i].mode));
		rel = xasprintf("boots/%s", v[i].name);
		json_object_object_add(b, "dir", json_object_new_string(rel));
		free(rel);
		json_object_array_add(boots, b);
	}
	json_object_object_add(o, "schema", json_object_new_int(1));
	json_object_object_add(o, "run_id", json_object_new_string(run_id));
	json_object_object_add(o, "scenario", json_object_new_string("import"));
	json_object_object_add(o, "image", json_object_new_string("imported"));
	json_object_object_add(o, "modes", modes);
	json_object_object_add(o, "boots", boots);
	err = jwrite(path, o, WHO);
	json_object_put(o);
	free(path);
	return err;
}

/* parse_args() after printing --help: nothing to do, exit 0. */
#define HELP_SHOWN (-1)

/* 0, HELP_SHOWN, or usage_error()'s 2. */
static int parse_args(struct import_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mode", required_argument, NULL, 'm' }, { "results", required_argument, NULL, 'o' },
		{ "run-id", required_argument, NULL, 'r' }, { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	*o = (struct import_opts){ .results = "results" };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (!name_is_valid(optarg))
				return usage_error("import", "--mode: use letters, digits, '_', '.', "
						   "'-':", optarg);
			o->mode = optarg;
			break;
		case 'o': o->results = optarg; break;
		case 'r':
			if (!name_is_valid(optarg))
				return usage_error("import", "--run-id: use letters, digits, '_', '.', "
						   "'-':", optarg);
			o->run_id = optarg;
			break;
		case 'q': o->quiet = true; break;
		case 'h': fputs(import_usage, stdout); return HELP_SHOWN;
		case ':': return usage_error("import", "option needs a value:", argv[optind - 1]);
		default: return usage_error("import", "unknown option", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("import", "no LOG.jsonl given", NULL);
	return 0;
}

/* RESULTS/RUN-ID, made new: an existing run is never written into. */
static char *make_run_dir(const struct import_opts *o, char *id, size_t idlen)
{
	char *dir;
	int err = mkdir_p(o->results);

	if (o->run_id) {
		snprintf(id, idlen, "%s", o->run_id);
	} else {
		char stamp[32];

		now_run_stamp(stamp, sizeof(stamp));
		snprintf(id, idlen, "%s-import", stamp);
	}
	dir = xasprintf("%s/%s", o->results, id);
	if (err || mkdir(dir, 0755)) {
		fprintf(stderr, WHO ": %s: %s\n", err ? o->results : dir,
			strerror(err ? -err : errno));
		free(dir);
		return NULL;
	}
	return dir;
}

int cmd_import(int argc, char **argv)
{
	struct import_opts o;
	struct imported *v;
	char id[128], *dir;
	int rc = parse_args(&o, argc, argv), n = 0, refused = 0;

	if (rc)
		return rc == HELP_SHOWN ? 0 : rc;
	dir = make_run_dir(&o, id, sizeof(id));
	if (!dir)
		return 2;
	v = xcalloc(argc - optind, sizeof(*v));
	for (int i = optind; i < argc; i++) {
		const char *why = NULL;
		size_t len = 0;
		char *text = NULL, *mode, *bdir;
		int index;
		struct boot_data *b = import__read(argv[i], &text, &len, &why);
		struct json_object *bj;

		if (why) {
			fprintf(stderr, WHO ": %s: refused: %s\n", argv[i], why);
			refused++;
			boot_data__free(b);
			free(text);
			continue;
		}
		mode = import__mode(&o, b);
		index = mode_count(v, n, mode) + 1;
		v[n].mode = mode;
		v[n].name = xasprintf("%s-%03d", mode, index);
		v[n].cmdline = first_line(b, "kernel-cmdline.txt");
		bdir = xasprintf("%s/boots/%s", dir, v[n].name);
		bj = boot__json(b, v[n].name, mode, index, argv[i]);
		import__say_refusals(argv[i], b);
		if (import__write(bdir, b, text, len, bj)) {
			refused++;
			free(v[n].name);
			free(v[n].mode);
			free(v[n].cmdline);
		} else {
			if (!o.quiet)
				printf("%s -> %s\n", argv[i], bdir);
			n++;
		}
		json_object_put(bj);
		free(bdir);
		boot_data__free(b);
		free(text);
	}
	if (write_manifest(dir, id, v, n))
		refused++;
	if (!o.quiet || refused)
		printf("run: %s (%d boot%s imported, %d refused)\n", dir, n, n == 1 ? "" : "s",
		       refused);
	for (int i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].mode);
		free(v[i].cmdline);
	}
	free(v);
	free(dir);
	return !n ? 2 : refused ? 1 : 0;
}
