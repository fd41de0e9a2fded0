/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scenarios and modes.  A mode is a named set of kernel command-line
 * arguments and udev settings; a scenario is the modes of a benchmark plus
 * what every boot shares (QEMU devices, boots per mode, timeout).
 */
#ifndef BOOTPROBE_SCENARIO_H
#define BOOTPROBE_SCENARIO_H

#include <stdbool.h>

#define MAX_MODES 16

struct mode {
	char *name;
	char *cmdline;		/* extra kernel arguments, may be "" */
	long event_timeout;	/* udev.event_timeout= seconds, 0 = udev's default */
	char *timeout_signal;	/* udev.timeout_signal=, NULL = udev's default */
	char *kill_policy;	/* kthread.sigkill_policy=, NULL = kernel default */
	long devices;		/* edu devices, -1 = the scenario's */
};

struct scenario {
	char *name;
	char *path;		/* file it came from, or NULL */
	char *cmdline;		/* kernel arguments for every mode */
	long devices;		/* QEMU edu devices (slowprobe binds them) */
	long boots;		/* boots per mode */
	double timeout_s;	/* hard timeout per boot */
	struct mode modes[MAX_MODES];
	int nr_modes;
};

void scenario__init(struct scenario *sc);
void scenario__free(struct scenario *sc);

/*
 * Load a scenario file (INI-like, see bench/scenarios/README.md).  On error
 * returns -1 with a one-line message naming file and line in @err.
 */
int scenario__load(struct scenario *sc, const char *path, char *err, int errlen);

/*
 * Add a mode from a command-line spec: a built-in name ("sync", "async",
 * "async-module") or "NAME:KERNEL ARGS".  -1 with a message on error.
 */
int scenario__add_mode_spec(struct scenario *sc, const char *spec, char *err, int errlen);

/* The kernel command line a boot of @m gets, beyond the fixed console args. */
char *mode__kernel_args(const struct scenario *sc, const struct mode *m);
long mode__devices(const struct scenario *sc, const struct mode *m);

/* A mode or scenario name: [A-Za-z0-9_.-]+, used in folder names. */
bool name_is_valid(const char *name);

#endif
