// SPDX-License-Identifier: GPL-2.0
#include "phases.h"
#include "analyze.h"
#include "sdanalyze.h"

#include <math.h>
#include <string.h>

const char *const phase_names[PH_COUNT] = {
	"to_init_s", "initramfs_s", "to_systemd_s", "userspace_s", "to_target_s",
	"last_probe_end_s", "boot_s", "tail_s",
};

const char *const phase_titles[PH_COUNT] = {
	"kernel start → initramfs /init",
	"initramfs /init → systemd's exec in the root",
	"kernel start → systemd starts in the root",
	"systemd → multi-user.target",
	"kernel start → multi-user.target",
	"kernel start → end of the last driver probe",
	"boot time (bootprobe's definition)",
	"multi-user.target → QEMU's exit (the tail)",
};

static double diff(double later, double earlier)
{
	return later - earlier;	/* NAN propagates */
}

static double firmware_s(const struct boot_data *b);

/*
 * What the boot cost after multi-user.target: systemd-analyze, the
 * collector's end, the reset, QEMU's exit.  QEMU's wall time less the
 * firmware (QEMU start to kernel start, host clock) and multi-user.target
 * on printk's clock (guest time follows the host's).
 */
static double tail_s(const struct boot_data *b)
{
	double s = b->wall_s - firmware_s(b) - (b->multi_user_s + b->printk_offset_s);

	return s >= 0 ? s : NAN;
}

/*
 * When systemd started in the root: PID 1's exec as the collector saw it;
 * else the initramfs's hand-over mark (before run-init empties the
 * initramfs, about a second early under TCG); else systemd's first console
 * line (some 0.5 s late).
 */
static double root_start(const struct boot_data *b)
{
	if (!isnan(b->init_exec_s))
		return b->init_exec_s;
	return isnan(b->handover_s) ? b->systemd_start_s : b->handover_s;
}

/*
 * bootprobe's side: the kernel starting the initramfs's /init, systemd's start, the
 * multi-user.target's own timestamp, the probes.
 */
static void bootprobe_side(const struct boot_data *b, double *s)
{
	double root = root_start(b);
	struct boot_metrics bm;
	/* The kernel's "Run /init as init process", else the init-top mark. */
	double init = isnan(b->kernel_done_s) ? b->init_start_s : b->kernel_done_s;

	s[PH_TO_INIT] = init;
	s[PH_INITRAMFS] = diff(root, init);
	s[PH_TO_SYSTEMD] = root;
	s[PH_USERSPACE] = diff(b->multi_user_s, root);
	s[PH_TO_TARGET] = b->multi_user_s;
	boot__metrics(b, &bm);
	s[PH_LAST_PROBE] = bm.last_probe_end_s;
	s[PH_BOOT] = bm.boot_s;
	s[PH_TAIL] = tail_s(b);
}

/*
 * systemd-analyze's side.  With a systemd initrd it prints kernel and
 * initrd apart; with initramfs-tools (no systemd in the initrd) its
 * "kernel" lasts until systemd starts in the root.
 */
static bool systemd_side(const struct boot_data *b, double *s)
{
	struct sd_time t;
	bool has_initrd;

	if (!sd_time__parse(boot_data__attachment(b, SD_ANALYZE_TIME), &t))
		return false;
	has_initrd = !isnan(t.initrd_s);
	s[PH_TO_INIT] = has_initrd ? t.kernel_s : NAN;
	s[PH_INITRAMFS] = has_initrd ? t.initrd_s : NAN;
	s[PH_TO_SYSTEMD] = t.kernel_s + (has_initrd ? t.initrd_s : 0);
	s[PH_USERSPACE] = strcmp(t.target, "multi-user.target") ? NAN : t.target_s;
	s[PH_TO_TARGET] = s[PH_TO_SYSTEMD] + s[PH_USERSPACE];
	return true;
}

void boot__phases(const struct boot_data *b, struct boot_phases *p)
{
	for (int i = 0; i < PS_COUNT; i++)
		for (int k = 0; k < PH_COUNT; k++)
			p->s[i][k] = NAN;
	bootprobe_side(b, p->s[PS_BOOTPROBE]);
	p->systemd = systemd_side(b, p->s[PS_SYSTEMD]);
}

const char *const stage_names[ST_COUNT] = {
	"firmware_s", "kernel_s", "init_s", "udevd_s", "coldplug_s", "settle_s", "tail_s",
	"collector_s",
};

const char *const stage_titles[ST_COUNT] = {
	"QEMU start → kernel start (firmware, kernel loading; host clock)",
	"kernel start → /init (kernel init)",
	"/init → udevd launched",
	"udevd launched → coldplug starts",
	"coldplug: trigger → udev's queue empty",
	"queue empty → the expected devices probed",
	"→ boot complete (the tail)",
	"beside these: collector launched → its programs attached",
};

/*
 * QEMU start to kernel start: the console's last write on the host's
 * clock less the printk stamp of that last line (guest time follows the
 * host's).  Kernel start is printk's 0, which is printk_offset_s before
 * CLOCK_BOOTTIME's 0.
 */
static double firmware_s(const struct boot_data *b)
{
	double s = diff(b->console_last_write_s, b->last_stamp_raw_s);

	return s >= 0 ? s : NAN;
}

bool boot__stages(const struct boot_data *b, double s[ST_COUNT])
{
	double k0 = -b->printk_offset_s;	/* kernel start, on the records' clock */
	/* The kernel's "Run /init as init process", else /init's own first line. */
	double init = isnan(b->kernel_done_s) ? b->init_start_s : b->kernel_done_s;
	bool any = false;

	s[ST_FIRMWARE] = firmware_s(b);
	s[ST_KERNEL] = diff(init, k0);
	s[ST_INIT] = diff(b->udevd_start_s, init);
	s[ST_UDEVD] = diff(b->coldplug_start_s, b->udevd_start_s);
	s[ST_COLDPLUG] = diff(b->coldplug_done_s, b->coldplug_start_s);
	s[ST_SETTLE] = diff(b->devices_done_s, b->coldplug_done_s);
	s[ST_TAIL] = diff(b->complete_s, isnan(b->devices_done_s) ? b->coldplug_done_s :
			  b->devices_done_s);
	s[ST_COLLECTOR] = diff(b->attach_s, b->collector_start_s);
	for (int k = 0; k < ST_COUNT; k++) {
		if (s[k] < 0)		/* marks out of order: not a stage */
			s[k] = NAN;
		any |= !isnan(s[k]) && k != ST_FIRMWARE && k != ST_KERNEL;
	}
	return any;
}
