/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results format: RUN/manifest.json and RUN/boots/NAME/boot.json, their
 * keys, types, schema versions and outcome names, with the one writer and
 * the one reader of each.  `run`, `merge` and `import` write through here,
 * `merge`, `report`, `explain`, `timeline` and `compare` read through here;
 * docs/results.md describes every key.
 *
 * A struct holds what a file says.  Writing: a string NULL, a number NAN
 * or -1, a has_* false is a key left out (a key with no value is never
 * written).  Reading: the same for a key missing, null or of another type;
 * strings point into the parsed file, kept in ->json until *__free().
 */
#ifndef BOOTPROBE_RESULTFILES_H
#define BOOTPROBE_RESULTFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;
struct strv;

/*
 * The schema this bootprobe writes, and the oldest it reads.  0 is a file
 * without "schema" (boot.json before it had one); the manifest was 1
 * already.  Raise RESULTS_SCHEMA when a key changes meaning or goes away.
 */
#define RESULTS_SCHEMA		1
#define RESULTS_SCHEMA_OLDEST	0

/* What became of one boot: boot.json's and the manifest's "outcome". */
enum outcome {
	OUTCOME_OK,		/* the guest's /init reported boot complete */
	OUTCOME_TIMEOUT,	/* killed at the hard timeout */
	OUTCOME_PANIC,		/* the kernel panicked */
	OUTCOME_QEMU_ERROR,	/* QEMU failed or ended without a finished boot */
	OUTCOME_INTERRUPTED,	/* the runner was stopped during this boot */
};

/* "ok", "timeout", "panic", "qemu-error", "interrupted". */
const char *outcome__name(enum outcome o);

/* How QEMU ended: boot.json's "qemu_exit". */
struct qemu_exit {
	bool timed_out;		/* we killed it at the deadline */
	bool interrupted;	/* we killed it because the runner stops */
	bool exited;		/* exited on its own (else killed by a signal) */
	int status;		/* exit code, or the signal number */
};

/* How the event port's binary stream decoded: boot.json's "event_port". */
struct port_counts {
	int64_t frames, samples, refused, skipped_bytes, cut_bytes;
};

/* RUN/boots/NAME/boot.json: one boot. */
struct boot_file {
	int schema;			/* read: the file's; written: RESULTS_SCHEMA */
	const char *boot, *mode;
	long index;			/* 1-based within its mode; -1 unknown */
	const char *outcome;		/* outcome__name()'s */
	bool has_qemu_exit;
	struct qemu_exit qemu_exit;
	double wall_s;			/* QEMU start to exit, host clock */
	double console_last_write_s;	/* QEMU start to console.log's mtime */
	bool has_event_port;		/* the port carried a binary stream */
	struct port_counts event_port;
	const char *started_at, *accel, *host;
	const char *kernel_cmdline;	/* the scenario's and the mode's arguments */
	/*
	 * What the guest read from its whole command line, written as a group
	 * ("" for none: the default); without them (an old or imported
	 * boot.json) the analysis reads kernel_cmdline.
	 */
	bool has_settings;
	double udev_event_timeout_s;
	const char *udev_timeout_signal, *kill_policy;
	const char *image, *kernel_release, *kernel_package;
	/* what made the image's initrd: "initramfs-tools 0.148.3", "dracut 106-6" */
	const char *initrd_generator;
	/* the image's udev package ("257.13-1~deb13u1"): when udevd kills */
	const char *udev_version;
	const char *machine, *imported_from;	/* bootprobe import's */
	const char *qemu_cmdline;
	long devices;			/* test devices; -1 unknown */
	struct json_object *json;	/* read: the file, which the strings are of */
};

/* A struct boot_file with nothing set. */
void boot_file__init(struct boot_file *f);
/* @f as JSON, keys in the documented order; the caller puts it. */
struct json_object *boot_file__json(const struct boot_file *f);
/* @f at @path, written whole; 0, or -1 after "@who: PATH: why" on stderr. */
int boot_file__write(const struct boot_file *f, const char *path, const char *who);
/*
 * @len bytes of boot.json text, @label its name in messages; 0, or -1 with
 * "LABEL: why" in @err (not JSON, or a schema this bootprobe does not read).
 */
