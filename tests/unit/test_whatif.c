// SPDX-License-Identifier: GPL-2.0
/*
 * The what-if model (docs/whatif.md) on synthetic boots whose answer is
 * known by construction: two probes that sleep side by side, two that
 * compute on one CPU, the lab's end waiting for a worker's probes, a unit waiting on a disk a slow probe made; and the
 * calibration table that decides whether an unjudged prediction is shown.
 */
#include "check.h"
#include "boot.h"
#include "sdanalyze.h"
#include "util.h"
#include "whatif.h"

#include <math.h>
#include <stdlib.h>

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

/* A probe record: @pid probing @dev by @drv from @s to @e seconds, for module @mod's load. */
static char *probe(int pid, const char *drv, const char *dev, const char *mod, double s, double e)
{
	return xasprintf("{\"type\":\"probe\",\"ts_ns\":%.0f,\"pid\":%d,\"comm\":\"(udev-worker)\","
			 "\"driver\":\"%s\",\"device\":\"%s\",\"bus\":\"pci\",\"owner\":\"%s\","
			 "\"async\":false,\"start_ns\":%.0f,\"end_ns\":%.0f,\"ret\":0,"
			 "\"origin\":{\"kind\":\"module_load\",\"pid\":%d,\"comm\":\"(udev-worker)\","
			 "\"module\":\"%s\"}}\n", e * 1e9, pid, drv, dev, mod, s * 1e9, e * 1e9, pid,
			 mod);
}

static char *modload_by(int pid, const char *comm, const char *mod, double s, double e)
{
	return xasprintf("{\"type\":\"module_load\",\"ts_ns\":%.0f,\"pid\":%d,\"comm\":"
			 "\"%s\",\"name\":\"%s\",\"start_ns\":%.0f,\"end_ns\":%.0f,"
			 "\"ret\":0}\n", e * 1e9, pid, comm, mod, s * 1e9, e * 1e9);
}

static char *modload(int pid, const char *mod, double s, double e)
{
	return modload_by(pid, "(udev-worker)", mod, s, e);
}

/* A udev worker's load that failed with @ret: the record has no module name. */
static char *modload_failed(int pid, double s, double e, int ret)
{
	return xasprintf("{\"type\":\"module_load\",\"ts_ns\":%.0f,\"pid\":%d,\"comm\":"
			 "\"(udev-worker)\",\"name\":\"\",\"start_ns\":%.0f,\"end_ns\":%.0f,"
			 "\"ret\":%d}\n", e * 1e9, pid, s * 1e9, e * 1e9, ret);
}

static char *devnode(const char *name, const char *drv, const char *dev, double t)
{
	return xasprintf("{\"type\":\"devnode\",\"ts_ns\":%.0f,\"pid\":1,\"comm\":\"x\","
			 "\"kind\":\"block\",\"name\":\"%s\",\"ret\":0,\"bound_driver\":\"%s\","
			 "\"bound_device\":\"%s\"}\n", t * 1e9, name, drv, dev);
}

/* A boot of the records @lines (NULL-terminated, freed here). */
static struct boot_data *boot_of(char **lines)
{
	struct boot_data *b = boot_data__new("t");
	char *text = xstrdup("{\"type\":\"header\",\"schema\":1}\n"), *next;

	for (int i = 0; lines[i]; i++) {
		next = xasprintf("%s%s", text, lines[i]);
		free(text);
		free(lines[i]);
		text = next;
	}
	next = xasprintf("%s{\"type\":\"trailer\",\"events_written\":1,\"events_dropped\":0,"
			 "\"bpf_drops\":0}\n", text);
	boot_data__parse_events(b, next, strlen(next), "t/events.jsonl");
	free(text);
	free(next);
	return b;
}

/*
 * The lab's shape: one udev worker loads module m, whose driver probes two
 * devices one after the other, 2 s each (1.0-3.0, 3.0-5.0); the load ends
 * at 5.05 and udev's queue is empty at 5.1.
 */
static struct boot_data *two_probes(void)
{
	struct boot_data *b = boot_of((char *[]){
		probe(100, "d", "a", "m", 1.0, 3.0),
		probe(100, "d", "b", "m", 3.0, 5.0),
		modload(100, "m", 0.9, 5.05),
		NULL });

