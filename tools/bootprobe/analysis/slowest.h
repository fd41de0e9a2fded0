/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which probes made a boot slow: its probes by duration, what started each,
 * the milestones probes can hold up (the root device, /init's hand-over,
 * multi-user.target) with the probes that ended last before each, and the
 * device units systemd's critical chain waited on.  One boot's answers, for
 * report.md's first tables and the probe timeline chart alike.
 */
#ifndef BOOTPROBE_SLOWEST_H
#define BOOTPROBE_SLOWEST_H

#include "boot.h"
#include "rundata.h"

/* The milestones a probe can hold up, in the order a boot usually reaches them. */
enum milestone {
	MS_ROOT,		/* the disk root= names registered (device_add_disk()) */
	MS_HANDOVER,		/* PID 1 executes the root's init: the initramfs hands over */
	MS_COLDPLUG,		/* our /init: udev's queue empty after coldplug */
	MS_MULTI_USER,		/* multi-user.target reached */
	MS_COUNT
};

/* "root device ready", ...; a short form for a chart's key. */
extern const char *const milestone_titles[MS_COUNT];

struct milestone_at {
	double s;			/* seconds since kernel start; NAN: not in this boot */
	char what[NAME_LEN];		/* MS_ROOT: the disk ("vda"), else "" */
	const struct devnode *made_by;	/* MS_ROOT: its registration (driver, device) */
};

/*
 * The milestones of @b.  The root disk is the kernel's root=/dev/NAME (the
 * command line the guest sent, else boot.json's); a root=UUID=... or a disk
 * never registered leaves MS_ROOT NAN, with @what saying which when known.
 */
void boot__milestones(const struct boot_data *b, struct milestone_at ms[MS_COUNT]);

/* A probe with a known start and end on the records' clock. */
bool probe_span__timed(const struct probe_span *p);

/*
 * The timed probes of @b, the longest first (ties: the earlier start):
 * indexes into b->probes, *@n of them.  The caller frees.
 */
int *boot__probes_by_duration(const struct boot_data *b, int *n);

/*
 * At most @max probes of @b that ended at or before @t seconds (a probe
 * whose end is known on the records' clock), the latest end first; their
 * indexes into @out.  How many.
 */
int boot__probes_before(const struct boot_data *b, double t, int *out, int max);

/*
 * What made probe @p run, in words, into @buf: "module virtio_blk, loaded by
 * (udev-worker), pid 231", "kernel initcall", "deferred probe retry",
 * "device added by kworker/0:1, pid 12".  The loader's name comes from the module load
 * record of the same pid and module when the stream has it.
 */
const char *probe_span__cause(const struct boot_data *b, const struct probe_span *p, char *buf,
			      size_t len);

/* The device units systemd's critical chain waited on, as one boot's stream sent them. */
#define CHAIN_DEVICES_MAX 16
struct chain_device {
	char unit[128];
	double at_s;			/* active, seconds since kernel start; NAN if unknown */
	double took_s;			/* "+N" of the chain, NAN if not printed */
	const struct devnode *made_by;	/* the disk or interface it names, NULL if none */
};

/*
 * The *.device units on @b's critical chain (systemd-analyze-critical-chain
 * from the stream), in chain order, at most CHAIN_DEVICES_MAX into @out.
 * Their times are placed on kernel-start seconds by systemd-analyze time's
 * (kernel + initrd), else by multi-user.target's own timestamp.  How many;
 * -1 when the boot sent no critical chain.
 */
int boot__chain_devices(const struct boot_data *b, struct chain_device *out);

/* The ok boot of @m whose boot time is closest to the mode's median: its typical boot. */
const struct boot_data *run_data__typical_boot(const struct run_data *r,
					       const struct mode_stats *m);

#endif
