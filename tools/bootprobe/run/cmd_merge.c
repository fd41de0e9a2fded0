// SPDX-License-Identifier: GPL-2.0
/*
 * bootprobe merge: the parts of a sharded run (run --shard K/N, one per
 * machine or job) joined into one run folder that report, explain, timeline
 * and compare read as usual.
 *
 * Parts belong together when they share the run id, the plan (its hash:
 * scenario, counts, time scale, timeout, every boot's kernel arguments and
 * draws), the kernel build, the QEMU version and the accelerator; anything
 * else is refused before a byte is written, naming the part and the field.
 * A part is input from elsewhere: its manifest and boot folders go through
 * the same checks as any results folder, boot names are checked against the
 * plan, only regular files are copied and no link is followed.  A boot that
 * is not merged is named, never dropped in silence.
 */
#define _GNU_SOURCE
#include "boot.h"
#include "fsat.h"
#include "jsonio.h"
#include "resultfiles.h"
#include "commands.h"
#include "runner.h"
#include "scenario.h"
#include "text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WHO "bootprobe merge"
#define MAX_PARTS 4096	/* usage_error() says it */

static const char merge_usage[] =
"Usage: bootprobe merge [OPTIONS] --out RUN PART...\n"
"\n"
"Join the parts of a sharded run (bootprobe run --run-id ID --shard K/N, one\n"
"folder RESULTS/ID.shard-K-of-N per part, from one machine or many) into the\n"
"run folder RUN, which report, explain, timeline and compare read as usual.\n"
"Each boot keeps the host that ran it; the report lists the hosts.\n"
"\n"
"Parts are refused, and nothing is written, when they do not belong together:\n"
"another run id, plan (scenario, boots, time scale, kernel arguments),\n"
"kernel build hash, QEMU version, accelerator or guest arguments, the same\n"
"shard twice, or a boot that is not its shard's or is in two parts.\n"
"\n"
"Options:\n"
"  -o, --out RUN         the merged run folder (must not exist)\n"
"  -q, --quiet           no summary line\n"
"  -h, --help            this text\n"
"\n"
"Exit: 0 every planned boot merged, 1 merged with boots missing (named:\n"
"a shard not given, a boot not finished or not copied), 2 bad usage or parts\n"
"refused (nothing written).\n"
"\n"
"Examples:\n"
"  bootprobe run -s bench/scenarios/default.conf --run-id big --shard 1/2\n"
"  bootprobe run -s bench/scenarios/default.conf --run-id big --shard 2/2  # elsewhere\n"
"  bootprobe merge --out results/big results/big.shard-*-of-2\n"
"  bootprobe report results/big\n";

/* The manifest fields every part must share: the message names the field. */
static const struct {
	const char *name;
	size_t off;		/* of a string in struct manifest */
} same_fields[] = {
	{ "run_id", offsetof(struct manifest, run_id) },
	{ "plan_hash", offsetof(struct manifest, plan_hash) },
	{ "scenario", offsetof(struct manifest, scenario) },
	{ "kernel_build_hash", offsetof(struct manifest, kernel_build_hash) },
	{ "qemu_version", offsetof(struct manifest, qemu_version) },
	{ "image", offsetof(struct manifest, image) },
	{ "guest_args", offsetof(struct manifest, guest_args) },
	{ "accel", offsetof(struct manifest, accel_used) },
};

struct part {
	const char *dir;
	struct manifest man;	/* its manifest.json, read by the results module */
	long k, n;
	long lo, hi;		/* its plan positions */
};

struct merge {
	struct part parts[MAX_PARTS];
	int nr_parts;
	struct strv modes;	/* the plan's mode names, in order */
	long total;		/* plan boots */
	/* by plan position: the part that has the boot (-1 none), its manifest entry */
	int *owner;
	const struct manifest_boot **entry;
	int missing;		/* planned boots not merged */
};