	b->coldplug_done_s = 5.1;
	return b;
}

static void sleeping_in_parallel(void)
{
	struct boot_data *b = two_probes();
	struct whatif_boot w;

	CHECK(near(boot_data__boot_time(b), 5.1), "the synthetic sync boot ends at 5.1 s");
	CHECK(!whatif__predict(b, 2, WI_DRIVER_ASYNC, &w), "a boot with probes is predicted");
	CHECK(near(w.phase_s, 4.0), "its probe phase is 4 s (%g)", w.phase_s);
	CHECK(near(w.pred_phase_s[WI_SLEEPING], 2.0),
	      "two sleeping probes side by side: the phase is the longer, 2 s (%g)",
	      w.pred_phase_s[WI_SLEEPING]);
	CHECK(near(w.pred_boot_s[WI_SLEEPING], 3.1),
	      "driver-async: the load waits for both, 2 s less: the boot ends at 3.1 s (%g)",
	      w.pred_boot_s[WI_SLEEPING]);
	CHECK(near(w.pred_boot_s[WI_COMPUTING], 3.1),
	      "on 2 CPUs, two computing probes gain as much (%g)", w.pred_boot_s[WI_COMPUTING]);
	CHECK(w.groups == 1 && w.groups_parallel == 1, "one group of two probes, run in parallel");
	whatif_boot__free(&w);
	boot_data__free(b);
}

static void computing_on_one_cpu(void)
{
	struct boot_data *b = two_probes();
	struct whatif_boot w;

	CHECK(!whatif__predict(b, 1, WI_DRIVER_ASYNC, &w), "the same boot on 1 CPU is predicted");
	CHECK(near(w.pred_boot_s[WI_COMPUTING], 5.1),
	      "two computing probes on one CPU gain nothing: 5.1 s (%g)",
	      w.pred_boot_s[WI_COMPUTING]);
	CHECK(near(w.pred_phase_s[WI_COMPUTING], 4.0),
	      "and they share the CPU: both end at 5.0, the phase stays 4 s (%g)",
	      w.pred_phase_s[WI_COMPUTING]);
	CHECK(near(w.pred_boot_s[WI_SLEEPING], 3.1), "sleeping, they still gain 2 s (%g)",
	      w.pred_boot_s[WI_SLEEPING]);
	whatif_boot__free(&w);
	CHECK(!whatif__predict(b, 1, WI_MODULE_ASYNC, &w), "module-async is predicted");
	CHECK(near(w.pred_boot_s[WI_SLEEPING], 3.0),
	      "module-async: the load returns at once (queue empty at 1.1 s), the probes end at "
	      "3.0 s, the boot with them (%g)", w.pred_boot_s[WI_SLEEPING]);
	CHECK(near(w.pred_boot_s[WI_COMPUTING], 5.1),
	      "module-async on one CPU, computing: the probes take the worker's CPU, 5.1 s (%g)",
	      w.pred_boot_s[WI_COMPUTING]);
	whatif_boot__free(&w);
	boot_data__free(b);
}

/*
 * The calibration lab's shape: udev's worker 44 loads slowprobe (2.25-12.85),
 * whose driver probes four devices in a row, 6, 2, 1.5 and 1 s (2.3-12.8);
 * workers 45, 47 and 49, one event per device, load it too and wait for it,
 * failing with -EEXIST just after it ends (12.86, 12.87, 12.88).  udev's queue
 * is empty at 12.9 ("coldplug done"), /init saw the 4 devices probed at
 * 12.92.  With @other, worker 51 loads a module of no probe until 12.89.
 */
static struct boot_data *lab_coldplug(bool devices_mark, bool other)
{
	struct boot_data *b = boot_of((char *[]){
		probe(44, "slowprobe", "0000:00:03.0", "slowprobe", 2.3, 8.3),
		probe(44, "slowprobe", "0000:00:04.0", "slowprobe", 8.3, 10.3),
		probe(44, "slowprobe", "0000:00:05.0", "slowprobe", 10.3, 11.8),
		probe(44, "slowprobe", "0000:00:06.0", "slowprobe", 11.8, 12.8),
		modload(44, "slowprobe", 2.25, 12.85),
		modload_failed(45, 2.24, 12.86, -17),
		modload_failed(47, 2.26, 12.87, -17),
		modload_failed(49, 2.27, 12.88, -17),
		other ? modload(51, "quiet", 2.2, 12.89) : NULL,
		NULL });

