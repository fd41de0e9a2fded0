// SPDX-License-Identifier: GPL-2.0
/*
 * A boot that reaches systemd: its phases as bootprobe measures them beside
 * what systemd-analyze printed, and the readiness gap of a disk and of an
 * interface, from a console and a stream written for known answers.
 */
#include "analyze.h"
#include "boot.h"
#include "check.h"
#include "phases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

/*
 * initramfs /init at 4.9 s, hand-over to the root at 9.25 s, systemd's
 * first line at 9.75 s, multi-user at 21.5 s.
 */
static const char console[] =
	"[    4.900000] bootprobe: init start at 4.90 s\n"
	"Begin: Running /scripts/init-bottom ... [    9.250000] bootprobe: initramfs hands over "
	"to the root at 9.24 s\n"
	"[    9.750000] systemd[1]: systemd 252.39-1~deb12u1 running in system mode (+PAM)\n"
	"[   21.600000] bootprobe: system running; multi-user.target reached at 21.500000 s\n";

/*
 * virtio_blk's probe (module loaded 6.0-6.4 s) adds vda inside the probe;
 * nvme's probe ends at 6.8 s, its module load returns at 6.9 s and the
 * namespace appears at 7.4 s from a work item; e1000e's interface appears
 * inside its probe; a disk with no bound ancestor has no gap.
 */
static const char events[] =
	"{\"type\":\"module_load\",\"name\":\"virtio_blk\",\"pid\":90,\"start_ns\":6000000000,"
	"\"end_ns\":6400000000,\"ret\":0}\n"
	"{\"type\":\"probe\",\"driver\":\"virtio_blk\",\"device\":\"virtio2\",\"owner\":\"virtio_blk\","
	"\"pid\":90,\"start_ns\":6100000000,\"end_ns\":6300000000,\"ret\":0}\n"
	"{\"type\":\"devnode\",\"ts_ns\":6200000000,\"kind\":\"block\",\"name\":\"vda\",\"ret\":0,"
	"\"bound_driver\":\"virtio_blk\",\"bound_device\":\"virtio2\"}\n"
	"{\"type\":\"module_load\",\"name\":\"nvme\",\"pid\":91,\"start_ns\":6500000000,"
	"\"end_ns\":6900000000,\"ret\":0}\n"
	"{\"type\":\"probe\",\"driver\":\"nvme\",\"device\":\"0000:00:04.0\",\"owner\":\"nvme\","
	"\"pid\":91,\"start_ns\":6600000000,\"end_ns\":6800000000,\"ret\":0}\n"
	"{\"type\":\"devnode\",\"ts_ns\":7400000000,\"kind\":\"block\",\"name\":\"nvme0n1\",\"ret\":0,"
	"\"bound_driver\":\"nvme\",\"bound_device\":\"0000:00:04.0\"}\n"
	"{\"type\":\"probe\",\"driver\":\"e1000e\",\"device\":\"0000:00:05.0\",\"owner\":\"e1000e\","
	"\"pid\":92,\"start_ns\":7000000000,\"end_ns\":7900000000,\"ret\":0}\n"
	"{\"type\":\"devnode\",\"ts_ns\":7800000000,\"kind\":\"net\",\"name\":\"eth0\",\"ret\":0,"
	"\"bound_driver\":\"e1000e\",\"bound_device\":\"0000:00:05.0\"}\n"
	"{\"type\":\"devnode\",\"ts_ns\":8000000000,\"kind\":\"block\",\"name\":\"loop0\",\"ret\":0,"
	"\"bound_driver\":\"\",\"bound_device\":\"\"}\n"
	"{\"type\":\"attachment\",\"name\":\"systemd-analyze-time.txt\",\"bytes\":120,"
	"\"truncated\":false,\"text\":\"Startup finished in 9.249s (kernel) + 12.300s (userspace)"
	" = 21.549s \\nmulti-user.target reached after 12.250s in userspace.\\n\"}\n";

static const char console_no_handover[] =
	"[    4.900000] bootprobe: init start at 4.90 s\n"
	"[    9.750000] systemd[1]: systemd 252.39-1~deb12u1 running in system mode (+PAM)\n"
	"[   21.600000] bootprobe: system running; multi-user.target reached at 21.500000 s\n";

/* PID 1 executes run-init, which executes systemd 10 ms after the hand-over mark. */
static const char init_exec[] =
	"{\"type\":\"init_exec\",\"ts_ns\":9255000000,\"pid\":1,\"filename\":\"/sbin/run-init\"}\n"
	"{\"type\":\"init_exec\",\"ts_ns\":9260000000,\"pid\":1,\"filename\":\"/sbin/init\"}\n";

static struct boot_data *load_console(const char *text)
{
	struct boot_data *b = boot_data__new("t");

	boot_data__parse_console(b, text, "console.log");
	boot_data__parse_events(b, events, strlen(events), "events.jsonl");
	return b;
}

static struct boot_data *load(void)
{
	return load_console(console);
}