/* "bootprobe merge: " and the message on stderr; -1. */
static int refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int refuse(const char *fmt, ...)
{
	va_list ap;

	fputs(WHO ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	return -1;
}

/* The string field at @off of @man, "" when it has none. */
static const char *field(const struct manifest *man, size_t off)
{
	const char *s = *(const char *const *)((const char *)man + off);

	return s ? s : "";
}

/*
 * Read PART/manifest.json, beneath the folder the user named (a link
 * planted there is refused, as every file of a part is): it must be a
 * shard's.
 */
static int part__load(struct part *p, const char *dir)
{
	char *path = xasprintf("%s/manifest.json", dir), err[512];
	int dfd = dir_open_user(dir, false), ret;
	size_t len = 0;
	char *text = dfd < 0 ? NULL : read_file_beneath(dfd, "manifest.json", &len);
	int errnum = errno;

	p->dir = dir;
	if (dfd >= 0)
		close(dfd);
	if (!text) {
		manifest__init(&p->man);
		ret = refuse("%s: %s", path, read_file_strerror(errnum));
		free(path);
		return ret;
	}
	ret = manifest__parse(&p->man, text, len, path, NULL, err, sizeof(err));
	free(text);
	free(path);
	if (ret)
		return refuse("%s", err);
	if (!p->man.has_shard)
		return refuse("%s: not a part of a sharded run (its manifest has no shard; "
			      "run with --shard K/N)", dir);
	p->n = p->man.shard.n >= 1 && p->man.shard.n <= 100000 ? p->man.shard.n : -1;
	p->k = p->man.shard.k >= 1 && p->man.shard.k <= p->n ? p->man.shard.k : -1;
	if (p->n < 0 || p->k < 0)
		return refuse("%s: manifest.json: shard is not K/N with 1 <= K <= N", dir);
	return 0;
}

/* The plan's size the manifest states, -1 when none a plan can have. */
static long plan_boots(const struct manifest *man)
{
	return man->plan_boots >= 1 && man->plan_boots <= 100000L * MAX_MODES ?
	       man->plan_boots : -1;
}

/* The first part's modes and plan size, which the others must match. */
static int merge__read_plan(struct merge *m, const struct part *p)
{
	size_t nr = p->man.nr_modes;

	for (size_t i = 0; i < nr; i++) {
		const char *name = p->man.modes[i].name ? p->man.modes[i].name : "";

		if (!name_is_valid(name) || strv__contains(&m->modes, name))
			return refuse("%s: manifest.json: mode %zu: '%s' is no mode name", p->dir,
				      i + 1, name);
		strv__push(&m->modes, name);
	}
	m->total = plan_boots(&p->man);
	if (!nr || nr > MAX_MODES || m->total < 0 || m->total % (long)nr)
		return refuse("%s: manifest.json: no plan (modes and plan_boots)", p->dir);
	if (p->n > m->total)
		return refuse("%s: manifest.json: shard %ld/%ld of a plan of %ld boots", p->dir,
			      p->k, p->n, m->total);
	m->owner = xcalloc(m->total, sizeof(*m->owner));
	m->entry = xcalloc(m->total, sizeof(*m->entry));
	for (long i = 0; i < m->total; i++)
		m->owner[i] = -1;
	return 0;
}

/* A field of @p that differs from the first part's: refused, both values named. */
static int part__same(const struct merge *m, const struct part *p)
{
	const struct part *first = &m->parts[0];

	for (size_t i = 0; i < sizeof(same_fields) / sizeof(same_fields[0]); i++) {
		const char *f = same_fields[i].name, *mine = field(&p->man, same_fields[i].off);
		const char *theirs = field(&first->man, same_fields[i].off);

		if (strcmp(mine, theirs))
			return refuse("%s: %s is '%.80s', %s has '%.80s': not parts of one run",
				      p->dir, f, mine, first->dir, theirs);
	}
	if (plan_boots(&p->man) != m->total || p->n != first->n)
		return refuse("%s: shard %ld/%ld of %ld boots, %s is %ld/%ld of %ld: not parts "
			      "of one run", p->dir, p->k, p->n, plan_boots(&p->man), first->dir,
			      first->k, first->n, m->total);
	if (p->man.nr_modes != m->modes.n)
		return refuse("%s: modes differ from %s's: not parts of one run", p->dir,
			      first->dir);
	for (size_t i = 0; i < m->modes.n; i++) {
		const char *name = p->man.modes[i].name ? p->man.modes[i].name : "";

		if (strcmp(name, m->modes.v[i]))
			return refuse("%s: mode %zu is '%s', %s has '%s': not parts of one run",
				      p->dir, i + 1, name, first->dir, m->modes.v[i]);
	}
	return 0;
}

/* The plan position of boot @name ("MODE-NNN"), or -1 if the plan has no such boot. */
static long merge__position(const struct merge *m, const char *name)
{
	long nr = (long)m->modes.n;

	for (long i = 0; i < nr; i++) {
		size_t len = strlen(m->modes.v[i]);
		long index;

		if (strncmp(name, m->modes.v[i], len) || name[len] != '-' ||
		    !parse_long(name + len + 1, 1, m->total / nr, &index))
			continue;
		/* The one spelling the runner gives it: "-007", never "-7". */
		{
			char *want = plan__boot_name(m->modes.v[i], index);
			bool same = !strcmp(want, name);

			free(want);
			if (same)
				return (index - 1) * nr + i;
		}
	}
	return -1;
}

/* Every boot the part's manifest lists: its shard's, in no other part. */
static int part__claim_boots(struct merge *m, int pi)
{
	struct part *p = &m->parts[pi];

	shard__range(m->total, p->k, p->n, &p->lo, &p->hi);
	for (size_t i = 0; i < p->man.nr_boots; i++) {
		const struct manifest_boot *e = &p->man.boots[i];
		const char *name = e->boot ? e->boot : "", *mode = e->mode ? e->mode : "";
		const char *rel = e->dir ? e->dir : "";
		char *dir = xasprintf("boots/%s", name);
		long pos = merge__position(m, name);
		bool dir_ok = !strcmp(rel, dir);

		free(dir);
		if (pos >= 0 && strcmp(mode, m->modes.v[pos % m->modes.n]))
			return refuse("%s: manifest.json: boot %s has mode '%.80s', the plan's is '%s'",
				      p->dir, name, mode, m->modes.v[pos % m->modes.n]);
		if (pos < 0 || !dir_ok)
			return refuse("%s: manifest.json: boot %zu ('%.80s' in '%.80s') is no boot "
				      "of the plan", p->dir, i + 1, name, rel);
		if (pos < p->lo || pos >= p->hi)
			return refuse("%s: boot %s is not shard %ld/%ld's (plan position %ld, the "
				      "shard has %ld..%ld)", p->dir, name, p->k, p->n, pos, p->lo,
				      p->hi - 1);
		if (m->owner[pos] >= 0)
			return refuse("%s: boot %s is also in %s: a boot is merged once", p->dir,
				      name, m->parts[m->owner[pos]].dir);
		m->owner[pos] = pi;
		m->entry[pos] = e;
	}
	return 0;
}

static int merge__check(struct merge *m, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		struct part *p = &m->parts[m->nr_parts++];

		if (part__load(p, argv[i]))
			return -1;
		if (i == 0 && merge__read_plan(m, p))
			return -1;
		if (i > 0 && part__same(m, p))
			return -1;
		for (int j = 0; j < i; j++)
			if (m->parts[j].k == p->k)
				return refuse("%s: shard %ld/%ld again (also %s)", p->dir, p->k,
					      p->n, m->parts[j].dir);
		if (part__claim_boots(m, i))
			return -1;
	}
	return 0;
}

