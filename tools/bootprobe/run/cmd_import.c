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
#include "gathered.h"
#include "jsonio.h"
#include "keymap.h"
#include "outcome.h"
#include "resultfiles.h"
#include "commands.h"
#include "scenario.h"
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WHO "bootprobe import"

static const char import_usage[] =
"Usage: bootprobe import [OPTIONS] LOG...\n"
"\n"
"Make a run folder of the boot logs an installed bootprobe-collector keeps on\n"
"a real machine (/var/log/bootprobe/BOOT_ID.jsonl), copied from one machine or\n"
"many, of folders bootprobe-gather made on machines that were never\n"
"instrumented, and of bare kernel logs (dmesg, journalctl -k -o\n"
"short-monotonic) of boots with initcall_debug (docs/gather.md).  Each log is\n"
"one boot; its mode is --mode, else the kernel release the log names (so logs\n"
"from before and after a kernel update are two modes).  A boot read from a\n"
"kernel log has probe spans from the kernel's own lines, its failed and\n"
"deferred probes and udevd's kills; no kthread_create(), no signal to the\n"
"worker, its state or stack (the report marks those counts incomplete).\n"
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
"One boot is imported once: a log whose boot id (its file name, BOOT_ID.jsonl;\n"
"a gathered folder's boot-id.txt) or whose content is that of a log imported\n"
"before is left out and named.  A collector's stream and a gathered folder of\n"
"one boot are two sources of that boot, not duplicates: given together, the\n"
"gathered one goes to mode MODE-log.\n"
"\n"
"Exit: 0 every log imported, 1 some refused or left out as duplicates (named;\n"
"the others imported), 2 bad usage or nothing to import.\n"
"\n"
"Examples:\n"
"  scp 'host:/var/log/bootprobe/*.jsonl' logs/\n"
"  bootprobe import logs/*.jsonl --run-id fleet\n"
"  bootprobe import --mode before old/*.jsonl --run-id before\n"
"  bootprobe import --mode after new/*.jsonl --run-id after\n"
"  bootprobe compare results/before results/after\n"
"  bootprobe import --run-id gathered bootprobe-gather-*/   # folders of bootprobe-gather\n"
"  bootprobe import --run-id old dmesg-6.1.txt              # a bare kernel log\n";

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
	/* bootprobe-gather's folder of the same boot, when the machine sent it too. */
	if (gathered__save(b, dir, WHO) < 0)
		err = -1;
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

/* ---- kernel logs: gathered folders (docs/gather.md) and bare logs ------------------- */

/* Whether @path is a collector's stream (its first byte that is no space is '{'). */
static bool is_stream(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char buf[256];
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));

	if (fd >= 0)
		close(fd);
	for (ssize_t i = 0; i < n; i++)
		if (!strchr(" \t\r\n", buf[i]))
			return buf[i] == '{';
	return true;	/* unreadable or empty: the stream reader says why */
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* A kernel log being imported: its folder (-1 for a bare log), its text, its boot. */
struct log_import {
	int dfd;
	char *text, *label;
	size_t len;
	struct boot_data *b;
	char boot_id[40];
};

static void log_import__free(struct log_import *li)
{
	if (li->dfd >= 0)
		close(li->dfd);
	free(li->text);
	free(li->label);
	boot_data__free(li->b);
}

/*
 * @arg read as a kernel log (a gathered folder, else a bare log) into @li;
 * NULL when refused, @why set.
 */