static void phases(void)
{
	struct boot_data *b = load();
	struct boot_phases p;
	const double *bp = p.s[PS_BOOTPROBE], *sd = p.s[PS_SYSTEMD];

	boot__phases(b, &p);
	CHECK(p.systemd, "the boot's systemd-analyze time attachment is read");
	CHECK(near(b->handover_s, 9.25), "a kernel line after an unended user-space line keeps "
	      "its stamp (%g)", b->handover_s);
	CHECK(near(bp[PH_TO_INIT], 4.9) && near(bp[PH_INITRAMFS], 4.35) &&
	      near(bp[PH_TO_SYSTEMD], 9.25), "bootprobe splits kernel and initramfs at /init "
	      "(%g %g %g)", bp[PH_TO_INIT], bp[PH_INITRAMFS], bp[PH_TO_SYSTEMD]);
	CHECK(near(bp[PH_USERSPACE], 12.25) && near(bp[PH_TO_TARGET], 21.5),
	      "systemd to multi-user.target from its own timestamp (%g %g)", bp[PH_USERSPACE],
	      bp[PH_TO_TARGET]);
	boot_data__free(b);
	b = load_console(console_no_handover);
	boot_data__parse_console(b, "[    4.700000] Run /init as init process\n", "console.log");
	boot__phases(b, &p);
	CHECK(near(bp[PH_TO_INIT], 4.7) && near(bp[PH_INITRAMFS], 5.05),
	      "the kernel's own 'Run /init' line comes before the init-top mark (%g %g)",
	      bp[PH_TO_INIT], bp[PH_INITRAMFS]);
	boot__phases(b, &p);
	CHECK(near(bp[PH_TO_SYSTEMD], 9.75) && near(bp[PH_USERSPACE], 11.75),
	      "without the hand-over mark, systemd's first console line stands in (%g %g)",
	      bp[PH_TO_SYSTEMD], bp[PH_USERSPACE]);
	boot_data__free(b);
	b = load_console(console);
	boot_data__parse_events(b, init_exec, strlen(init_exec), "exec.jsonl");
	boot__phases(b, &p);
	CHECK(near(bp[PH_TO_SYSTEMD], 9.26) && near(bp[PH_INITRAMFS], 4.36),
	      "PID 1's last exec in the stream is when systemd starts, ahead of any console mark "
	      "(%g %g)", bp[PH_TO_SYSTEMD], bp[PH_INITRAMFS]);
	CHECK(near(bp[PH_LAST_PROBE], 7.9), "the last probe ends at 7.9 s (%g)", bp[PH_LAST_PROBE]);
	CHECK(near(bp[PH_BOOT], 21.5), "boot time is multi-user.target when no probe ends later "
	      "(%g)", bp[PH_BOOT]);
	CHECK(isnan(sd[PH_TO_INIT]) && isnan(sd[PH_INITRAMFS]),
	      "without a systemd initrd systemd-analyze cannot split kernel and initramfs");
	CHECK(near(sd[PH_TO_SYSTEMD], 9.249) && near(sd[PH_USERSPACE], 12.25) &&
	      near(sd[PH_TO_TARGET], 21.499), "systemd-analyze's kernel and target times "
	      "(%g %g %g)", sd[PH_TO_SYSTEMD], sd[PH_USERSPACE], sd[PH_TO_TARGET]);
	CHECK(isnan(sd[PH_LAST_PROBE]), "systemd-analyze does not see probes");
	boot_data__free(b);
}

static const struct devnode *node(const struct boot_data *b, const char *name)
{
	for (int i = 0; i < b->nr_devnodes; i++)
		if (!strcmp(b->devnodes[i].name, name))
			return &b->devnodes[i];
	return NULL;
}

static void readiness(void)
{
	struct boot_data *b = load();
	struct devnode_gap g;

	CHECK(b->nr_devnodes == 4, "four devnode records kept (%d)", b->nr_devnodes);
	devnode__gap(b, node(b, "vda"), &g);
	CHECK(g.gap_s == 0 && g.ref && !strcmp(g.ref, "modprobe return"),
	      "a disk added inside the probe is ready when modprobe returns (%g)", g.gap_s);
	devnode__gap(b, node(b, "nvme0n1"), &g);
	CHECK(near(g.gap_s, 0.5) && !strcmp(g.ref, "modprobe return"),
	      "a namespace scanned later appears 0.5 s after modprobe returned (%g)", g.gap_s);
	devnode__gap(b, node(b, "eth0"), &g);
	CHECK(g.gap_s == 0 && g.ref && !strcmp(g.ref, "probe end"),
	      "with no module load known, the gap is measured from the probe end (%g)", g.gap_s);
	devnode__gap(b, node(b, "loop0"), &g);
	CHECK(isnan(g.gap_s) && !g.ref, "a disk with no bound ancestor has no gap");
	boot_data__free(b);
}

