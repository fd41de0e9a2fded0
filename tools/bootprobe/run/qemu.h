/* SPDX-License-Identifier: GPL-2.0 */
/* The QEMU command line of a boot, and starting it. */
#ifndef BOOTPROBE_QEMU_H
#define BOOTPROBE_QEMU_H

#include <stdbool.h>
#include <sys/types.h>

#include "util.h"

/*
 * Arguments every boot's kernel gets, before the mode's own: the serial
 * console, a panic ends QEMU (with -no-reboot), and user space's log lines
 * (/init's, systemd-udevd's) reach the console unthrottled.
 */
#define KERNEL_BASE_ARGS "console=ttyS0 panic=-1 printk.devkmsg=on"

/*
 * The lab machine's: legacy (PIR table) PCI interrupt routing instead of
 * ACPI's.  Under TCG, interpreting the AML that enables an interrupt link
 * took 0.24 s of the first PCI probe on each link (the event port's
 * virtio-pci probe: 240 ms with ACPI routing, 4 ms without), time no real
 * machine spends.  The real-world machine keeps ACPI routing.
 */
#define LAB_BASE_ARGS "acpi=noirq"

/*
 * The real-world machine's extra arguments: the root file system on the
 * first virtio disk, and the guest reboots (ending QEMU) once its trace is
 * out (bootprobe-finish.service reads bootprobe.reboot=1).
 */
#define DEBIAN_BASE_ARGS "root=/dev/vda ro bootprobe.reboot=1"

/* What every boot's kernel gets before the mode's arguments, on either machine. */
static inline const char *kernel_fixed_args(bool realistic)
{
	return realistic ? KERNEL_BASE_ARGS " " DEBIAN_BASE_ARGS : KERNEL_BASE_ARGS " " LAB_BASE_ARGS;
}

struct qemu_config {
	const char *qemu;		/* binary, e.g. qemu-system-x86_64 */
	const char *kernel;		/* bzImage */
	const char *initrd;
	const char *root_image;		/* real-world machine: its root disk, else NULL */
	bool root_writable;		/* boots write to it (else snapshot=on) */
	const char *accel;		/* "tcg" or "kvm" */
	long memory_mb;
	long devices;			/* edu devices for slowprobe */
	const char *controller;		/* mptsas1068, virtio-scsi or NULL */
	long disks;			/* on the controller, each a null-co disk */
	char *const *extra_devices;	/* a Debian machine's added models (qemu_devices) */
	int nr_extra_devices;
	const char *kernel_args;	/* the mode's arguments */
	const char *console_path;	/* serial console goes here */
	const char *events_path;	/* the virtio-serial event port goes here */
};

/*
 * True if @model is a QEMU device model a scenario may add to the Debian
 * machine (qemu_devices =): a SCSI host adapter, a network card, a disk
 * controller, each added with what it needs (a null disk, a hub port).
 */
bool qemu__extra_device_known(const char *model);
/* "megasas, pvscsi, ...": the models, for messages. */
const char *qemu__extra_device_names(void);

/* The kernel command line QEMU passes (-append): fixed arguments, then the mode's. */
char *qemu__kernel_cmdline(const struct qemu_config *cfg);

/* The full argv (argv[0] = qemu binary) of one boot. */
void qemu__build_argv(const struct qemu_config *cfg, struct strv *argv);

/*
 * Start QEMU with stdin from /dev/null and stdout+stderr into @log_path.
 * The child dies with the runner (PR_SET_PDEATHSIG).  pid or -errno.
 */
pid_t qemu__spawn(const struct strv *argv, const char *log_path);

/* First line of `qemu --version`, or NULL; caller frees. */
char *qemu__version(const char *qemu);

#endif
