/* SPDX-License-Identifier: GPL-2.0 */
/* `bootprobe run`: boot the guest N times per mode and keep every boot. */
#ifndef BOOTPROBE_RUNNER_H
#define BOOTPROBE_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "outcome.h"
#include "port.h"

struct json_object;
#include "scenario.h"

struct run_opts {
	struct scenario sc;
	long boots;		/* per mode */
	long jobs;
	char jobs_from[64];	/* "--jobs", "scenario", "... auto: N CPUs available", "default" */
	double timeout_s;
	long memory_mb;
	const char *accel;	/* auto, kvm, tcg */
	const char *results;	/* results root */
	const char *run_id;	/* NULL: generated */
	const char *kernel;
	const char *initrd;
	const char *root_image;	/* the Debian image's root disk, else NULL */
	bool root_writable;	/* boots keep what they write to it */
	const char *qemu;
	bool quiet;
	bool json;		/* print the manifest on stdout at the end */
	bool dry_run;		/* print every boot's kernel arguments, boot nothing */
	long shard_k, shard_n;	/* --shard K/N: this part of the plan; 0/0 the whole run */
	/* --until-ci: boots is then the budget (--max-boots); until.h */
	double until_ci_s;	/* 0: a fixed run */
	long until_min;		/* rounds before the rule is first checked */
};

struct boot {
	int mode;		/* index into sc.modes */
	int index;		/* 1-based within its mode */
	char *name;		/* e.g. "async-003" */
	char *dir;
	pid_t pid;		/* while running, else 0 */
	uint64_t start_ns;
	uint64_t start_real_ns;	/* CLOCK_REALTIME then, for file times */
	uint64_t deadline_ns;
	char started_at[32];
	double wall_s;
	/*
	 * QEMU start to the console's last write (console.log's mtime), on
	 * the host's clock; NAN if not known.  With the stamp of the last
	 * line the analysis places the kernel's start on the host's clock.
	 */
	double console_last_write_s;
	struct port_stats port;	/* the event port's stream, decoded */
	struct qemu_exit qe;
	enum outcome outcome;
	bool started;
	bool finished;
};

/*
 * An image the run boots: the scenario's (images[0], from the run's
 * options), and each other one a mode chooses (image = in its section).
 */
struct run_image {
	const char *name;
	char *kernel, *initrd, *root_image;
	char *build_hash;
	char *guest_args;	/* from boot-args next to the initrd, or "" */
	struct json_object *info;	/* a Debian image: image.json, exact versions */
};

struct run {
	const struct run_opts *opts;
	char *id;
	char *dir;
	char *kernel_args_base;
	const char *accel;
	char accel_reason[256];
	char *qemu_version;
	struct run_image images[MAX_MODES];
	int nr_images;
	int mode_image[MAX_MODES];	/* a mode's index in images */
	char started_at[32];
	char ended_at[32];
	uint64_t start_ns;
	struct boot *boots;
	int nr_boots;		/* this run's (a shard's share of the plan) */
	int nr_planned;		/* the whole plan's, every shard together */
	/*
	 * FNV-1a of the whole plan (every shard's boots): the scenario's name,
	 * counts, time scale, timeout, controller, image and every boot's
	 * name, devices and kernel arguments.  Equal: the same boots and draws.
	 */
	char plan_hash[17];
	char *folder;		/* RESULTS/FOLDER: the run id, a shard's with .shard-K-of-N */
	int nr_finished;
	bool interrupted;
	char until_end[512];	/* --until-ci: why it stopped, for the manifest */
};

/* Parse `run` arguments into @opts; -1 with a one-line message in @err. */
int run_opts__parse(struct run_opts *opts, int argc, char **argv, char *err, int errlen);
void run_opts__free(struct run_opts *opts);
void run__usage(FILE *out);

/*
 * Plan the boots: modes interleaved so drift spreads over all of them.
 * Plan position i (0-based) is boot index i / modes + 1 of mode i % modes,
 * named plan__boot_name().  With --shard K/N only shard__range()'s part is
 * kept, with its names, indexes and draws unchanged.
 */
void run__plan(struct run *run, const struct run_opts *opts);
/* What run__execute() would boot, one line per boot, for --dry-run. */
void run__print_plan(const struct run *run, FILE *out);
/* "MODE-NNN": a boot's name, the same in every shard and in a merged run. */
char *plan__boot_name(const char *mode, long index);
/*
 * Shard @k of @n (1-based) of a plan of @total boots: positions [*lo, *hi).
 * Contiguous slices of the interleaved plan: each shard keeps the modes
 * interleaved, and when N divides the boots per mode every shard holds
 * whole rounds (every mode equally often).
 */
void shard__range(long total, long k, long n, long *lo, long *hi);

int run__execute(struct run *run);
void run__free(struct run *run);

/*
 * Files of a finished boot and the run's manifest (results.c).  boot.json
 * keeps @kernel_args (the scenario's and the mode's) and what the guest
 * read from its whole command line @guest_cmdline (struct boot_settings).
 */
int results__write_boot(const struct run *run, const struct boot *b,
			const char *qemu_cmdline, const char *kernel_args,
			const char *guest_cmdline);
int results__write_manifest(const struct run *run);

#endif
