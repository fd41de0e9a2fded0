// SPDX-License-Identifier: GPL-2.0
/*
 * The boot loop.  Up to `jobs` QEMUs run at once; SIGCHLD, SIGINT and SIGTERM
 * arrive on a signalfd, so the loop sleeps in poll() until a child ends, a
 * deadline passes or the user stops the run.  A finished boot's files are
 * complete before the manifest names it, and the manifest is rewritten
 * after every boot: stopping at any moment loses no finished boot.
 */
#define _GNU_SOURCE
#include "runner.h"
#include "accel.h"
#include "clock.h"
#include "boot.h"
#include "gathered.h"
#include "jsonio.h"
#include "qemu.h"
#include "until.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char *plan__boot_name(const char *mode, long index)
{
	return xasprintf("%s-%03ld", mode, index);
}

void shard__range(long total, long k, long n, long *lo, long *hi)
{
	*lo = (k - 1) * total / n;
	*hi = k * total / n;
}

/* One boot of the plan: its name, devices and kernel arguments. */
static void plan__print_boot(const struct scenario *sc, const struct boot *b, FILE *out)
{
	const struct mode *m = &sc->modes[b->mode];
	char *args = mode__kernel_args(sc, m, b->index);

	if (sc->image == IMAGE_DEBIAN && m->image_name)
		fprintf(out, "%s: image %s; %s\n", b->name, m->image_name,
			*args ? args : "(no mode arguments)");
	else if (sc->image == IMAGE_DEBIAN)
		fprintf(out, "%s: %s\n", b->name, *args ? args : "(no mode arguments)");
	else
		fprintf(out, "%s: %ld edu devices; %s\n", b->name, mode__devices(sc, m), args);
	free(args);
}

/* What makes the plan, paths left out (they differ between hosts), hashed. */
static void plan__hash(const struct run *run, char out[17])
{
	const struct run_opts *opts = run->opts;
	const struct scenario *sc = &opts->sc;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	fprintf(f, "scenario %s: %d modes x %ld boots, time_scale %g, timeout %g, %s, %s %ld\n",
		sc->name, sc->nr_modes, opts->boots, sc->time_scale, opts->timeout_s,
		sc->image_name, sc->controller ? sc->controller : "-", sc->disks);
	for (int i = 0; i < sc->nr_qemu_devices; i++)
		fprintf(f, "qemu device %s\n", sc->qemu_devices[i]);
	for (int i = 0; i < run->nr_boots; i++)
		plan__print_boot(sc, &run->boots[i], f);
	fclose(f);
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ULL;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	free(text);
}

/* Keep shard K/N's boots of the whole plan. */
static void run__keep_shard(struct run *run)
{
	const struct run_opts *opts = run->opts;
	long lo, hi;

	shard__range(run->nr_boots, opts->shard_k, opts->shard_n, &lo, &hi);
	for (long i = 0; i < run->nr_boots; i++)
		if (i < lo || i >= hi)
			free(run->boots[i].name);
	memmove(run->boots, run->boots + lo, (hi - lo) * sizeof(*run->boots));
	run->nr_boots = (int)(hi - lo);
}

void run__plan(struct run *run, const struct run_opts *opts)
{
	const struct scenario *sc = &opts->sc;
	int n = 0;

	run->opts = opts;
	run->nr_boots = (int)(opts->boots * sc->nr_modes);
	run->boots = xcalloc(run->nr_boots, sizeof(*run->boots));
	for (long i = 1; i <= opts->boots; i++) {
		for (int m = 0; m < sc->nr_modes; m++) {
			struct boot *b = &run->boots[n++];

			b->mode = m;
			b->index = (int)i;
			b->name = plan__boot_name(sc->modes[m].name, i);
		}
	}
	run->nr_planned = run->nr_boots;
	plan__hash(run, run->plan_hash);
	if (opts->shard_n)
		run__keep_shard(run);
}

