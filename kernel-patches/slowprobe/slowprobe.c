// SPDX-License-Identifier: GPL-2.0
/*
 * slowprobe - a PCI driver whose probe is slow in the way mptsas, cxgb4 and
 * pata_marvell were: long hardware work first, kernel threads created late,
 * then a firmware-download-like killable wait.
 *
 * It binds to QEMU's "edu" device (-device edu), so the path to its probe is
 * the real one: PCI enumeration, uevent, udevd worker, kmod, finit_module.
 * Each device's timings come from per-device parameter lists, indexed by the
 * device's position among the edu devices (ordered by bus and devfn).
 *
 * Outcome: a log line per probe, and /sys/bus/pci/drivers/slowprobe/report,
 * one line per device that was probed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/sched/signal.h>

#define SLOWPROBE_VENDOR	0x1234	/* QEMU edu device */
#define SLOWPROBE_DEVICE	0x11e8
#define SLOWPROBE_MAX_DEVICES	32
#define SLOWPROBE_MAX_THREADS	8

static int probe_ms[SLOWPROBE_MAX_DEVICES] = { 1000 };
static int n_probe_ms = 1;
module_param_array(probe_ms, int, &n_probe_ms, 0444);
MODULE_PARM_DESC(probe_ms,
		 "Slow work per probe in ms, a list by device index; the last value holds for later devices (default 1000)");

static int kthread_at_ms[SLOWPROBE_MAX_DEVICES] = { -1 };
static int n_kthread_at_ms = 1;
module_param_array(kthread_at_ms, int, &n_kthread_at_ms, 0444);
MODULE_PARM_DESC(kthread_at_ms,
		 "When in the slow work kthread_create() is called, in ms, a list by device index; -1 means at its end (default -1)");

static int nthreads = 1;
module_param(nthreads, int, 0444);
MODULE_PARM_DESC(nthreads, "Kernel threads each probe creates (0-8, default 1)");

static int fw_wait_ms;
module_param(fw_wait_ms, int, 0444);
MODULE_PARM_DESC(fw_wait_ms,
		 "Killable firmware-download-like wait after the threads are created, in ms (default 0)");

static char *probe_type = "default";
module_param(probe_type, charp, 0444);
MODULE_PARM_DESC(probe_type, "Probe type: default, sync (forced) or async (preferred)");

/* What happened to one device's probe, shown in the report attribute. */
struct slowprobe_record {
	char name[32];
	bool probed;
	bool bound;
	int err;
	const char *phase;	/* where the probe ended */
	s64 slow_us;
	s64 kthread_us;
	s64 fw_us;
	s64 total_us;
	pid_t pid;
	char comm[TASK_COMM_LEN];
};

struct slowprobe_dev {
	struct task_struct *threads[SLOWPROBE_MAX_THREADS];
	int nr_threads;
	int index;
};

static struct slowprobe_record records[SLOWPROBE_MAX_DEVICES];
static DEFINE_MUTEX(records_lock);

/* The value of a per-device list for device @index. */
static int param_for(const int *list, int n, int index)
{
	return list[min(index, n - 1)];
}

/* Position of @pdev among the edu devices, ordered by bus then devfn. */
static int slowprobe_index(struct pci_dev *pdev)
{
	struct pci_dev *other = NULL;
	int index = 0;

	while ((other = pci_get_device(SLOWPROBE_VENDOR, SLOWPROBE_DEVICE, other))) {
		if (other->bus->number < pdev->bus->number ||
		    (other->bus->number == pdev->bus->number &&
		     other->devfn < pdev->devfn))
			index++;
	}
	return index;
}