/*
 * Boot folders of a part that its manifest does not list (a boot that did
 * not finish, a folder someone added): named, not merged.
 */
static void part__name_unlisted(const struct merge *m, int pi)
{
	const struct part *p = &m->parts[pi];
	char *path = xasprintf("%s/boots", p->dir);
	/* PART as the user named it; boots/ beneath it is no link. */
	int pfd = dir_open_user(p->dir, false);
	int bfd = pfd < 0 ? pfd : dir_open_beneath(pfd, "boots", false);
	DIR *d = bfd < 0 ? NULL : fdopendir(bfd);
	struct dirent *e;

	if (bfd < 0 && bfd != -ENOENT)
		fprintf(stderr, WHO ": WARNING: %s: %s\n", path, read_file_strerror(-bfd));
	else if (bfd >= 0 && !d)
		close(bfd);
	if (pfd >= 0)
		close(pfd);
	while (d && (e = readdir(d))) {
		long pos;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		pos = merge__position(m, e->d_name);
		if (pos < 0 || m->owner[pos] != pi) {
			/* The folder's name is the part's: no escape code reaches the terminal. */
			char *name = term_str(e->d_name);

			fprintf(stderr, WHO ": WARNING: %s/%.80s: not in its manifest (a boot that "
				"did not finish?); not merged\n", path, name);
			free(name);
		}
	}
	if (d)
		closedir(d);
	free(path);
}

/* Planned boots no part has: whole shards not given, or boots a part did not finish. */
static void merge__name_missing(struct merge *m)
{
	long n = m->parts[0].n;

	for (long k = 1; k <= n; k++) {
		long lo, hi, nr = 0;
		int given = -1;

		for (int i = 0; i < m->nr_parts; i++)
			if (m->parts[i].k == k)
				given = i;
		shard__range(m->total, k, n, &lo, &hi);
		for (long pos = lo; pos < hi; pos++) {
			char *name;

			if (m->owner[pos] >= 0)
				continue;
			name = plan__boot_name(m->modes.v[pos % m->modes.n],
					       pos / (long)m->modes.n + 1);
			if (given < 0 && !nr)
				fprintf(stderr, WHO ": WARNING: shard %ld/%ld not given; its boots "
					"are missing:", k, n);
			if (given < 0)
				fprintf(stderr, " %s", name);
			else
				fprintf(stderr, WHO ": WARNING: boot %s not finished in %s; missing\n",
					name, m->parts[given].dir);
			free(name);
			nr++;
		}
		if (given < 0 && nr)
			fputc('\n', stderr);
		m->missing += (int)nr;
	}
}