void run__print_plan(const struct run *run, FILE *out)
{
	const struct run_opts *opts = run->opts;
	const struct scenario *sc = &opts->sc;

	fprintf(out, "scenario %s: %d modes x %ld boots, time_scale %g, hard timeout %g s",
		sc->name, sc->nr_modes, opts->boots, sc->time_scale, opts->timeout_s);
	if (sc->controller)
		fprintf(out, ", %s with %ld disks", sc->controller, sc->disks);
	if (sc->image == IMAGE_DEBIAN)
		fprintf(out, ", image %s (%s, %s)", sc->image_name, opts->kernel, opts->root_image);
	for (int i = 0; i < sc->nr_qemu_devices; i++)
		fprintf(out, "%s%s", i ? ", " : ", added QEMU devices: ", sc->qemu_devices[i]);
	fprintf(out, ", %ld at once (%s)\n", opts->jobs, opts->jobs_from);
	fprintf(out, "plan %s: %d boots", run->plan_hash, run->nr_planned);
	if (opts->shard_n)
		fprintf(out, "; shard %ld/%ld: %d of them", opts->shard_k, opts->shard_n,
			run->nr_boots);
	fputc('\n', out);
	for (int i = 0; i < run->nr_boots; i++)
		plan__print_boot(sc, &run->boots[i], out);
}

void run__free(struct run *run)
{
	for (int i = 0; i < run->nr_boots; i++) {
		free(run->boots[i].name);
		free(run->boots[i].dir);
	}
	free(run->boots);
	free(run->id);
	free(run->dir);
	free(run->folder);
	free(run->qemu_version);
	for (int i = 0; i < run->nr_images; i++) {
		struct run_image *im = &run->images[i];

		free(im->kernel);
		free(im->initrd);
		free(im->root_image);
		free(im->build_hash);
		free(im->guest_args);
		json_object_put(im->info);
	}
	memset(run, 0, sizeof(*run));
}

static char *default_run_id(const char *scenario)
{
	char stamp[32];

	now_run_stamp(stamp, sizeof(stamp));
	return xasprintf("%s-%s", stamp, scenario);
}

/* Create results/<id>/boots; an existing run folder is never reused. */
static int run__prepare(struct run *run)
{
	const struct run_opts *opts = run->opts;
	char *boots;
	int err;

	run->id = opts->run_id ? xstrdup(opts->run_id) : default_run_id(opts->sc.name);
	/* Shards share the run id; each part has its own folder, to be merged. */
	run->folder = opts->shard_n ? xasprintf("%s.shard-%ld-of-%ld", run->id, opts->shard_k,
						opts->shard_n) : xstrdup(run->id);
	run->dir = xasprintf("%s/%s", opts->results, run->folder);
	if (path_exists(run->dir)) {
		fprintf(stderr, "bootprobe: %s: already exists; results are never overwritten "
			"(choose another --run-id)\n", run->dir);
		return -EEXIST;
	}
	boots = xasprintf("%s/boots", run->dir);
	err = mkdir_p(boots);
	if (err)
		fprintf(stderr, "bootprobe: %s: %s\n", boots, strerror(-err));
	free(boots);
	return err;
}

static int run__choose_accel(struct run *run)
{
	const struct run_opts *opts = run->opts;
	struct accel_choice ch;

	if (strcmp(opts->accel, "tcg") && !opts->quiet)
		fprintf(stderr, "bootprobe: checking whether a KVM guest boots here...\n");
	if (accel__choose(opts->accel, opts->qemu, opts->kernel, opts->initrd, &ch)) {
		fprintf(stderr, "bootprobe: --accel kvm: %s\n", ch.reason);
		return -1;
	}
	run->accel = ch.accel;
	snprintf(run->accel_reason, sizeof(run->accel_reason), "%s", ch.reason);
	if (!strcmp(opts->accel, "auto") && !strcmp(ch.accel, "tcg"))
		fprintf(stderr, "bootprobe: WARNING: %s; boots are emulated and slower\n",
			ch.reason);
	return 0;
}

/* The image boot @b boots. */
static const struct run_image *run__image(const struct run *run, const struct boot *b)
{
	return &run->images[run->mode_image[b->mode]];
}

/* A boot's kernel arguments after the fixed ones: its initramfs's boot-args, then the mode's. */
static char *run__kernel_args(const struct run *run, const struct boot *b, const char *mode_args)
{
	const char *guest = run__image(run, b)->guest_args;

	return *guest ? xasprintf("%s %s", guest, mode_args) : xstrdup(mode_args);
}