	b->coldplug_done_s = 12.9;
	b->devices_done_s = devices_mark ? 12.92 : NAN;
	return b;
}

static void lab_end_moves(void)
{
	struct boot_data *b = lab_coldplug(true, false);
	struct whatif_boot w;

	CHECK(near(boot_data__boot_time(b), 12.92), "the synthetic lab boot ends at 12.92 s");
	CHECK(!whatif__predict(b, 1, WI_DRIVER_ASYNC, &w), "the lab boot is predicted");
	CHECK(near(w.pred_boot_s[WI_SLEEPING], 12.92 - 4.5),
	      "driver-async: the load waits for its longest probe, 4.5 s less, and the workers "
	      "waiting for it with it; udev's queue and /init's mark move by 4.5 s: 8.42 s (%g)",
	      w.pred_boot_s[WI_SLEEPING]);
	CHECK(near(w.pred_boot_s[WI_COMPUTING], 12.92),
	      "on one CPU, computing probes gain nothing: 12.92 s (%g)", w.pred_boot_s[WI_COMPUTING]);
	whatif_boot__free(&w);
	CHECK(!whatif__predict(b, 1, WI_MODULE_ASYNC, &w) &&
	      near(w.pred_boot_s[WI_SLEEPING], 12.92 - 4.5),
	      "module-async: the queue empties at once, /init's mark waits for the 6 s probe, "
	      "4.5 s earlier: 8.42 s (%g)", w.pred_boot_s[WI_SLEEPING]);
	whatif_boot__free(&w);
	boot_data__free(b);

	b = lab_coldplug(false, false);
	CHECK(!whatif__predict(b, 1, WI_DRIVER_ASYNC, &w) &&
	      near(w.pred_boot_s[WI_SLEEPING], 12.9 - 4.5),
	      "without /init's mark, udev's queue alone moves by the thread's gain: 8.4 s (%g)",
	      w.pred_boot_s[WI_SLEEPING]);
	whatif_boot__free(&w);
	CHECK(!whatif__predict(b, 1, WI_MODULE_ASYNC, &w) && near(w.pred_boot_s[WI_SLEEPING], 8.3),
	      "module-async: the queue is empty at 2.4 s, the boot ends with the 6 s probe at "
	      "8.3 s (%g)", w.pred_boot_s[WI_SLEEPING]);
	whatif_boot__free(&w);
	boot_data__free(b);

	b = lab_coldplug(false, true);
	CHECK(!whatif__predict(b, 1, WI_DRIVER_ASYNC, &w) &&
	      near(w.pred_boot_s[WI_SLEEPING], 12.9),
	      "a worker's load of no probe that ends at 12.89 s still holds udev's queue: "
	      "12.9 s (%g)", w.pred_boot_s[WI_SLEEPING]);
	whatif_boot__free(&w);
	boot_data__free(b);
}

/*
 * Systemd's shape: PID 1 execs at 2.0; a worker then loads module s, whose
 * driver probes ctl (1 s, 3.0-4.0) and then disk (4 s, 4.0-8.0), the disk
 * vdb appearing at 7.9; multi-user.target at 9.0 waits on dev-vdb.device
 * through a mount when the chain says so.
 */
static struct boot_data *slow_disk(bool on_chain)
{
	struct boot_data *b = boot_of((char *[]){
		probe(300, "s", "ctl", "s", 3.0, 4.0),
		probe(300, "s", "disk", "s", 4.0, 8.0),
		modload(300, "s", 2.9, 8.05),
		devnode("vdb", "s", "disk", 7.9),
		NULL });

	b->init_exec_s = 2.0;
	b->multi_user_s = 9.0;
	b->attachments = xcalloc(1, sizeof(*b->attachments));
	b->nr_attachments = 1;
	snprintf(b->attachments[0].name, sizeof(b->attachments[0].name), "%s", SD_ANALYZE_CHAIN);
	b->attachments[0].text = xstrdup(on_chain ?
		"multi-user.target @7.000s\n"
		"\u2514\u2500data.mount @6.900s +100ms\n"
		"  \u2514\u2500dev-vdb.device @5.900s\n" :
		"multi-user.target @7.000s\n"
		"\u2514\u2500getty.target @6.900s\n");
	return b;
}