/*
 * The boot's own boot.json must say it is boot @name of mode @mode: a
 * part cannot pass one mode's boot off as another's.  NULL, or why not.
 */
static const char *boot_json__mismatch(int dfd, const char *name, const char *mode)
{
	static char why[512];
	struct boot_file f;
	size_t len = 0;
	char *text = read_file_at(dfd, "boot.json", &len);
	bool same;

	if (!text)
		return read_file_strerror(errno);
	if (boot_file__parse(&f, text, len, "boot.json", why, sizeof(why))) {
		free(text);
		/* "boot.json: why": the caller names the file */
		return why + strlen("boot.json: ");
	}
	free(text);
	same = f.boot && !strcmp(f.boot, name) && f.mode && !strcmp(f.mode, mode);
	boot_file__free(&f);
	return same ? NULL : "its boot.json names another boot or mode";
}

/*
 * Copy one boot folder: regular files with plain names, read without
 * following a link; anything else named and left.  0, or -1 if the boot
 * cannot be merged (its folder or boot.json unreadable or not this boot's,
 * a write failed).
 */
static int copy_boot(const char *part, const char *src, const char *dst, const char *name,
		     const char *mode)
{
	/* boots/NAME beneath the part the user named: neither boots/ nor NAME a link. */
	int pfd = dir_open_user(part, false), dfd = -1, oerr, err = 0;
	char *rel = xasprintf("boots/%s", name);
	const char *why;
	DIR *d;
	struct dirent *e;

	if (pfd >= 0) {
		dfd = open_beneath(pfd, rel, O_RDONLY | O_DIRECTORY, 0);
		oerr = dfd < 0 ? errno : 0;
		close(pfd);
	} else {
		oerr = -pfd;
	}
	free(rel);
	if (dfd < 0)
		return refuse("%s: %s; boot %s not merged", src,
			      oerr == ELOOP ? "a symbolic link (not followed)" :
			      oerr == ENOTDIR ? "not a folder" : strerror(oerr), name);
	why = boot_json__mismatch(dfd, name, mode);
	d = why ? NULL : fdopendir(dfd);
	if (!d) {
		refuse("%s: boot.json: %s; boot %s not merged", src, why ? why : strerror(errno),
		       name);
		close(dfd);
		return -1;
	}
	err = mkdir(dst, 0755) ? -errno : 0;
	while (!err && (e = readdir(d))) {
		char *text, *out;
		size_t len = 0;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		text = name_is_valid(e->d_name) ? read_file_at(dfd, e->d_name, &len) : NULL;
		if (!text) {
			fprintf(stderr, WHO ": WARNING: %s/%.80s: %s; not copied\n", src, e->d_name,
				name_is_valid(e->d_name) ? read_file_strerror(errno)
							 : "not a plain file name");
			continue;
		}
		out = xasprintf("%s/%s", dst, e->d_name);
		err = write_file_or_say(out, text, len, WHO);
		free(out);
		free(text);
	}
	closedir(d);
	if (err)
		return refuse("%s: cannot write it; boot %s not merged", dst, name);
	return 0;
}

/* Where each boot ran, for the merged manifest: the part's host. */
static const char *part__host(const struct part *p)
{
	const char *h = p->man.has_host ? p->man.host.hostname : NULL;

	return h && *h ? h : "?";
}

static void part__manifest(struct manifest_part *mp, const struct part *p, long boots)
{
	const char *slash = strrchr(p->dir, '/');

	*mp = (struct manifest_part){
		.folder = slash ? slash + 1 : p->dir, .k = p->k, .n = p->n,
		.hostname = part__host(p), .has_host = p->man.has_host, .host = p->man.host,
		.jobs = p->man.jobs, .started_at = p->man.started_at,
		.ended_at = p->man.ended_at, .boots = boots,
	};
}

/* A time of @p later (@later) or earlier than *@t, or the first one: into *@t. */
static void keep_time(const char **t, const char *part_t, bool later)
{
	/* ISO 8601 UTC times sort as text; a part that does not say is left out. */
	if (part_t && *part_t && (!*t || (strcmp(part_t, *t) > 0) == later))
		*t = part_t;
}

/*
 * The merged manifest: the first part's (the fields every part shares),
 * without its shard and host, with every merged boot in plan order (each
 * with its host) and the parts it came from.
 */
