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
#include "keymap.h"
#include "outcome.h"
#include "resultfiles.h"
#include "commands.h"
#include "scenario.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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
"One boot is imported once: a log whose boot id (its file name, BOOT_ID.jsonl)\n"
"or whose content is that of a log imported before is left out and named.\n"
"\n"
"Exit: 0 every log imported, 1 some refused or left out as duplicates (named;\n"
"the others imported), 2 bad usage or nothing to import.\n"
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
	char *name, *mode, *cmdline, *dir;
	const char *outcome;
	const char *log;	/* the log it came from (argv) */
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

	/* A log is read under a boot's memory budget, as report reads a boot. */
	*text = read_file_fd_max(open(log, O_RDONLY | O_NONBLOCK | O_CLOEXEC), len,
				 mem_budget__boot());
	if (!*text) {
		*why = errno == EFBIG ? "larger than a boot's memory budget "
					"(BOOTPROBE_MAX_BOOT_MEM)" : read_file_strerror(errno);
		return NULL;
	}
	if (strlen(*text) != *len) {
		*why = "a NUL byte";
		return NULL;
	}
	b = boot_data__new(log);
	b->mem_budget = mem_budget__boot();
	boot_data__parse_events(b, *text, *len, log);
	if (b->over_budget)
		*why = b->over_budget;
	else if (!b->has_header)
		*why = "no header record: not a bootprobe-collector stream";
	else if (boot_data__unusable(b))
		*why = b->unusable;
	return b;
}

/* What the log says of its boot: boot.json's keys an imported boot has. */
struct imported_boot {
	struct boot_file f;
	char *release, *cmdline, *machine;
};

static void imported_boot__init(struct imported_boot *ib, const struct boot_data *b,
				const char *name, const char *mode, int index, const char *log)
{
	const char *slash = strrchr(log, '/');

	ib->release = first_line(b, "uname-r.txt");
	ib->cmdline = first_line(b, "kernel-cmdline.txt");
	ib->machine = first_line(b, "dmi-product-name.txt");
	boot_file__init(&ib->f);
	ib->f.boot = name;
	ib->f.mode = mode;
	ib->f.index = index;
	/* The collector wrote its trailer: the boot got as far as the finish service. */
	ib->f.outcome = outcome__name(b->has_trailer ? OUTCOME_OK : OUTCOME_TIMEOUT);
	ib->f.accel = "none (a real machine)";
	ib->f.kernel_cmdline = ib->cmdline;
	ib->f.kernel_release = ib->release;
	ib->f.machine = ib->machine;
	ib->f.imported_from = slash ? slash + 1 : log;
}

static void imported_boot__free(struct imported_boot *ib)
{
	free(ib->release);
	free(ib->cmdline);
	free(ib->machine);
}

/* The boot's folder: events.jsonl (the log as it is), console.log, boot.json. */
static int import__write(const char *dir, const struct boot_data *b, const char *text,
			 size_t len, const struct boot_file *bf)
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
	err |= boot_file__write(bf, path, WHO);
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

static void imported__free(struct imported *im)
{
	free(im->name);
	free(im->mode);
	free(im->cmdline);
	free(im->dir);
}

/*
 * The boots already imported, by mode (how many: the next index is one
 * more), by boot id and by content (which one: a log of either is the same
 * boot again).  Hash indexes: n logs cost O(n), not O(n^2).
 */
struct import_index {
	struct keymap modes, ids, contents;
	int *mode_count;
	int nr_modes;
};

/* The boots of @mode imported so far; with @add, one more. */
static int import_index__mode(struct import_index *x, const char *mode, bool add)
{
	int k = keymap__put_str(&x->modes, mode, x->nr_modes);

	if (k == x->nr_modes)
		*ARRAY_PUSH(x->mode_count, x->nr_modes) = 0;
	return add ? ++x->mode_count[k] : x->mode_count[k];
}

static void import_index__free(struct import_index *x)
{
	keymap__free(&x->modes);
	keymap__free(&x->ids);
	keymap__free(&x->contents);
	free(x->mode_count);
}

/*
 * The boot id a log's file name says (BOOT_ID.jsonl, as the collector's
 * finish service names it: /proc/sys/kernel/random/boot_id), into @id; false
 * if the name is no boot id.
 */
static bool log_boot_id(const char *log, char *id, size_t len)
{
	const char *base = strrchr(log, '/') ? strrchr(log, '/') + 1 : log;
	static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

	if (strlen(base) != sizeof(shape) - 1 + 6 || strcmp(base + sizeof(shape) - 1, ".jsonl"))
		return false;
	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == '-' ? base[i] != '-' : !strchr("0123456789abcdef", base[i]) ||
		    !base[i])
			return false;
	snprintf(id, len, "%.*s", (int)sizeof(shape) - 1, base);
	return true;
}

