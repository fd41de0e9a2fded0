/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The phases of a boot that reaches systemd (image debian), as bootprobe
 * measured them and as systemd-analyze printed them on the same boot, side
 * by side.  systemd-analyze sees the kernel as one number (with a
 * non-systemd initramfs, "kernel" runs until systemd starts in the real
 * root); bootprobe splits it at the initramfs's /init and adds the driver
 * probes.
 */
#ifndef BOOTPROBE_PHASES_H
#define BOOTPROBE_PHASES_H

#include <stdbool.h>

#include "boot.h"

enum boot_phase {
	PH_TO_INIT,		/* kernel start -> initramfs /init */
	PH_INITRAMFS,		/* initramfs /init -> systemd's exec in the real root */
	PH_TO_SYSTEMD,		/* kernel start -> systemd starts in the real root */
	PH_USERSPACE,		/* systemd -> multi-user.target */
	PH_TO_TARGET,		/* kernel start -> multi-user.target */
	PH_LAST_PROBE,		/* kernel start -> end of the last user-space probe */
	PH_BOOT,		/* boot_data__boot_time() */
	PH_TAIL,		/* multi-user.target -> QEMU's exit (host clock) */
	PH_COUNT
};

/* Who measured a phase. */
enum phase_source { PS_BOOTPROBE, PS_SYSTEMD, PS_COUNT };

extern const char *const phase_names[PH_COUNT];	/* "to_init_s", ... */
extern const char *const phase_titles[PH_COUNT];	/* "kernel start → initramfs /init", ... */

/* Seconds per phase and source; NAN where that source does not see it. */
struct boot_phases {
	double s[PS_COUNT][PH_COUNT];
	bool systemd;		/* the boot sent what systemd-analyze time said */
};

void boot__phases(const struct boot_data *b, struct boot_phases *p);

/*
 * Where one boot of our own /init spends its time, as bootprobe measures
 * it: the stages follow one another from QEMU's start to boot complete
 * (kernel start is printk's 0); the collector's start-up runs beside them.
 */
enum boot_stage {
	ST_FIRMWARE,		/* QEMU start -> kernel start (host clock) */
	ST_KERNEL,		/* kernel start -> /init */
	ST_INIT,		/* /init -> udevd launched (waits for the collector if told to) */
	ST_UDEVD,		/* udevd launched -> coldplug starts */
	ST_COLDPLUG,		/* udevadm trigger -> udev's queue empty */
	ST_SETTLE,		/* queue empty -> the expected devices probed */
	ST_TAIL,		/* -> boot complete */
	ST_COLLECTOR,		/* collector launched -> all its programs attached */
	ST_COUNT
};

extern const char *const stage_names[ST_COUNT];	/* "firmware_s", ... */
extern const char *const stage_titles[ST_COUNT];

/* Seconds per stage, NAN where a mark is missing; false if none is known. */
bool boot__stages(const struct boot_data *b, double s[ST_COUNT]);

#endif