static int merge__write_manifest(struct merge *m, const char *out, const bool *copied)
{
	struct manifest man = m->parts[0].man;
	char *path;
	int err;

	man.boots = xcalloc(m->total, sizeof(*man.boots));
	man.parts = xcalloc(m->nr_parts, sizeof(*man.parts));
	man.nr_boots = man.nr_parts = 0;
	man.started_at = man.ended_at = NULL;
	man.interrupted = false;
	for (long pos = 0; pos < m->total; pos++) {
		struct manifest_boot *e = &man.boots[man.nr_boots];

		if (!copied[pos])
			continue;
		*e = *m->entry[pos];
		if (!e->host || !*e->host)
			e->host = part__host(&m->parts[m->owner[pos]]);
		man.nr_boots++;
	}
	for (int i = 0; i < m->nr_parts; i++) {
		const struct part *p = &m->parts[i];
		long n = 0;

		for (long pos = 0; pos < m->total; pos++)
			n += copied[pos] && m->owner[pos] == i;
		part__manifest(&man.parts[man.nr_parts++], p, n);
		keep_time(&man.started_at, p->man.started_at, false);
		keep_time(&man.ended_at, p->man.ended_at, true);
		man.interrupted |= p->man.interrupted == 1;
	}
	man.has_shard = false;
	man.has_host = false;
	man.boots_planned = m->total;
	path = xasprintf("%s/manifest.json", out);
	err = manifest__write(&man, path, WHO);
	free(path);
	free(man.boots);
	free(man.parts);
	return err;
}

/* Copy every claimed boot into OUT/boots; the number copied. */
static long merge__copy(struct merge *m, const char *out, bool *copied)
{
	long n = 0;

	for (long pos = 0; pos < m->total; pos++) {
		const char *name;
		char *src, *dst;

		if (m->owner[pos] < 0)
			continue;
		name = m->entry[pos]->boot;
		src = xasprintf("%s/boots/%s", m->parts[m->owner[pos]].dir, name);
		dst = xasprintf("%s/boots/%s", out, name);
		copied[pos] = !copy_boot(m->parts[m->owner[pos]].dir, src, dst, name,
					 m->modes.v[pos % m->modes.n]);
		n += copied[pos];
		m->missing += !copied[pos];
		free(src);
		free(dst);
	}
	return n;
}

static int merge__run(struct merge *m, const char *out, bool quiet)
{
	bool *copied;
	char *boots;
	long n;
	int err;

	for (int i = 0; i < m->nr_parts; i++)
		part__name_unlisted(m, i);
	merge__name_missing(m);
	if (path_exists(out)) {
		refuse("%s: already exists; results are never overwritten", out);
		return 2;
	}
	boots = xasprintf("%s/boots", out);
	err = mkdir_p(boots);
	if (err)
		fprintf(stderr, WHO ": %s: %s\n", boots, strerror(-err));
	free(boots);
	if (err)
		return 2;
	copied = xcalloc(m->total, sizeof(*copied));
	n = merge__copy(m, out, copied);
	err = merge__write_manifest(m, out, copied);
	free(copied);
	if (err)
		return 2;
	if (!quiet)
		fprintf(stderr, WHO ": %s: %ld of %ld planned boots from %d part%s of %ld%s\n", out,
			n, m->total, m->nr_parts, m->nr_parts == 1 ? "" : "s", m->parts[0].n,
			m->missing ? " (missing boots named above)" : "");
	return m->missing ? 1 : 0;
}

static void merge__free(struct merge *m)
{
	for (int i = 0; i < m->nr_parts; i++)
		manifest__free(&m->parts[i].man);
	strv__free(&m->modes);
	free(m->owner);
	free(m->entry);
	free(m);
}

static const struct option merge_opts[] = {
	{ "out", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	bool quiet = false;
	struct merge *m;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:qh", merge_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(merge_usage, stdout);
			return 0;
		}
		if (c == 'o')
			out = optarg;
		else if (c == 'q')
			quiet = true;
		else
			return usage_error("merge", c == ':' ? "option needs a value:"
							    : "unknown option", argv[optind - 1]);
	}
	if (!out)
		return usage_error("merge", "--out RUN is required", NULL);
	if (optind >= argc)
		return usage_error("merge", "no PART folders given", NULL);
	if (argc - optind > MAX_PARTS)
		return usage_error("merge", "too many parts, at most 4096", NULL);
	m = xcalloc(1, sizeof(*m));
	rc = merge__check(m, argc - optind, argv + optind) ? 2 : merge__run(m, out, quiet);
	merge__free(m);
	return rc;
}