static int slowprobe_thread(void *data)
{
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static void slowprobe_stop_threads(struct slowprobe_dev *sp)
{
	while (sp->nr_threads > 0)
		kthread_stop(sp->threads[--sp->nr_threads]);
}

static __always_inline int slowprobe_create_threads(struct pci_dev *pdev, struct slowprobe_dev *sp)
{
	struct task_struct *task;
	int i;

	for (i = 0; i < nthreads; i++) {
		task = kthread_run(slowprobe_thread, sp, "slowprobe/%d.%d",
				   sp->index, i);
		if (IS_ERR(task)) {
			slowprobe_stop_threads(sp);
			return PTR_ERR(task);
		}
		sp->threads[sp->nr_threads++] = task;
	}
	return 0;
}

/* Like a firmware download: a wait that a fatal signal cuts short. */
static int slowprobe_fw_wait(void)
{
	unsigned long left = msecs_to_jiffies(fw_wait_ms);

	while (left) {
		left = schedule_timeout_killable(left);
		if (fatal_signal_pending(current))
			return -EINTR;
	}
	return 0;
}

static void slowprobe_record(struct pci_dev *pdev, int index,
			     const struct slowprobe_record *r)
{
	if (index >= SLOWPROBE_MAX_DEVICES)
		return;
	mutex_lock(&records_lock);
	records[index] = *r;
	strscpy(records[index].name, pci_name(pdev), sizeof(records[index].name));
	mutex_unlock(&records_lock);
}

static int slowprobe_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct slowprobe_record r = { .probed = true, .pid = current->pid };
	int index = slowprobe_index(pdev);
	int work_ms = param_for(probe_ms, n_probe_ms, index);
	int at_ms = param_for(kthread_at_ms, n_kthread_at_ms, index);
	struct slowprobe_dev *sp;
	ktime_t t0, t;
	int err;

	get_task_comm(r.comm, current);
	if (at_ms < 0 || at_ms > work_ms)
		at_ms = work_ms;
	dev_info(&pdev->dev,
		 "probe start: device %d, slow work %d ms, %d kthreads at %d ms, fw wait %d ms, in %s[%d]\n",
		 index, work_ms, nthreads, at_ms, fw_wait_ms, r.comm, r.pid);

	sp = devm_kzalloc(&pdev->dev, sizeof(*sp), GFP_KERNEL);
	if (!sp)
		return -ENOMEM;
	sp->index = index;

	/* Slow hardware work; plain msleep() does not notice a SIGKILL. */
	t0 = ktime_get();
	msleep(at_ms);
	r.slow_us = ktime_us_delta(ktime_get(), t0);

	r.phase = "kthread_create";
	t = ktime_get();
	err = slowprobe_create_threads(pdev, sp);
	r.kthread_us = ktime_us_delta(ktime_get(), t);
	if (err)
		goto out;

	t = ktime_get();
	msleep(work_ms - at_ms);
	r.slow_us += ktime_us_delta(ktime_get(), t);

	r.phase = "fw_wait";
	t = ktime_get();
	err = slowprobe_fw_wait();
	r.fw_us = ktime_us_delta(ktime_get(), t);
	if (err) {
		slowprobe_stop_threads(sp);
		goto out;
	}
	r.phase = "done";
	pci_set_drvdata(pdev, sp);

out:
	r.total_us = ktime_us_delta(ktime_get(), t0);
	r.err = err;
	r.bound = !err;
	slowprobe_record(pdev, index, &r);
	if (err)
		dev_err(&pdev->dev,
			"probe failed: %pe in %s after %lld ms (slow work %lld ms, kthread_create %lld us, fw wait %lld ms)\n",
			ERR_PTR(err), r.phase, r.total_us / 1000, r.slow_us / 1000,
			r.kthread_us, r.fw_us / 1000);
	else
		dev_info(&pdev->dev,
			 "probe done in %lld ms (slow work %lld ms, kthread_create %lld us, fw wait %lld ms)\n",
			 r.total_us / 1000, r.slow_us / 1000, r.kthread_us,
			 r.fw_us / 1000);
	return err;
}

static void slowprobe_remove(struct pci_dev *pdev)
{
	struct slowprobe_dev *sp = pci_get_drvdata(pdev);

	slowprobe_stop_threads(sp);
	if (sp->index < SLOWPROBE_MAX_DEVICES) {
		mutex_lock(&records_lock);
		records[sp->index].bound = false;
		mutex_unlock(&records_lock);
	}
}