/*
 * The runner adds the initramfs's boot-args to what the scenario checked:
 * they go through the same checks, and every boot's whole kernel command
 * line must fit x86's COMMAND_LINE_SIZE, before any boot starts.  -EINVAL
 * or -E2BIG with one line naming the boot-args file or the boot, and by
 * how much.
 */
static int run__check_cmdlines(const struct run *run)
{
	const struct run_opts *opts = run->opts;
	char why[256];
	int err = 0;

	for (int i = 0; i < run->nr_images && !err; i++) {
		char *path = sibling_path(run->images[i].initrd, "boot-args");

		if (kernel_args__check(run->images[i].guest_args, why, sizeof(why))) {
			fprintf(stderr, "bootprobe: %s: %s\n", path, why);
			err = -EINVAL;
		}
		free(path);
	}
	for (int i = 0; i < run->nr_boots && !err; i++) {
		const struct boot *b = &run->boots[i];
		const struct run_image *im = run__image(run, b);
		char *mode_args = mode__kernel_args(&opts->sc, &opts->sc.modes[b->mode], b->index);
		char *args = run__kernel_args(run, b, mode_args);
		struct qemu_config cfg = { .root_image = im->root_image, .kernel_args = args };
		char *line = qemu__kernel_cmdline(&cfg);
		size_t len = strlen(line);

		if (kernel_cmdline__over(len)) {
			char *path = sibling_path(im->initrd, "boot-args");

			fprintf(stderr, "bootprobe: boot %s: kernel command line is %zu bytes, %zu over "
				KERNEL_CMDLINE_LIMIT ": %zu fixed, %zu of %s, %zu of the scenario and "
				"mode\n", b->name, len, kernel_cmdline__over(len),
				strlen(kernel_fixed_args(im->root_image != NULL)),
				strlen(im->guest_args), path, strlen(mode_args));
			free(path);
			err = -E2BIG;
		}
		free(line);
		free(args);
		free(mode_args);
	}
	return err;
}

static int boot__start(struct run *run, struct boot *b)
{
	const struct run_opts *opts = run->opts;
	const struct mode *m = &opts->sc.modes[b->mode];
	const struct run_image *im = run__image(run, b);
	char *mode_args = mode__kernel_args(&opts->sc, m, b->index);
	char *args = run__kernel_args(run, b, mode_args);
	struct qemu_config cfg = {
		.qemu = opts->qemu, .kernel = im->kernel, .initrd = im->initrd,
		.root_image = im->root_image, .root_writable = opts->root_writable,
		.accel = run->accel, .memory_mb = opts->memory_mb,
		.devices = mode__devices(&opts->sc, m), .kernel_args = args,
		.controller = opts->sc.controller, .disks = opts->sc.disks,
		.extra_devices = opts->sc.qemu_devices,
		.nr_extra_devices = opts->sc.nr_qemu_devices,
	};
	struct strv argv = { 0 };
	char *console, *events, *log, *cmdline, *cmdfile, *text;
	int err;

	b->dir = xasprintf("%s/boots/%s", run->dir, b->name);
	err = mkdir_p(b->dir);
	if (err) {
		fprintf(stderr, "bootprobe: %s: %s\n", b->dir, strerror(-err));
		free(args);
		free(mode_args);
		return err;
	}
	console = xasprintf("%s/console.log", b->dir);
	events = xasprintf("%s/%s", b->dir, PORT_FILE);
	log = xasprintf("%s/qemu.log", b->dir);
	cfg.console_path = console;
	cfg.events_path = events;
	qemu__build_argv(&cfg, &argv);
	cmdline = strv__join_quoted(&argv);
	cmdfile = xasprintf("%s/qemu-cmdline.txt", b->dir);
	text = xasprintf("%s\n", cmdline);
	err = write_file_atomic(cmdfile, text, strlen(text));
	if (!err) {
		now_iso8601(b->started_at, sizeof(b->started_at));
		b->start_ns = mono_ns();
		b->start_real_ns = clock_ns(CLOCK_REALTIME);
		b->deadline_ns = b->start_ns + (uint64_t)(opts->timeout_s * 1e9);
		b->pid = qemu__spawn(&argv, log);
		if (b->pid < 0) {
			err = b->pid;
			b->pid = 0;
		}
	}
	if (err)
		fprintf(stderr, "bootprobe: boot %s: cannot start QEMU: %s\n", b->name, strerror(-err));
	b->started = !err;
	free(text);
	free(cmdfile);
	free(cmdline);
	free(console);
	free(events);
	free(log);
	free(args);
	free(mode_args);
	strv__free(&argv);
	return err;
}

