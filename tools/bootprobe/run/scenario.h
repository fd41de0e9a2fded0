/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scenarios and modes.  A mode is a named set of kernel command-line
 * arguments and udev settings; a scenario is the modes of a benchmark plus
 * what every boot shares: the device fleet, boots per mode, a time scale,
 * the hard timeout.  The format is documented in README.md, "Scenario files".
 */
#ifndef BOOTPROBE_SCENARIO_H
#define BOOTPROBE_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_MODES	16
#define MAX_DEVICES	24
#define MAX_QEMU_DEVICES 8

/* A per-device time in ms: a list by device, or a distribution drawn per boot. */
struct timespec_ms {
	enum { TS_NONE, TS_LIST, TS_UNIFORM, TS_NORMAL } kind;
	long v[MAX_DEVICES];	/* TS_LIST; -1 = "end" (kthread_at_ms) */
	int n;
	double a, b;		/* uniform: low, high; normal: mean, sd */
	int line;		/* where it was set, for later checks */
};

enum probing {
	PROBING_DEFAULT,	/* whatever the driver asks for */
	PROBING_ASYNC_PROBE,	/* DRIVER.async_probe=1, one module */
	PROBING_DRIVER_ASYNC,	/* driver_async_probe=*, every driver */
	PROBING_MODULE_ASYNC,	/* module.async_probe=1, every module */
};

struct mode {
	char *name;
	char *cmdline;		/* extra kernel arguments, may be "" */
	enum probing probing;
	/* udev's event timeout in seconds before scaling, 0 = not set, by the
	 * three ways of asking for it: kernel command line, udev.conf, and a
	 * rules line OPTIONS+="event_timeout=N" (udev 252 ignores that one). */
	double event_timeout;
	double conf_event_timeout;
	double rules_event_timeout;
	char *timeout_signal;	/* udev.timeout_signal=, NULL = udev's default */
	char *kill_policy;	/* killable, unkillable, grace; NULL = kernel default */
	long grace_ms;		/* for grace, before scaling */
	long devices;		/* edu devices, -1 = the scenario's */
	const char *image_name;	/* a Debian image of its own, NULL = the scenario's */
	int line_image;
	int line;		/* of the section header */
	int line_devices, line_cmdline;
	int line_event_timeout;
};

/* The guest a scenario boots. */
enum guest_image {
	IMAGE_LAB,	/* our patched tinyconfig kernel, busybox /init, slowprobe */
	IMAGE_DEBIAN,	/* Debian's stock kernel, initramfs-tools, systemd (q35) */
};

/* An image a scenario can boot: the lab's, or one per Debian release. */
struct guest_image_info {
	const char *name;	/* as `image =` and --image name it */
	enum guest_image kind;
	const char *dir;	/* its files (make debian-image DEBIAN_RELEASE=name) */
	const char *what;	/* for --help and errors */
};

/* The image named @name, or NULL. */
const struct guest_image_info *guest_image__find(const char *name);
/* "lab, debian, debian-12, ...": the names, for messages. */
const char *guest_image__names(void);

struct scenario {
	char *name;
	char *path;		/* file it came from, or NULL */
	int line;		/* of the [scenario] header, 0 = none (yet) */
	char *cmdline;		/* kernel arguments for every mode */
	long devices;		/* QEMU edu devices (slowprobe binds them) */
	long boots;		/* boots per mode */
	long jobs;		/* boots at once: 0 = not set, JOBS_AUTO = one per CPU */
	double timeout_s;	/* hard timeout per boot (never scaled) */
	double time_scale;	/* multiplies every guest time below */
	/* The slowprobe fleet; kind TS_NONE leaves slowprobe's defaults. */
	struct timespec_ms probe_ms, kthread_at_ms;
	long nthreads;		/* -1 = slowprobe's default */
	long fw_wait_ms;	/* -1 = slowprobe's default */
	uint64_t seed;		/* for distributions; boot i of every mode gets the same draw */
	char *driver;		/* the module async_probe=1 is given to */
	char *baseline;		/* the mode others are compared with, NULL = sync or first */
	int line_baseline;
	enum guest_image image;
	const char *image_name;	/* its guest_image_info's name ("lab" by default) */
	int line_image;
	char *controller;	/* real storage: mptsas1068 or virtio-scsi, or NULL */
	/* A Debian machine's added QEMU models (qemu_devices = a, b): the fleet's
	 * controllers and cards, each known to qemu.c. */
	char *qemu_devices[MAX_QEMU_DEVICES];
	int nr_qemu_devices, line_qemu_devices;
	long disks;
	int line_controller, line_disks, line_fw_wait;
	struct mode modes[MAX_MODES];
	int nr_modes;
};

/* The image @m boots: its own, else the scenario's. */
const char *mode__image(const struct scenario *sc, const struct mode *m);
void scenario__init(struct scenario *sc);
void scenario__free(struct scenario *sc);

/*
 * Load a scenario file (INI-like, see README.md).  On error
 * returns -1 with a one-line message naming file and line in @err.
 */
int scenario__load(struct scenario *sc, const char *path, char *err, int errlen);

/*
 * The checks across keys ("impossible combinations"), run by
 * scenario__load() and again after command-line overrides.
 */
int scenario__validate(const struct scenario *sc, char *err, int errlen);

/*
 * Add a mode from a command-line spec: a built-in name ("sync", "async",
 * "async-module") or "NAME:KERNEL ARGS".  -1 with a message on error.
 */
int scenario__add_mode_spec(struct scenario *sc, const char *spec, char *err, int errlen);

/*
 * The kernel command line boot @index (1-based) of @m gets, beyond the fixed
 * console args.  Distributions are drawn from (seed, index, device) only, so
 * boot i of every mode sees the same fleet.
 */
char *mode__kernel_args(const struct scenario *sc, const struct mode *m, long index);
long mode__devices(const struct scenario *sc, const struct mode *m);
/* The module async_probe=1 goes to, or NULL if the scenario has none. */
const char *scenario__driver(const struct scenario *sc);
/* Most disks a controller model takes, 0 for an unknown model. */
long controller__max_disks(const char *model);

/*
 * x86's COMMAND_LINE_SIZE: the kernel keeps 2047 bytes of its command line
 * and a NUL (the boot protocol's cmdline_size), and drops the rest unsaid.
 */
#define KERNEL_CMDLINE_SIZE	2048
#define KERNEL_CMDLINE_LIMIT	"the 2047 bytes x86 takes (COMMAND_LINE_SIZE 2048 with its NUL)"

/* How many bytes a kernel command line of @len bytes is over the limit; 0 if it fits. */
size_t kernel_cmdline__over(size_t len);

/*
 * Kernel arguments as someone wrote them (a cmdline key, a NAME:ARGS mode,
 * --append): printable bytes, every double quote closed, short enough to
 * fit after the fixed arguments.  -1 with the reason in @why, which names
 * no source: the caller says where they came from.
 */
int kernel_args__check(const char *args, char *why, int whylen);

/*
 * The first mode whose kernel command line (boot 1's, the fixed arguments
 * included) does not fit, its length in *@len; NULL if every mode's fits.
 * The runner checks every boot's, with the initramfs's boot-args.
 */
const struct mode *scenario__too_long(const struct scenario *sc, size_t *len);

/* A mode or scenario name: [A-Za-z0-9_.-]+, used in folder names. */
bool name_is_valid(const char *name);

/* "auto" or a whole number 1..MAX_JOBS: --jobs and a scenario's jobs key. */
#define JOBS_AUTO	(-1L)
#define MAX_JOBS	64
bool jobs__parse(const char *s, long *jobs);

#endif