static bool said(const struct boot_data *b, const char *what)
{
	for (size_t i = 0; i < b->warnings.n; i++)
		if (strstr(b->warnings.v[i], what))
			return true;
	return false;
}

/*
 * The console is stamped by printk's clock, 44 ms ahead of the records'
 * (measured in our TCG guest): its marks are put on the records' clock.
 */
static void printk_offset(void)
{
	static const char header[] =
		"{\"type\":\"header\",\"schema\":1,\"printk_offset_ns\":44000000,"
		"\"printk_offset_error_ns\":800}\n";
	static const char wild[] =
		"{\"type\":\"header\",\"schema\":1,\"printk_offset_ns\":-900000000000}\n";
	struct boot_data *b = boot_data__new("t");

	boot_data__parse_events(b, header, strlen(header), "events.jsonl");
	boot_data__parse_console(b, console, "console.log");
	CHECK(near(b->init_start_s, 4.856) && near(b->handover_s, 9.206),
	      "console stamps less the header's printk offset (%g %g)", b->init_start_s,
	      b->handover_s);
	CHECK(near(b->multi_user_s, 21.5), "systemd's own timestamp is not printk's (%g)",
	      b->multi_user_s);
	boot_data__free(b);
	b = boot_data__new("t");
	boot_data__parse_events(b, wild, strlen(wild), "events.jsonl");
	boot_data__parse_console(b, console, "console.log");
	CHECK(near(b->init_start_s, 4.9) && said(b, "printk_offset_ns -900000000000 out of range"),
	      "an offset of 900 s is no clock's: not used, and said (%g)", b->init_start_s);
	boot_data__free(b);
}

/*
 * Our /init's boot: printk 30 ms ahead of the records' clock, QEMU's start
 * 0.25 s before printk's 0 (the console's last line, stamped 4.32 s, was
 * written 4.57 s after QEMU started).
 */
static void stages(void)
{
	static const char header[] =
		"{\"type\":\"header\",\"schema\":1,\"attach_ns\":1750000000,"
		"\"printk_offset_ns\":30000000,\"printk_offset_error_ns\":700}\n";
	static const char lab[] =
		"[    1.130000] Run /init as init process\n"
		"[    1.160000] bootprobe: init start at 1.13 s\n"
		"[    1.280000] bootprobe: collector started at 1.25 s\n"
		"[    1.430000] bootprobe: udevd start at 1.40 s\n"
		"[    1.630000] bootprobe: coldplug start at 1.60 s\n"
		"[    3.130000] bootprobe: coldplug done at 3.10 s\n"
		"[    3.530000] bootprobe: 23 of 23 expected devices probed at 3.50 s\n"
		"[    3.930000] bootprobe: BOOT-COMPLETE at 3.90 s\n"
		"[    4.320000] reboot: machine restart\n";
	static const double want[ST_COUNT] = { 0.25, 1.13, 0.3, 0.2, 1.5, 0.4, 0.4, 0.5 };
	struct boot_data *b = boot_data__new("t");
	double st[ST_COUNT];
	bool all = true;

	boot_data__parse_events(b, header, strlen(header), "events.jsonl");
	boot_data__parse_console(b, lab, "console.log");
	b->console_last_write_s = 4.57;
	CHECK(boot__stages(b, st), "a boot of our /init has stages");
	for (int k = 0; k < ST_COUNT; k++)
		if (!near(st[k], want[k])) {
			all = false;
			fprintf(stderr, "#   %s: %g, want %g\n", stage_names[k], st[k], want[k]);
		}
	CHECK(all, "each stage from its marks, kernel start at printk's 0 and QEMU's start "
	      "from the console's last write");
	boot_data__parse_console(b, "qemu-system-x86_64: terminating on signal 15\n", "console.log");
	boot__stages(b, st);
	CHECK(isnan(st[ST_FIRMWARE]) && near(st[ST_TAIL], 0.4),
	      "a last line without a stamp places no QEMU start (%g)", st[ST_FIRMWARE]);
	boot_data__free(b);

	b = boot_data__new("t");
	boot_data__parse_console(b, "[    1.130000] Run /init as init process\n"
				 "[    1.630000] bootprobe: coldplug start at 1.60 s\n"
				 "[    1.500000] bootprobe: coldplug done at 1.49 s\n", "console.log");
	b->console_last_write_s = 1.2;
	boot__stages(b, st);
	CHECK(isnan(st[ST_COLDPLUG]) && isnan(st[ST_FIRMWARE]) && near(st[ST_KERNEL], 1.13),
	      "marks out of order, and a last write before the last stamp, give no stage "
	      "(%g %g)", st[ST_COLDPLUG], st[ST_FIRMWARE]);
	boot_data__free(b);
	b = boot_data__new("t");
	boot_data__parse_console(b, console, "console.log");
	CHECK(!boot__stages(b, st), "a Debian boot (initramfs-tools' /init) has no stages of ours");
	boot_data__free(b);
}

int main(void)
{
	printk_offset();
	stages();
	phases();
	readiness();
	CHECK_DONE();
}