static void progress(struct run *run, const struct boot *last)
{
	double elapsed = (mono_ns() - run->start_ns) / 1e9;
	double eta = run->nr_finished ?
		elapsed / run->nr_finished * (run->nr_boots - run->nr_finished) : 0;
	bool tty = isatty(STDERR_FILENO);

	if (run->opts->quiet)
		return;
	fprintf(stderr, "%sbootprobe: boot %d/%d %s: %s in %.1f s | elapsed %.0f s, ETA %.0f s%s",
		tty ? "\r\033[K" : "", run->nr_finished, run->nr_boots, last->name,
		outcome__name(last->outcome), last->wall_s, elapsed, eta,
		tty && run->nr_finished < run->nr_boots ? "" : "\n");
}

/*
 * What the guest sent for humans (systemd-analyze's output) becomes files
 * of the boot folder, read through the one event-stream reader; a folder
 * of bootprobe-gather (bootprobe.gather=1) becomes its gathered/ folder.
 */
static void boot__save_attachments(const struct boot *b)
{
	char err[256];
	struct boot_data *bd = boot_data__load(b->dir, err, sizeof(err));
	int n = bd ? boot_data__save_attachments(bd) : 0;

	if (n < 0)
		fprintf(stderr, "bootprobe: boot %s: cannot write its systemd-analyze files: %s\n",
			b->name, strerror(-n));
	if (bd)
		gathered__save(bd, b->dir, "bootprobe");
	boot_data__free(bd);
}

/*
 * Seconds from QEMU's start to @path's last change, from its mtime (the
 * filesystem's coarse clock: a jiffy); NAN if not within the boot.
 */
static double boot__last_write_s(const struct boot *b, const char *path)
{
	struct stat st;
	double s;

	if (stat(path, &st))
		return NAN;
	s = ((double)st.st_mtim.tv_sec * 1e9 + st.st_mtim.tv_nsec -
	     (double)b->start_real_ns) / 1e9;
	return s >= 0 && s <= b->wall_s + 1 ? s : NAN;
}

/* The port's stream into events.jsonl; what was lost in it is said and kept. */
static void boot__decode_port(struct boot *b)
{
	int err = port__to_events(b->dir, &b->port);

	if (err)
		fprintf(stderr, "bootprobe: boot %s: cannot decode %s: %s\n", b->name,
			PORT_FILE, strerror(-err));
	else if (port_stats__damaged(&b->port))
		fprintf(stderr, "bootprobe: boot %s: event port: %llu frames refused, "
			"%llu bytes skipped, %llu bytes cut (%s kept)\n", b->name,
			(unsigned long long)b->port.fs.refused,
			(unsigned long long)b->port.fs.skipped_bytes,
			(unsigned long long)b->port.fs.cut_bytes, PORT_FILE);
}