int boot_file__parse(struct boot_file *f, const char *text, size_t len, const char *label,
		     char *err, int errlen);
void boot_file__free(struct boot_file *f);

/* The machine a run (or a part of it) ran on: the manifest's "host". */
struct host_info {
	const char *hostname, *kernel, *machine;
	long cpus, memory_mb;		/* -1 unknown */
};

/* A mode of the scenario, with what its first boot ran with. */
struct manifest_mode {
	const char *name, *kernel_args;
	/* scaled seconds; NAN when the mode does not set it */
	double udev_event_timeout_s, udev_conf_event_timeout_s, rules_event_timeout_s;
	const char *udev_timeout_signal, *kill_policy;
	long grace_ms;			/* kill policy grace only; else -1 */
	long devices;			/* -1 unknown */
	const char *image;		/* a Debian image of its own (a mode's image =) */
};

/* A finished boot the run holds. */
struct manifest_boot {
	const char *boot, *mode, *dir, *outcome;
	double wall_s;
	const char *host;
};

/* run --shard K/N: which part, its plan positions [first, end). */
struct manifest_shard {
	long k, n, first, end;
	const char *folder;
};

/* bootprobe merge: a part the run was joined from. */
struct manifest_part {
	const char *folder;
	long k, n;
	const char *hostname;
	bool has_host;
	struct host_info host;
	long jobs;
	const char *started_at, *ended_at;
	long boots;
};

/* run --until-ci: the rule and what ended it. */
struct manifest_until {
	double ci_width_s;
	long first_check_after, max_boots_per_mode;
	const char *ended;
};

/* RUN/manifest.json: the run. */
struct manifest {
	int schema;			/* read: the file's; written: RESULTS_SCHEMA */
	const char *run_id, *scenario, *scenario_file;
	double time_scale;
	const char *controller, *image, *root_image;
	int root_writable;		/* 0, 1; -1 unknown */
	struct json_object *image_info;	/* the image's image.json, as it is */
	const char *baseline;
	bool has_host;
	struct host_info host;
	const char *qemu_version;
	const char *accel_requested, *accel_used, *accel_reason;
	const char *kernel, *initrd, *kernel_build_hash, *guest_args;
	long boots_per_mode, jobs;
	const char *jobs_from;
	double timeout_s;
	struct manifest_mode *modes;
	size_t nr_modes;
	long boots_planned;
	const char *plan_hash;
	long plan_boots;
	bool has_shard;
	struct manifest_shard shard;
	bool has_boots;			/* read: the file lists boots (none yet, maybe) */
	struct manifest_boot *boots;
	size_t nr_boots;
	struct manifest_part *parts;
	size_t nr_parts;
	const char *started_at, *ended_at;
	int interrupted;		/* 0, 1; -1 unknown */
	bool has_until;
	struct manifest_until until;
	struct json_object *json;	/* read: the file, which the strings are of */
};

void manifest__init(struct manifest *m);
void host_info__init(struct host_info *h);
void manifest_mode__init(struct manifest_mode *mm);
void manifest_boot__init(struct manifest_boot *mb);
struct json_object *manifest__json(const struct manifest *m);
int manifest__write(const struct manifest *m, const char *path, const char *who);
/*
 * As boot_file__parse(); what is odd but not fatal (a time_scale that is
 * no factor) is pushed on @warnings, each naming @label.
 */
int manifest__parse(struct manifest *m, const char *text, size_t len, const char *label,
		    struct strv *warnings, char *err, int errlen);
/* @path read (a regular file, bounded) and parsed; -1 with @err naming @path. */
int manifest__read(struct manifest *m, const char *path, struct strv *warnings, char *err,
		   int errlen);
/* Frees what the reader allocated: not what a writer's caller set. */
void manifest__free(struct manifest *m);

/* The file's schema from its "schema" key: 0 without, -1 not one this bootprobe reads. */
int results__schema(struct json_object *o, const char *label, char *err, int errlen);

#endif