/*
 * The boot imported before that log @log (its text @text of @len bytes) is
 * again: its place in @v, or -1; @what gets why ("boot id ..." or "the same
 * content").  Else the log is entered as boot @n.
 */
static int import_index__duplicate(struct import_index *x, const char *log, const char *text,
				   size_t len, int n, char *what, size_t wlen)
{
	uint64_t key[2] = { keymap__hash(text, len), len };
	char id[64];
	int k;

	if (log_boot_id(log, id, sizeof(id))) {
		k = keymap__put_str(&x->ids, id, n);
		if (k != n) {
			snprintf(what, wlen, "boot id %s", id);
			return k;
		}
	}
	k = keymap__put(&x->contents, key, sizeof(key), n);
	if (k != n) {
		snprintf(what, wlen, "the same content");
		return k;
	}
	return -1;
}

static int write_manifest(const char *dir, const char *run_id, const struct imported *v, int n)
{
	struct manifest man;
	char *path = xasprintf("%s/manifest.json", dir);
	struct keymap named = { 0 };
	int err;

	manifest__init(&man);
	man.run_id = run_id;
	man.scenario = "import";
	man.image = "imported";
	man.modes = xcalloc(n ? n : 1, sizeof(*man.modes));
	man.boots = xcalloc(n ? n : 1, sizeof(*man.boots));
	for (int i = 0; i < n; i++) {
		struct manifest_boot *mb = &man.boots[man.nr_boots++];

		/* A mode's first boot names it, with its kernel's command line. */
		if (keymap__put_str(&named, v[i].mode, i) == i) {
			struct manifest_mode *mm = &man.modes[man.nr_modes++];

			manifest_mode__init(mm);
			mm->name = v[i].mode;
			mm->kernel_args = v[i].cmdline;
			mm->devices = 0;
		}
		manifest_boot__init(mb);
		mb->boot = v[i].name;
		mb->mode = v[i].mode;
		mb->dir = v[i].dir;
		mb->outcome = v[i].outcome;
	}
	err = manifest__write(&man, path, WHO);
	keymap__free(&named);
	free(man.modes);
	free(man.boots);
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
	struct import_index x = { 0 };
	char id[128], *dir;
	int rc = parse_args(&o, argc, argv), n = 0, refused = 0, duplicates = 0;

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
		struct imported_boot ib;
		char what[96];
		int dup;

		if (why) {
			fprintf(stderr, WHO ": %s: refused: %s\n", argv[i], why);
			refused++;
			boot_data__free(b);
			free(text);
			continue;
		}
		/* One boot, one sample: the same boot again would narrow every CI. */
		dup = import_index__duplicate(&x, argv[i], text, len, n, what, sizeof(what));
		if (dup >= 0) {
			fprintf(stderr, WHO ": %s: left out: the same boot as %s (%s), imported as "
				"%s\n", argv[i], v[dup].log, what, v[dup].dir);
			duplicates++;
			boot_data__free(b);
			free(text);
			continue;
		}
		mode = import__mode(&o, b);
		index = import_index__mode(&x, mode, false) + 1;
		v[n].log = argv[i];
		v[n].mode = mode;
		v[n].name = xasprintf("%s-%03d", mode, index);
		v[n].cmdline = first_line(b, "kernel-cmdline.txt");
		v[n].dir = xasprintf("boots/%s", v[n].name);
		bdir = xasprintf("%s/%s", dir, v[n].dir);
		imported_boot__init(&ib, b, v[n].name, mode, index, argv[i]);
		v[n].outcome = ib.f.outcome;
		import__say_refusals(argv[i], b);
		if (import__write(bdir, b, text, len, &ib.f)) {
			refused++;
			imported__free(&v[n]);
		} else {
			if (!o.quiet)
				printf("%s -> %s\n", argv[i], bdir);
			import_index__mode(&x, mode, true);
			n++;
		}
		imported_boot__free(&ib);
		free(bdir);
		boot_data__free(b);
		free(text);
	}
	if (write_manifest(dir, id, v, n))
		refused++;
	if (!o.quiet || refused || duplicates)
		printf("run: %s (%d boot%s imported, %d refused, %d left out as duplicates)\n", dir, n,
		       n == 1 ? "" : "s", refused, duplicates);
	for (int i = 0; i < n; i++)
		imported__free(&v[i]);
	import_index__free(&x);
	free(v);
	free(dir);
	return !n ? 2 : refused || duplicates ? 1 : 0;
}