/* Classify, write the boot's files, then name it in the manifest. */
static void boot__finish(struct run *run, struct boot *b, int status)
{
	const struct run_opts *opts = run->opts;
	const struct mode *m = &opts->sc.modes[b->mode];
	char *console_path = xasprintf("%s/console.log", b->dir);
	char *cmdfile = xasprintf("%s/qemu-cmdline.txt", b->dir);
	char *console = read_file(console_path, NULL);
	char *cmdline = read_file(cmdfile, NULL);
	char *args = mode__kernel_args(&opts->sc, m, b->index);
	char *guest_args = run__kernel_args(run, b, args);
	struct qemu_config cfg = { .root_image = run__image(run, b)->root_image,
				   .kernel_args = guest_args };
	char *guest_cmdline = qemu__kernel_cmdline(&cfg);

	b->wall_s = (mono_ns() - b->start_ns) / 1e9;
	b->console_last_write_s = boot__last_write_s(b, console_path);
	b->qe.exited = WIFEXITED(status);
	b->qe.status = WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status);
	b->outcome = outcome__classify(console, &b->qe);
	boot__decode_port(b);
	b->pid = 0;
	b->finished = true;
	if (cmdline)
		cmdline[strcspn(cmdline, "\n")] = '\0';
	if (!results__write_boot(run, b, cmdline, args, guest_cmdline) && opts->root_image)
		boot__save_attachments(b);
	run->nr_finished++;
	results__write_manifest(run);
	progress(run, b);
	free(guest_cmdline);
	free(guest_args);
	free(args);
	free(cmdline);
	free(console);
	free(cmdfile);
	free(console_path);
}

static struct boot *boot_by_pid(struct run *run, pid_t pid)
{
	for (int i = 0; i < run->nr_boots; i++)
		if (run->boots[i].pid == pid)
			return &run->boots[i];
	return NULL;
}

static void reap_children(struct run *run)
{
	struct boot *b;
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		b = boot_by_pid(run, pid);
		if (b)
			boot__finish(run, b, status);
	}
}

static int running_count(const struct run *run)
{
	int n = 0;

	for (int i = 0; i < run->nr_boots; i++)
		n += run->boots[i].pid > 0;
	return n;
}

/* Kill every running QEMU whose deadline passed; ms until the next one. */
static int enforce_deadlines(struct run *run)
{
	uint64_t now = mono_ns(), next = UINT64_MAX;

	for (int i = 0; i < run->nr_boots; i++) {
		struct boot *b = &run->boots[i];

		if (b->pid <= 0 || b->qe.timed_out)
			continue;
		if (now >= b->deadline_ns) {
			b->qe.timed_out = true;
			kill(b->pid, SIGKILL);
		} else if (b->deadline_ns < next) {
			next = b->deadline_ns;
		}
	}
	if (next == UINT64_MAX)
		return 1000;
	return (int)((next - now) / 1000000 + 1);
}

static void kill_all(struct run *run)
{
	for (int i = 0; i < run->nr_boots; i++) {
		struct boot *b = &run->boots[i];

		if (b->pid > 0) {
			b->qe.interrupted = true;
			kill(b->pid, SIGKILL);
		}
	}
}

static int open_signalfd(sigset_t *old)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	/*
	 * A signal ignored at exec (a shell starts background jobs with SIGINT
	 * ignored) would be discarded before it reached the signalfd.
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (sigprocmask(SIG_BLOCK, &mask, old))
		return -errno;
	return signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* Drain the signalfd; true if the user asked to stop. */
static bool read_signals(int sfd)
{
	struct signalfd_siginfo si;
	bool stop = false;

	while (read(sfd, &si, sizeof(si)) == sizeof(si))
		if (si.ssi_signo != SIGCHLD)
			stop = true;
	return stop;
}

static int run__loop(struct run *run, int sfd)
{
	int next = 0, err = 0;
	struct until u;
	bool ended = false;	/* --until-ci said stop */

	until__init(&u, run);
	while (run->nr_finished < run->nr_boots) {
		struct pollfd pfd = { .fd = sfd, .events = POLLIN };
		int timeout;

		while (!run->interrupted && next < run->nr_boots &&
		       running_count(run) < run->opts->jobs &&
		       until__may_start(&u, run->boots[next].index)) {
			err = boot__start(run, &run->boots[next++]);
			if (err)
				break;
		}
		if (err) {
			kill_all(run);
			run->interrupted = true;
		}
		if ((run->interrupted || ended) && running_count(run) == 0)
			break;
		timeout = enforce_deadlines(run);
		if (poll(&pfd, 1, timeout) < 0 && errno != EINTR)
			return -errno;
		if (read_signals(sfd) && !run->interrupted) {
			fprintf(stderr, "\nbootprobe: interrupted; stopping the running boots\n");
			run->interrupted = true;
			kill_all(run);
		}
		reap_children(run);
		ended = until__step(&u, run);
	}
	if (u.on) {
		until__describe(&u, run, run->until_end, sizeof(run->until_end));
		fprintf(stderr, "bootprobe: --until-ci: %s\n", run->until_end);
	}
	return err;
}