static bool log_import__read(struct log_import *li, const char *arg, const char **why,
			     char *buf, size_t blen)
{
	const char *kname = "kernel.log";
	size_t glen;
	char *g;

	*li = (struct log_import){ .dfd = -1 };
	if (is_dir(arg)) {
		li->dfd = open(arg, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		g = li->dfd < 0 ? NULL : read_file_at_max(li->dfd, "gather.txt", &glen, 1 << 20);
		if (!g || strncmp(g, GATHER_SCHEMA_LINE "\n", sizeof(GATHER_SCHEMA_LINE))) {
			snprintf(buf, blen, "gather.txt: %s: not a folder of bootprobe-gather schema 1 "
				 "(docs/gather.md)", g ? "its first line is not \"" GATHER_SCHEMA_LINE
				 "\"" : read_file_strerror(errno));
			*why = buf;
			free(g);
			return false;
		}
		free(g);
		li->text = read_file_at_max(li->dfd, kname, &li->len, mem_budget__boot());
		li->label = xasprintf("%s/%s", arg, kname);
	} else {
		li->text = read_file_fd_max(open(arg, O_RDONLY | O_NONBLOCK | O_CLOEXEC), &li->len,
					    mem_budget__boot());
		li->label = xstrdup(arg);
	}
	if (!li->text) {
		snprintf(buf, blen, "%s: %s", li->label, errno == EFBIG ?
			 "larger than a boot's memory budget (BOOTPROBE_MAX_BOOT_MEM)" :
			 read_file_strerror(errno));
		*why = buf;
		return false;
	}
	li->b = boot_data__new(arg);
	li->b->mem_budget = mem_budget__boot();
	{
		/* read_console changes the text it reads: the copy kept is the file's. */
		char *work = xmalloc(li->len + 1);

		memcpy(work, li->text, li->len + 1);
		boot_data__read_console(li->b, work, li->len, li->label);
		free(work);
	}
	boot_data__read_beside_log(li->b, li->dfd, arg);
	snprintf(li->boot_id, sizeof(li->boot_id), "%s", li->b->log.boot_id);
	if (!*li->boot_id && li->dfd >= 0) {
		char *id = read_file_at_max(li->dfd, "boot-id.txt", &glen, 64);

		if (id)
			snprintf(li->boot_id, sizeof(li->boot_id), "%.*s", (int)strcspn(id, "\n"), id);
		free(id);
	}
	if (li->b->over_budget)
		*why = li->b->over_budget;
	else if (!li->b->from_log)
		*why = "no initcall_debug or driver-core line (\"probe of DEV ... returned\", "
		       "\"initcall ... returned\", a failed or deferred probe): not a kernel log "
		       "bootprobe can read (boot with initcall_debug)";
	else if (boot_data__unusable(li->b))
		*why = li->b->unusable;
	else
		return true;
	return false;
}

/* Copy @name from the gathered folder @dfd into @bdir as it is; absent is fine. */
static int copy_gathered(int dfd, const char *bdir, const char *name)
{
	size_t len;
	char *text = read_file_at_max(dfd, name, &len, MAX_ATTACHMENT_BYTES), *path;
	int err;

	if (!text)
		return errno == ENOENT ? 0 : (fprintf(stderr, WHO ": %s: %s (not copied)\n", name,
						       read_file_strerror(errno)), 0);
	path = xasprintf("%s/%s", bdir, name);
	err = write_file_or_say(path, text, len, WHO);
	free(path);
	free(text);
	return err;
}

/* What a log boot gives and cannot, in one line. */
static void log_import__say(const char *arg, const char *bdir, const struct boot_data *b)
{
	int spans = 0, failed = 0, deferred = 0;

	for (int i = 0; i < b->nr_probes; i++) {
		spans += b->probes[i].start_ns != UNKNOWN_NS;
		failed += probe_span__failed(&b->probes[i]);
		deferred += b->probes[i].ret == -517;
	}
	printf("%s -> %s: from the kernel log: %d probe spans, %d failed, %d deferred (%d "
	       "pending), %d initcalls, %d udevd kills, %d udevd timeouts; no kthread_create(), "
	       "no signal to the worker, its state or its stack\n", arg, bdir, spans, failed,
	       deferred, b->nr_deferrals, b->nr_initcalls, b->nr_udev_kills, b->nr_udev_timeouts);
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

/* The state of one import: the run folder, the boots so far, the counts. */
struct import_run {
	const struct import_opts *o;
	const char *dir;
	struct imported *v;
	int n, refused, duplicates;
	struct import_index x;
	struct keymap stream_ids;	/* boot ids of the streams given (their file names) */
};

/* One kernel log (a gathered folder or a bare log) into the run. */
static void import_log(struct import_run *r, const char *arg)
{
	struct log_import li;
	struct imported_boot ib;
	const char *why = NULL, *sd;
	char buf[512], what[96], *mode, *bdir, *key;
	int index, dup, err = 0;

	if (!log_import__read(&li, arg, &why, buf, sizeof(buf))) {
		fprintf(stderr, WHO ": %s: refused: %s\n", arg, why);
		r->refused++;
		log_import__free(&li);
		return;
	}
	/* One boot, one sample; a gathered boot is keyed apart from its stream. */
	key = xasprintf("log:%s", li.boot_id);
	dup = *li.boot_id ? keymap__put_str(&r->x.ids, key, r->n) : r->n;
	free(key);
	if (dup != r->n) {
		snprintf(what, sizeof(what), "boot id %s", li.boot_id);
	} else {
		uint64_t ck[2] = { keymap__hash(li.text, li.len), li.len };

		dup = keymap__put(&r->x.contents, ck, sizeof(ck), r->n);
		snprintf(what, sizeof(what), "the same content");
	}
	if (dup != r->n) {
		fprintf(stderr, WHO ": %s: left out: the same boot as %s (%s), imported as %s\n", arg,
			r->v[dup].log, what, r->v[dup].dir);
		r->duplicates++;
		log_import__free(&li);
		return;
	}
	mode = import__mode(r->o, li.b);
	if (!strcmp(mode, "unknown-kernel") && *li.b->log.release) {
		char name[NAME_LEN];

		free(mode);
		file_name_of(li.b->log.release, name, sizeof(name));
		mode = xstrdup(name);
	}
	if (!r->o->mode && *li.boot_id && keymap__get_str(&r->stream_ids, li.boot_id) >= 0) {
		char *m = xasprintf("%s-log", mode);

		printf("%s: boot %s is also given as a collector's stream: a second source of one "
		       "boot, imported as mode %s\n", arg, li.boot_id, m);
		free(mode);
		mode = m;
	}
	index = import_index__mode(&r->x, mode, false) + 1;
	r->v[r->n].log = arg;
	r->v[r->n].mode = mode;
	r->v[r->n].name = xasprintf("%s-%03d", mode, index);
	r->v[r->n].cmdline = first_line(li.b, "kernel-cmdline.txt");
	if (!*r->v[r->n].cmdline && li.b->log.cmdline) {
		free(r->v[r->n].cmdline);
		r->v[r->n].cmdline = xstrdup(li.b->log.cmdline);
	}
	r->v[r->n].dir = xasprintf("boots/%s", r->v[r->n].name);
	bdir = xasprintf("%s/%s", r->dir, r->v[r->n].dir);
	imported_boot__init(&ib, li.b, r->v[r->n].name, mode, index, arg);
	if (!*ib.release) {
		free(ib.release);
		ib.release = xstrdup(li.b->log.release);
		ib.f.kernel_release = ib.release;
	}
	ib.f.kernel_cmdline = r->v[r->n].cmdline;
	/* What made its initrd, as gather.txt says (a folder from before it said: left out). */
	if (*li.b->initrd_generator)
		ib.f.initrd_generator = li.b->initrd_generator;
	/*
	 * A gathered boot finished when systemd-analyze says so (it refuses
	 * while the boot is still running); a bare log got as far as its end.
	 */
	sd = boot_data__attachment(li.b, "systemd-analyze-time.txt");
	ib.f.outcome = outcome__name(li.dfd < 0 || (sd && strstr(sd, "Startup finished")) ?
				     OUTCOME_OK : OUTCOME_TIMEOUT);
	r->v[r->n].outcome = ib.f.outcome;
	import__say_refusals(arg, li.b);
	for (size_t w = 0; w < li.b->warnings.n && w < 10; w++) {
		char *t = term_str(li.b->warnings.v[w]);

		fprintf(stderr, WHO ": %s: %s\n", arg, t);
		free(t);
	}
	err = mkdir_p(bdir);
	if (err) {
		fprintf(stderr, WHO ": %s: %s\n", bdir, strerror(-err));
	} else {
		char *path = xasprintf("%s/console.log", bdir);

		err = write_file_or_say(path, li.text, li.len, WHO);
		free(path);
		for (int i = 0; li.dfd >= 0 && gathered_beside_log[i]; i++)
			err |= copy_gathered(li.dfd, bdir, gathered_beside_log[i]);
		path = xasprintf("%s/boot.json", bdir);
		err |= boot_file__write(&ib.f, path, WHO);
		free(path);
	}
	if (err) {
		r->refused++;
		imported__free(&r->v[r->n]);
	} else {
		if (!r->o->quiet)
			log_import__say(arg, bdir, li.b);
		import_index__mode(&r->x, mode, true);
		r->n++;
	}
	imported_boot__free(&ib);
	free(bdir);
	log_import__free(&li);
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
	struct import_run r = { .o = &o };
	struct import_index *x = &r.x;
	char id[128], *dir;
	int rc = parse_args(&o, argc, argv);

	if (rc)
		return rc == HELP_SHOWN ? 0 : rc;
	dir = make_run_dir(&o, id, sizeof(id));
	if (!dir)
		return 2;
	r.dir = dir;
	r.v = xcalloc(argc - optind, sizeof(*r.v));
	/* The streams' boot ids first: a gathered folder of one of them is its second source. */
	for (int i = optind; i < argc; i++) {
		char sid[64];

		if (log_boot_id(argv[i], sid, sizeof(sid)))
			keymap__put_str(&r.stream_ids, sid, i);
	}
	for (int i = optind; i < argc; i++) {
		const char *why = NULL;
		size_t len = 0;
		char *text = NULL, *mode, *bdir;
		int index;
		struct boot_data *b;
		struct imported_boot ib;
		char what[96];
		int dup;

		if (is_dir(argv[i]) || !is_stream(argv[i])) {
			import_log(&r, argv[i]);
			continue;
		}
		b = import__read(argv[i], &text, &len, &why);
		if (why) {
			fprintf(stderr, WHO ": %s: refused: %s\n", argv[i], why);
			r.refused++;
			boot_data__free(b);
			free(text);
			continue;
		}
		/* One boot, one sample: the same boot again would narrow every CI. */
		dup = import_index__duplicate(x, argv[i], text, len, r.n, what, sizeof(what));
		if (dup >= 0) {
			fprintf(stderr, WHO ": %s: left out: the same boot as %s (%s), imported as "
				"%s\n", argv[i], r.v[dup].log, what, r.v[dup].dir);
			r.duplicates++;
			boot_data__free(b);
			free(text);
			continue;
		}
		mode = import__mode(&o, b);
		index = import_index__mode(x, mode, false) + 1;
		r.v[r.n].log = argv[i];
		r.v[r.n].mode = mode;
		r.v[r.n].name = xasprintf("%s-%03d", mode, index);
		r.v[r.n].cmdline = first_line(b, "kernel-cmdline.txt");
		r.v[r.n].dir = xasprintf("boots/%s", r.v[r.n].name);
		bdir = xasprintf("%s/%s", dir, r.v[r.n].dir);
		imported_boot__init(&ib, b, r.v[r.n].name, mode, index, argv[i]);
		r.v[r.n].outcome = ib.f.outcome;
		/* What made its initrd, when its gathered folder came with it. */
		boot_data__read_gather_attachment(b);
		if (*b->initrd_generator)
			ib.f.initrd_generator = b->initrd_generator;
		import__say_refusals(argv[i], b);
		if (import__write(bdir, b, text, len, &ib.f)) {
			r.refused++;
			imported__free(&r.v[r.n]);
		} else {
			if (!o.quiet)
				printf("%s -> %s\n", argv[i], bdir);
			import_index__mode(x, mode, true);
			r.n++;
		}
		imported_boot__free(&ib);
		free(bdir);
		boot_data__free(b);
		free(text);
	}
	if (write_manifest(dir, id, r.v, r.n))
		r.refused++;
	if (!o.quiet || r.refused || r.duplicates)
		printf("run: %s (%d boot%s imported, %d refused, %d left out as duplicates)\n", dir,
		       r.n, r.n == 1 ? "" : "s", r.refused, r.duplicates);
	for (int i = 0; i < r.n; i++)
		imported__free(&r.v[i]);
	import_index__free(x);
	keymap__free(&r.stream_ids);
	free(r.v);
	free(dir);
	return !r.n ? 2 : r.refused || r.duplicates ? 1 : 0;
}