static void unit_waits_on_disk(void)
{
	struct boot_data *b = slow_disk(true);
	struct whatif_boot w;

	CHECK(whatif_kind__of(b) == WI_SYSTEMD, "a boot that reached multi-user.target is systemd's");
	CHECK(!whatif__predict(b, 1, WI_DRIVER_ASYNC, &w), "the slow-disk boot is predicted");
	CHECK(w.nr_dev == 1 && w.dev[0].from_probe && near(w.dev[0].pred_s[WI_SLEEPING], 6.9),
	      "vdb appears 1 s earlier, its probe no longer behind ctl's: 6.9 s (%g)",
	      w.nr_dev ? w.dev[0].pred_s[WI_SLEEPING] : NAN);
	CHECK(near(w.chain_gain_s[WI_SLEEPING], 1.0),
	      "the critical chain goes through dev-vdb.device: it gains 1 s (%g)",
	      w.chain_gain_s[WI_SLEEPING]);
	CHECK(near(w.pred_boot_s[WI_SLEEPING], 8.0),
	      "multi-user.target moves with it: the boot ends at 8.0 s (%g)",
	      w.pred_boot_s[WI_SLEEPING]);
	CHECK(near(w.pred_boot_s[WI_COMPUTING], 9.0),
	      "on one CPU with computing probes nothing moves: 9.0 s (%g)",
	      w.pred_boot_s[WI_COMPUTING]);
	whatif_boot__free(&w);
	boot_data__free(b);

	b = slow_disk(false);
	CHECK(!whatif__predict(b, 1, WI_DRIVER_ASYNC, &w) && near(w.chain_gain_s[WI_SLEEPING], 0) &&
	      near(w.pred_boot_s[WI_SLEEPING], 9.0),
	      "with the disk off the critical chain the target does not move: 9.0 s (%g)",
	      w.pred_boot_s[WI_SLEEPING]);
	whatif_boot__free(&w);
	boot_data__free(b);
}

/*
 * The initramfs's wait: udev's worker loads m (two probes of 2 s, 1.0-5.0,
 * the load ending at 5.05), the root disk vda is there at 0.5, the mount's
 * modprobe loads ext4 (5.5-5.9), PID 1 execs at 6.0, multi-user.target at
 * 9.0 waits on nothing of it.
 */
static void initramfs_wait(void)
{
	struct boot_data *b = boot_of((char *[]){
		probe(50, "virtio_blk", "virtio1", "virtio_blk", 0.3, 0.6),
		devnode("vda", "virtio_blk", "virtio1", 0.5),
		probe(100, "d", "a", "m", 1.0, 3.0),
		probe(100, "d", "b", "m", 3.0, 5.0),
		modload(100, "m", 0.9, 5.05),
		modload_by(120, "modprobe", "ext4", 5.5, 5.9),
		NULL });
	struct whatif_boot w;

	b->init_exec_s = 6.0;
	b->multi_user_s = 9.0;
	CHECK(!whatif__predict(b, 1, WI_DRIVER_ASYNC, &w), "the initramfs boot is predicted");
	CHECK(near(w.exec_gain_s[WI_SLEEPING], 2.0),
	      "udev settles 2 s earlier and PID 1's exec with it; the mount's modprobe of ext4 "
	      "comes after the settle and bounds nothing (%g)", w.exec_gain_s[WI_SLEEPING]);
	CHECK(near(w.pred_boot_s[WI_SLEEPING], 7.0), "multi-user.target moves with it: 7.0 s (%g)",
	      w.pred_boot_s[WI_SLEEPING]);
	whatif_boot__free(&w);
	boot_data__free(b);
}