static ssize_t report_show(struct device_driver *drv, char *buf)
{
	const struct slowprobe_record *r;
	int i, len = 0;

	mutex_lock(&records_lock);
	for (i = 0; i < SLOWPROBE_MAX_DEVICES; i++) {
		r = &records[i];
		if (!r->probed)
			continue;
		len += sysfs_emit_at(buf, len,
				     "%s index=%d bound=%d err=%d phase=%s slow_us=%lld kthread_us=%lld fw_us=%lld total_us=%lld pid=%d comm=%s\n",
				     r->name, i, r->bound, r->err, r->phase,
				     r->slow_us, r->kthread_us, r->fw_us,
				     r->total_us, r->pid, r->comm);
	}
	mutex_unlock(&records_lock);
	return len;
}
static DRIVER_ATTR_RO(report);

static struct attribute *slowprobe_attrs[] = {
	&driver_attr_report.attr,
	NULL,
};
ATTRIBUTE_GROUPS(slowprobe);

static const struct pci_device_id slowprobe_ids[] = {
	{ PCI_DEVICE(SLOWPROBE_VENDOR, SLOWPROBE_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, slowprobe_ids);

static struct pci_driver slowprobe_driver = {
	.name = "slowprobe",
	.id_table = slowprobe_ids,
	.probe = slowprobe_probe,
	.remove = slowprobe_remove,
	.groups = slowprobe_groups,
};

/* Reject impossible timings at load, naming the parameter. */
static int slowprobe_check_list(const char *name, const int *list, int n,
				int min)
{
	int i;

	for (i = 0; i < n; i++) {
		if (list[i] < min) {
			pr_err("%s[%d]=%d: must be >= %d\n", name, i, list[i], min);
			return -EINVAL;
		}
	}
	return 0;
}

static int slowprobe_check_params(void)
{
	int i, at, work;

	if (slowprobe_check_list("probe_ms", probe_ms, n_probe_ms, 0) ||
	    slowprobe_check_list("kthread_at_ms", kthread_at_ms, n_kthread_at_ms, -1))
		return -EINVAL;
	for (i = 0; i < max(n_probe_ms, n_kthread_at_ms); i++) {
		work = param_for(probe_ms, n_probe_ms, i);
		at = param_for(kthread_at_ms, n_kthread_at_ms, i);
		if (at > work) {
			pr_err("kthread_at_ms[%d]=%d is beyond probe_ms[%d]=%d\n",
			       i, at, i, work);
			return -EINVAL;
		}
	}
	if (nthreads < 0 || nthreads > SLOWPROBE_MAX_THREADS) {
		pr_err("nthreads=%d: must be 0..%d\n", nthreads, SLOWPROBE_MAX_THREADS);
		return -EINVAL;
	}
	if (fw_wait_ms < 0) {
		pr_err("fw_wait_ms=%d: must be >= 0\n", fw_wait_ms);
		return -EINVAL;
	}
	return 0;
}

static int slowprobe_set_probe_type(void)
{
	if (!strcmp(probe_type, "default"))
		slowprobe_driver.driver.probe_type = PROBE_DEFAULT_STRATEGY;
	else if (!strcmp(probe_type, "sync"))
		slowprobe_driver.driver.probe_type = PROBE_FORCE_SYNCHRONOUS;
	else if (!strcmp(probe_type, "async"))
		slowprobe_driver.driver.probe_type = PROBE_PREFER_ASYNCHRONOUS;
	else {
		pr_err("probe_type=%s: must be default, sync or async\n", probe_type);
		return -EINVAL;
	}
	return 0;
}

static int __init slowprobe_init(void)
{
	int err;

	err = slowprobe_check_params();
	if (err)
		return err;
	err = slowprobe_set_probe_type();
	if (err)
		return err;
	pr_info("loading: probe_type=%s nthreads=%d fw_wait_ms=%d\n",
		probe_type, nthreads, fw_wait_ms);
	return pci_register_driver(&slowprobe_driver);
}
module_init(slowprobe_init);

static void __exit slowprobe_exit(void)
{
	pci_unregister_driver(&slowprobe_driver);
}
module_exit(slowprobe_exit);

MODULE_DESCRIPTION("PCI driver with a slow probe that creates kernel threads late");
MODULE_LICENSE("GPL");