/* A Debian image's exact versions, published next to its kernel. */
static int run_image__load_info(struct run_image *im)
{
	char *path = sibling_path(im->kernel, "image.json");
	const char *why = "no kernel_release";

	im->info = jread(path, &why);
	if (!im->info || !*jstr(im->info, "kernel_release")) {
		fprintf(stderr, "bootprobe: %s: %s (make debian-image)\n", path, why);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

/*
 * Image @name's files and what the build published beside them: the
 * scenario's from the run's options (which --kernel and the others may
 * have set), a mode's own from its build folder.
 */
static int run__add_image(struct run *run, const char *name)
{
	const struct run_opts *opts = run->opts;
	struct run_image *im = &run->images[run->nr_images++];
	const char *dir = guest_image__find(name)->dir;

	im->name = name;
	if (run->nr_images == 1) {
		im->kernel = xstrdup(opts->kernel);
		im->initrd = xstrdup(opts->initrd);
		im->root_image = opts->root_image ? xstrdup(opts->root_image) : NULL;
	} else {
		im->kernel = xasprintf("%s/vmlinuz", dir);
		im->initrd = xasprintf("%s/initrd.img", dir);
		im->root_image = xasprintf("%s/root.img", dir);
		if (!path_exists(im->kernel) || !path_exists(im->root_image)) {
			fprintf(stderr, "bootprobe: image %s: %s or %s missing (make debian-image)\n",
				name, im->kernel, im->root_image);
			return -ENOENT;
		}
	}
	/* Published next to the bzImage and the initramfs by the build. */
	im->build_hash = read_sibling_line(im->kernel, "build-hash");
	im->guest_args = read_sibling_line(im->initrd, "boot-args");
	if (!im->guest_args)
		im->guest_args = xstrdup("");
	if (im->root_image && run_image__load_info(im))
		return -ENOENT;
	return 0;
}

/* The scenario's image first, then each other one a mode boots. */
static int run__load_images(struct run *run)
{
	const struct scenario *sc = &run->opts->sc;
	int err = run__add_image(run, sc->image_name);

	for (int i = 0; i < sc->nr_modes && !err; i++) {
		const char *name = mode__image(sc, &sc->modes[i]);
		int j = 0;

		while (j < run->nr_images && strcmp(run->images[j].name, name))
			j++;
		if (j == run->nr_images)
			err = run__add_image(run, name);
		run->mode_image[i] = j;
	}
	return err;
}

int run__execute(struct run *run)
{
	sigset_t old;
	int sfd, err;

	now_iso8601(run->started_at, sizeof(run->started_at));
	run->start_ns = mono_ns();
	err = run__load_images(run);
	if (err)
		return err;
	err = run__check_cmdlines(run);
	if (err)
		return err;
	run->qemu_version = qemu__version(run->opts->qemu);
	if (!run->qemu_version) {
		fprintf(stderr, "bootprobe: %s: not found or not runnable (make deps)\n",
			run->opts->qemu);
		return -ENOENT;
	}
	err = run__prepare(run);
	if (err)
		return err;
	sfd = open_signalfd(&old);
	if (sfd < 0) {
		fprintf(stderr, "bootprobe: signalfd: %s\n", strerror(-sfd));
		return sfd;
	}
	err = run__choose_accel(run);
	if (!err) {
		run->start_ns = mono_ns();	/* ETA counts boots only */
		if (!run->opts->quiet)
			fprintf(stderr, "bootprobe: run %s: %s%d boots (%d modes x %ld), %ld at once, accel %s, results in %s\n",
				run->id, run->opts->until_ci_s > 0 ? "up to " : "",
				run->nr_boots, run->opts->sc.nr_modes,
				run->opts->boots, run->opts->jobs, run->accel, run->dir);
		err = run__loop(run, sfd);
	}
	now_iso8601(run->ended_at, sizeof(run->ended_at));
	results__write_manifest(run);
	close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}