static void modes_and_cpus(void)
{
	CHECK(whatif_mode__of_cmdline("") == WI_SYNC, "no switch is sync");
	CHECK(whatif_mode__of_cmdline("quiet driver_async_probe=*") == WI_DRIVER_ASYNC,
	      "driver_async_probe=* is driver-async");
	CHECK(whatif_mode__of_cmdline("module.async_probe=1") == WI_MODULE_ASYNC,
	      "module.async_probe=1 is module-async");
	CHECK(whatif_mode__of_cmdline("slowprobe.async_probe=1") == WI_OTHER_ASYNC,
	      "one module's async_probe is not predicted");
	CHECK(whatif_mode__of_cmdline("driver_async_probe=e1000") == WI_OTHER_ASYNC,
	      "a driver list is not predicted");
	CHECK(whatif_mode__of_cmdline("module.async_probe=0") == WI_SYNC, "async_probe=0 is sync");
	CHECK(whatif_cpus_of_qemu("qemu -m 2048 -smp 1 -nodefaults") == 1, "-smp 1 is 1 CPU");
	CHECK(whatif_cpus_of_qemu("qemu -smp cpus=4,sockets=1") == 4, "-smp cpus=4 is 4 CPUs");
	CHECK(whatif_cpus_of_qemu("qemu -smp 8,sockets=2") == 8, "-smp 8,sockets=2 is 8 CPUs");
	CHECK(whatif_cpus_of_qemu("(trimmed)") == 0, "no -smp is unknown");
}

static void calibration(void)
{
	struct whatif_cal cal;
	double e;
	char why[400];
	FILE *f;
	char *line = NULL;
	size_t len = 0;
	struct whatif_cal_row row = { .kind = WI_LAB, .mode = WI_DRIVER_ASYNC, .metric = WI_BOOT,
				      .sync_boots = 6, .async_boots = 6, .predicted_s = 8.0,
				      .measured_s = 10.0, .measured_ci_lo_s = 9.5,
				      .measured_ci_hi_s = 10.5, .error_pct = -20 };

	snprintf(row.run, sizeof(row.run), "r1");
	snprintf(row.kernel, sizeof(row.kernel), "6.1,evil\"name");
	f = open_memstream(&line, &len);
	fprintf(f, "%s\n", whatif_cal_header);
	whatif_cal_row__print(&row, f);
	row.kind = WI_SYSTEMD;
	row.error_pct = 4.5;
	whatif_cal_row__print(&row, f);
	fputs("lab,driver-async,garbage\n", f);
	fclose(f);
	whatif_cal__parse(&cal, line, "cal.csv");
	CHECK(cal.nr == 2 && cal.refused == 1, "two rows read back, a bad line refused (%d, %d)",
	      cal.nr, cal.refused);
	CHECK(cal.warnings.n == 1 && strstr(cal.warnings.v[0], "cal.csv:4: "),
	      "the refused line is named by file and line");
	CHECK(cal.nr && !strcmp(cal.rows[0].kernel, "6.1_evil_name"),
	      "a comma or quote in a name is written as '_' (%s)", cal.nr ? cal.rows[0].kernel : "");
	CHECK(!whatif_cal__may_print(&cal, WI_LAB, WI_DRIVER_ASYNC, WI_BOOT, &e, why, sizeof(why)) &&
	      near(e, 20) && strstr(why, "withheld: ") && strstr(why, "20.0 %") &&
	      strstr(why, "10 %"), "an error of 20 %% on lab boots withholds the boot time, saying "
	      "why (%s)", why);
	CHECK(whatif_cal__may_print(&cal, WI_SYSTEMD, WI_DRIVER_ASYNC, WI_BOOT, &e, why, sizeof(why)) &&
	      near(e, 4.5) && strstr(why, "4.5 %"), "an error of 4.5 %% lets it be shown, with "
	      "the error beside it (%s)", why);
	CHECK(!whatif_cal__may_print(&cal, WI_SYSTEMD, WI_MODULE_ASYNC, WI_BOOT, &e, why, sizeof(why)) &&
	      isnan(e) && strstr(why, "withheld: no calibration run"),
	      "with no calibration of module-async it is withheld, saying why (%s)", why);
	whatif_cal__free(&cal);
	free(line);
	whatif_cal__parse(&cal, whatif_cal__builtin(), "builtin");
	CHECK(cal.refused == 0, "the committed calibration table reads without a refused line");
	whatif_cal__free(&cal);
}

int main(void)
{
	sleeping_in_parallel();
	computing_on_one_cpu();
	lab_end_moves();
	unit_waits_on_disk();
	initramfs_wait();
	modes_and_cpus();
	calibration();
	CHECK_DONE();
}
