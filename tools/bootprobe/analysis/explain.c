// SPDX-License-Identifier: GPL-2.0
/* `bootprobe explain`: the causal chain of each kill, failed probes, drivers at risk. */
#define _GNU_SOURCE
#include "analyze.h"
#include "bootindex.h"
#include "cmdline.h"
#include "explain.h"
#include "jsonio.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS 1e9

/*
 * The look-ups below go through the boot's index (bootindex.h): each is
 * O(log n), so explaining every kill of a boot is O(n log n), not a scan
 * of the boot per kill.
 */

/* The task's first kthread_create() (file order) that ended at or after @ts. */
static const struct kthread_wait *kthread_after(const struct boot_data *b, int pid, int64_t ts)
{
	char key[KEY_MAX];
	size_t len = key_pid(key, sizeof(key), pid);
	int i = tindex__first_from(&boot_data__index(b)->kwait_pid, key, len, ts);

	return i < 0 ? NULL : &b->kwaits[i];
}

/* The task's first probe (of @device, if named) that ended at or after @ts. */
static const struct probe_span *probe_after(const struct boot_data *b, int pid,
					    const char *device, int64_t ts)
{
	const struct boot_index *x = boot_data__index(b);
	char key[KEY_MAX];
	size_t len = *device ? key_pid_name(key, sizeof(key), pid, device) :
			       key_pid(key, sizeof(key), pid);
	int i = tindex__first_from(*device ? &x->probe_pid_dev : &x->probe_pid, key, len, ts);

	return i < 0 ? NULL : &b->probes[i];
}

/* The task's first module load that ended at or after @ts. */
static const struct module_load *modload_after(const struct boot_data *b, int pid, int64_t ts)
{
	char key[KEY_MAX];
	size_t len = key_pid(key, sizeof(key), pid);
	int i = tindex__first_from(&boot_data__index(b)->modload_pid, key, len, ts);

	return i < 0 ? NULL : &b->modloads[i];
}

static const struct udev_kill *udev_log_of(const struct boot_data *b, int pid)
{
	int i = keymap__get(&boot_data__index(b)->udev_kill_first, &pid, sizeof(pid));

	return i < 0 ? NULL : &b->udev_kills[i];
}

static const char *device_driver(const struct boot_data *b, const char *device)
{
	int i = keymap__get_str(&boot_data__index(b)->device_first, device);

	return i < 0 ? NULL : b->devices[i].driver;
}

static bool is_udev_timeout_kill(const struct kill_event *k)
{
	return strstr(k->sender_comm, "udev") && strstr(k->target_comm, "udev-worker");
}

/* Whether a probe of @p's device after @p succeeded (a retry, a deferred probe). */
static bool bound_later(const struct boot_data *b, const struct probe_span *p)
{
	char key[KEY_MAX];
	size_t len = keymap__pair(key, sizeof(key), p->device, "");
	int i = tindex__latest_before(&boot_data__index(b)->probe_bound_dev, key, len, INT64_MAX,
				      true);

	return i >= 0 && b->probes[i].end_ns > p->end_ns;
}

/* Whether the target's exit was this signal's doing (wait(2)'s low 7 bits). */
static bool signal__killed_it(const struct kill_event *k)
{
	return k->exit_ns >= 0 && (k->exit_code & 0x7f) == k->sig;
}

/*
 * Whether a signal other than SIGKILL was fatal, and what the task did
 * with it: its default action kills the task (and makes fatal_signal_pending()
 * true, so kthread_create() returns -EINTR), a handler or a blocked signal
 * does not.  @kw: the task's next kthread_create(), whose fatal_signal says
 * what the kernel saw.
 */
static void signal__fate(FILE *f, const struct kill_event *k, const struct kthread_wait *kw)
{
	bool fatal = signal__killed_it(k) || (kw && kw->fatal_signal);

	fprintf(f, "; %s was %s", k->sig_name, fatal ? "fatal" : "not fatal");
	/*
	 * Only SIGKILL (and a fatal signal the kernel turns into one) is a
	 * fatal_signal_pending(): a core-dumping signal such as SIGABRT kills
	 * the task on its way back to user space, after the probe.
	 */
	if (fatal && kw && !kw->fatal_signal && kw->end_ns > k->ts_ns)
		fprintf(f, " only on the way back to user space: kthread_create() did not see "
			"it pending");
	if (k->delivered_ns >= 0)
		fprintf(f, " (delivered at %.2f s to %s%s)", k->delivered_ns / NS,
			!strcmp(k->handler, "default") ? "its default action" :
			!strcmp(k->handler, "ignore") ? "be ignored" : "a handler at ",
			strcmp(k->handler, "default") && strcmp(k->handler, "ignore") ? k->handler : "");
	else if (!strcmp(k->result, "ignored"))
		fprintf(f, " (the kernel ignored it)");
	else
		fprintf(f, " (never delivered while traced: blocked, or read through a signalfd)");
}

/*
 * What udevd adds to its event timeout before it kills, after the words
 * "the udev event timeout (3 s)" (docs/debian.md, "When systemd-udevd
 * kills"): nothing up to systemd 255; " and udevd's extra 10 s (systemd
 * 257)" from 256; both when udevd's version is unknown.
 */
static void deadline__words(FILE *f, const struct udev_deadline *d)
{
	if (d->systemd && d->systemd < UDEV_EXTRA_TIMEOUT_SINCE)
		return;
	if (!d->systemd) {
		fprintf(f, " or up to %g s after it (udevd's version unknown: systemd 256 and later "
			"wait that much longer)", d->extra_if_new_s);
		return;
	}
	fprintf(f, " and udevd's extra %g s (systemd %d", d->extra_s, d->systemd);
	if (*d->extra_set)
		fprintf(f, ", systemd.setenv=SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=%s%s", d->extra_set,
			d->extra_ignored ? ", which it ignores" : "");
	fprintf(f, ")");
}

/* The earliest time since boot udevd's event timeout can have killed at. */
static double deadline__earliest(const struct udev_deadline *d)
{
	return d->timeout_s + (isnan(d->extra_s) ? 0 : d->extra_s);
}

/*
 * Why udevd signalled a worker: its event timeout, unless the signal came
 * before the timeout (and the extra time) could have run out since boot
 * (udevd signals its workers when it exits too, as at switch-root).
 */
static void kill__why(FILE *f, const struct boot_data *b, const struct kill_event *k)
{
	struct udev_deadline d;

	boot_data__udev_deadline(b, &d);
	if (k->ts_ns / NS < deadline__earliest(&d)) {
		fprintf(f, ", not at the udev event timeout (%g s)", d.timeout_s);
		deadline__words(f, &d);
		fprintf(f, ": %.2f s into the boot they cannot have run out", k->ts_ns / NS);
		return;
	}
	fprintf(f, " after the udev event timeout (%g s)", d.timeout_s);
	deadline__words(f, &d);
}

/*
 * The module the target was loading at the kill: the signal's own record
 * names it once its init has begun (the collector reads the name at
 * do_init_module()); before that (the file still read, decompressed,
 * checked, linked) the finit_module() call it interrupted names it when it
 * returns.  "" when neither does.
 */
static const char *kill__module(const struct boot_data *b, const struct kill_event *k)
{
	const struct module_load *ml;

	if (*k->module || k->module_for_ns < 0)
		return k->module;
	ml = modload_after(b, k->target_pid, k->ts_ns);
	return ml && ml->start_ns <= k->ts_ns ? ml->name : "";
}

/* One kill as a causal chain in plain words. */
static char *kill__chain(const struct boot_data *b, const struct kill_event *k)
{
	const struct kthread_wait *kw = kthread_after(b, k->target_pid, k->ts_ns);
	const struct probe_span *p = probe_after(b, k->target_pid, k->probe_device, k->ts_ns);
	const struct module_load *ml = modload_after(b, k->target_pid, k->ts_ns);
	/* Not probing at the kill: the probe that came after it, if any. */
	const char *dev = *k->probe_device ? k->probe_device : p ? p->device : "";
	const char *drv = *dev ? device_driver(b, dev) : NULL;
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	bool any = false;

	fprintf(f, "%s [%d] sent %s at %.2f s to %s [%d]", k->sender_comm, k->sender_pid,
		k->sig == 9 ? "SIGKILL" : k->sig_name, k->ts_ns / NS, k->target_comm, k->target_pid);
	if (is_udev_timeout_kill(k))
		kill__why(f, b, k);
	fprintf(f, "; the %s was", strstr(k->target_comm, "udev-worker") ? "worker" : "task");
	if (k->module_for_ns >= 0) {
		fprintf(f, " in finit_module(%s) for %.2f s", kill__module(b, k),
			k->module_for_ns / NS);
		/* The collector learns the name at do_init_module(): still in load_module(). */
		if (!*k->module)
			fprintf(f, ", before the module's init began");
		any = true;
	}
	if (k->probe_for_ns >= 0) {
		fprintf(f, "%s in probe of %s (%s) for %.2f s", any ? "," : "", k->probe_device,
			k->probe_driver, k->probe_for_ns / NS);
		any = true;
	}
	if (k->kthread_for_ns >= 0) {
		fprintf(f, "%s in kthread_create for %.3f s", any ? ", and" : "", k->kthread_for_ns / NS);
		any = true;
	}
	if (!any)
		fprintf(f, " not loading a module nor probing");
	if (k->sig != 9)
		signal__fate(f, k, kw);
	if (kw && (!p || kw->end_ns <= p->end_ns))
		fprintf(f, "; kthread_create returned %s at %.2f s", errno_name(kw->ret), kw->end_ns / NS);
	if (p && !*k->probe_device && p->start_ns >= k->ts_ns)
		fprintf(f, "; its probe of %s (%s) began after the kill, at %.2f s", p->device,
			p->driver, p->start_ns / NS);
	if (p) {
		if (probe_span__failed(p))
			fprintf(f, "; the probe failed (%s)", errno_name(p->ret));
		else
			fprintf(f, "; the probe completed at %.2f s", p->end_ns / NS);
	}
	if (drv)
		fprintf(f, "; device %s is %s", dev, strcmp(drv, "none") ? "bound" : "unbound");
	else if (p && probe_span__failed(p) && !bound_later(b, p))
		fprintf(f, "; device %s is left without a driver (no later probe bound it)", dev);
	if (ml)
		fprintf(f, "; %s(%s) returned %s at %.2f s", "finit_module", ml->name,
			errno_name(ml->ret), ml->end_ns / NS);
	if (k->sig != 9 && k->exit_ns >= 0)
		fprintf(f, "; the %s exited at %.2f s%s", strstr(k->target_comm, "udev-worker") ?
			"worker" : "task", k->exit_ns / NS, signal__killed_it(k) ? ", killed by it" : "");
	fclose(f);
	return s;
}

/*
 * A signal explain follows: one that hit a task loading a module, probing or
 * in kthread_create(); a SIGKILL from udevd to a worker; any other signal
 * udevd sent a worker that udevd itself logged as killed (its event timeout
 * sends udev.timeout_signal; at exit it sends SIGTERM to idle workers too).
 * SIGCONT is left out: udevd sends it after each of these.
 */
static bool kill__relevant(const struct boot_data *b, const struct kill_event *k)
{
	/* udevd follows every signal with SIGCONT (kill_and_sigcont()): no news. */
	if (k->sig == 18)
		return false;
	if (k->module_for_ns >= 0 || k->probe_for_ns >= 0 || k->kthread_for_ns >= 0)
		return true;
	return is_udev_timeout_kill(k) && (k->sig == 9 || udev_log_of(b, k->target_pid));
}

/* The @i-th signal explain follows, SIGKILLs first; NULL after the last. */
static const struct kill_event *relevant_signal(const struct boot_data *b, int *i)
{
	for (; *i < b->nr_kills + b->nr_signals; (*i)++) {
		const struct kill_event *k = *i < b->nr_kills ? &b->kills[*i] :
					     &b->signals[*i - b->nr_kills];

		if (kill__relevant(b, k)) {
			(*i)++;
			return k;
		}
	}
	return NULL;
}

/* Signals other than SIGKILL that explain follows. */
int boot__other_signals(const struct boot_data *b)
{
	const struct kill_event *k;
	int n = 0;

	for (int i = 0; (k = relevant_signal(b, &i));)
		n += k->sig != 9;
	return n;
}

/* The latest SIGKILL to the task of a probe before the probe ended, or NULL. */
static const struct kill_event *kill_before(const struct boot_data *b, const struct probe_span *p)
{
	char key[KEY_MAX];
	size_t len = key_pid(key, sizeof(key), p->pid);
	int i = tindex__latest_before(&boot_data__index(b)->kill_pid, key, len, p->end_ns, false);

	return i < 0 ? NULL : &b->kills[i];
}

/*
 * A kthread_create() that failed inside probe @p, or NULL: the one that
 * ended first (a task creates its threads one after another).
 */
static const struct kthread_wait *kthread_failed_in(const struct boot_data *b,
						    const struct probe_span *p)
{
	char key[KEY_MAX];
	size_t len = key_pid(key, sizeof(key), p->pid);
	int64_t from = p->start_ns == UNKNOWN_NS ? INT64_MIN : p->start_ns;
	int i = tindex__earliest_from(&boot_data__index(b)->kwait_failed_pid, key, len, from);

	return i < 0 || b->kwaits[i].end_ns > p->end_ns ? NULL : &b->kwaits[i];
}

/*
 * A stock kernel: it lacks the patch series' kthread_create tracepoints, so
 * the collector fell back to fentry/fexit on __kthread_create_on_node().
 */
static bool stock_kernel(const struct boot_data *b)
{
	return !strcmp(b->kthread_source, "fentry");
}

/* The kthread_create() kill policy a boot ran with. */
static const char *kill_policy_of(const struct boot_data *b)
{
	if (stock_kernel(b))
		return "none (a stock kernel: kthread_create() is always killable)";
	return *b->kill_policy ? b->kill_policy : "killable, the default";
}

/*
 * Why a probe failed, when a SIGKILL to its task explains it: the probe may
 * have started long after the kill (the same udev worker probing the next
 * device), and its kthread_create() fails once the kill policy stops
 * granting threads to a killed task.
 */
static void explain_failed_probe(const struct boot_data *b, const struct probe_span *p, FILE *out)
{
	const struct kill_event *k = kill_before(b, p);
	const struct kthread_wait *w = kthread_failed_in(b, p);

	fprintf(out, "\nfailed probe: %s of %s returned %s at %.2f s in %s [%d]%s\n", p->driver,
		p->device, errno_name(p->ret), p->end_ns / NS, p->comm, p->pid,
		p->async ? " (async)" : "");
	if (w)
		fprintf(out, "  kthread_create()%s%s returned %s at %.2f s\n", *w->caller ? " from " : "",
			w->caller, errno_name(w->ret), w->end_ns / NS);
	if (k)
		fprintf(out, "  %s [%d] had sent this task SIGKILL at %.2f s, %.2f s before%s; "
			"kill policy %s\n", k->sender_comm, k->sender_pid, k->ts_ns / NS,
			((w ? w->end_ns : p->end_ns) - k->ts_ns) / NS,
			w ? " kthread_create() failed" : " the probe failed", kill_policy_of(b));
}

/* "7.86 s", or "unknown" for a time the boot did not give. */
static const char *seconds_text(char *buf, size_t len, double s)
{
	if (isfinite(s))
		snprintf(buf, len, "%.2f s", s);
	else
		snprintf(buf, len, "unknown");
	return buf;
}

/* When udevd kills, for the boot's first line: "; udevd kills 10 s after it (systemd 257, boot.json)". */
static void deadline__header(FILE *out, const struct udev_deadline *d)
{
	if (!d->systemd)
		fprintf(out, "; udevd kills at it or up to %g s after it (its version unknown: systemd "
			"256 and later add %g s)", d->extra_if_new_s, d->extra_if_new_s);
	else if (d->extra_s == 0)
		fprintf(out, "; udevd kills at it (systemd %d%s%s, from %s)", d->systemd,
			d->systemd < UDEV_EXTRA_TIMEOUT_SINCE ? "" :
			", SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=", d->systemd < UDEV_EXTRA_TIMEOUT_SINCE ?
			"" : d->extra_set, d->version_from);
	else
		fprintf(out, "; udevd kills %g s after it, at %g s (systemd %d, from %s)", d->extra_s,
			d->timeout_s + d->extra_s, d->systemd, d->version_from);
}

/*
 * What becomes of a synchronous probe of @dur_s that outlasted udev's
 * event timeout: whether udevd (its version, its extra time) kills its
 * worker.
 */
static void deadline__probe_fate(FILE *out, const struct udev_deadline *d, double dur_s)
{
	double latest = udev_deadline__latest(d);

	if (d->systemd && dur_s >= latest) {
		fprintf(out, "; a synchronous probe this long gets its worker killed");
		if (d->systemd >= UDEV_EXTRA_TIMEOUT_SINCE)
			fprintf(out, " (udevd kills at %g s: the timeout and its extra %g s, systemd %d)",
				latest, d->extra_s, d->systemd);
	} else if (d->systemd) {
		fprintf(out, "; udevd (systemd %d) kills only at %g s, the timeout and its extra %g s: "
			"a synchronous probe this long keeps its worker", d->systemd, latest, d->extra_s);
	} else if (dur_s >= latest) {
		fprintf(out, "; a synchronous probe this long gets its worker killed by any udevd "
			"(at the timeout up to systemd 255, at %g s from 256)", latest);
	} else {
		fprintf(out, "; a synchronous probe this long gets its worker killed by udevd up to "
			"systemd 255, not from 256 (it kills at %g s; udevd's version unknown)", latest);
	}
}

void boot__explain(const struct boot_data *b, FILE *out)
{
	const struct kill_event *k;
	struct boot_metrics m;
	struct udev_deadline dl;
	char bt[32], gt[32], wt[32], *refused = boot_data__refusals(b);
	int n = 0, n_other = 0;

	boot__metrics(b, &m);
	boot_data__udev_deadline(b, &dl);
	fprintf(out, "boot %s (mode %s): %s; boot time %s (guest %s, QEMU wall %s); "
		"udev event timeout %g s", b->name, b->mode, b->outcome,
		seconds_text(bt, sizeof(bt), m.boot_s), seconds_text(gt, sizeof(gt), m.guest_s),
		seconds_text(wt, sizeof(wt), m.wall_s), b->event_timeout_s);
	deadline__header(out, &dl);
	fprintf(out, "\n");
	if (!b->has_events)
		fprintf(out, "  no event stream: the collector did not run (console evidence only)\n");
	if (refused)
		fprintf(out, "  %s\n", refused);
	free(refused);
	for (size_t i = 0; i < b->udev_ignored.n; i++)
		fprintf(out, "  udevd ignored a setting: %s\n", b->udev_ignored.v[i]);
	for (int i = 0; (k = relevant_signal(b, &i));) {
		const struct udev_kill *u = udev_log_of(b, k->target_pid);
		char *chain = kill__chain(b, k);

		if (k->sig == 9)
			fprintf(out, "\nkill %d: %s.\n", ++n, chain);
		else
			fprintf(out, "\nsignal %d: %s.\n", ++n_other, chain);
		if (u)
			fprintf(out, "  udevd's own record: Worker [%d] processing SEQNUM=%d killed\n",
				u->worker_pid, u->seqnum);
		if (k->stack.n) {
			fprintf(out, "  victim's kernel stack:\n");
			for (size_t j = 0; j < k->stack.n; j++)
				fprintf(out, "    %s\n", k->stack.v[j]);
		}
		free(chain);
	}
	/* udevd kills the event stream did not see (no collector): from the console. */
	if (!b->has_events)
		for (int i = 0; i < b->nr_udev_kills; i++) {
			fprintf(out, "\nkill %d: systemd-udevd killed worker [%d] (SEQNUM=%d) at %.2f s "
				"after the udev event timeout (%g s)", ++n, b->udev_kills[i].worker_pid,
				b->udev_kills[i].seqnum, b->udev_kills[i].ts_s, b->event_timeout_s);
			deadline__words(out, &dl);
			fprintf(out, " (console only)\n");
		}
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];

		if (probe_span__failed(p))
			explain_failed_probe(b, p, out);
	}
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];
		double d, frac;

		if (!probe_span__in_user_space(b, p))
			continue;
		d = (p->end_ns - p->start_ns) / NS;
		frac = d / b->event_timeout_s;
		if (frac < 1.0 / 3)
			continue;
		fprintf(out, "\nat risk: %s probe of %s took %.2f s = %.0f %% of the udev event "
			"timeout (%g s; udevd warns from one third)", p->driver, p->device, d,
			frac * 100, b->event_timeout_s);
		if (frac >= 1 && p->async)
			fprintf(out, "; async, so no worker waited for it");
		else if (frac >= 1)
			deadline__probe_fate(out, &dl, d);
		fprintf(out, "\n");
	}
	if (stock_kernel(b) && (n || n_other))
		fprintf(out, "\nseen on a stock kernel: kthread_create() through fentry/fexit on "
			"__kthread_create_on_node() (its return and whether a fatal signal was "
			"pending); not seen: the kernel's own warning naming the interrupted caller "
			"and a kill policy, which only the patched kernel has\n");
	for (size_t i = 0; i < b->warnings.n; i++)
		fprintf(out, "warning: %s\n", b->warnings.v[i]);
}

static json_object *strings__json(const struct strv *v)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < v->n; i++)
		json_object_array_add(arr, json_object_new_string(v->v[i]));
	return arr;
}

/* The kill and the kthread_create() behind a failed probe, if the events show them. */
static void failed_probe__json(const struct boot_data *b, const struct probe_span *p, json_object *e)
{
	const struct kill_event *k = kill_before(b, p);
	const struct kthread_wait *w = kthread_failed_in(b, p);

	json_object_object_add(e, "end_s", jdouble(p->end_ns / NS));
	if (w) {
		json_object_object_add(e, "kthread_caller", json_object_new_string(w->caller));
		json_object_object_add(e, "kthread_ret", json_object_new_int(w->ret));
		json_object_object_add(e, "kthread_end_s", jdouble(w->end_ns / NS));
	}
	if (k) {
		json_object_object_add(e, "killed_by", json_object_new_string(k->sender_comm));
		json_object_object_add(e, "killed_by_pid", json_object_new_int(k->sender_pid));
		json_object_object_add(e, "kill_s", jdouble(k->ts_ns / NS));
	}
}

json_object *boot__explain_json(const struct boot_data *b)
{
	json_object *o = json_object_new_object(), *kills = json_object_new_array();
	json_object *risk = json_object_new_array(), *failed = json_object_new_array();
	const struct kill_event *k;
	struct boot_metrics m;
	struct udev_deadline dl;
	char *refused = boot_data__refusals(b);

	boot__metrics(b, &m);
	boot_data__udev_deadline(b, &dl);
	json_object_object_add(o, "boot", json_object_new_string(b->name));
	/* boot_data__refusals()'s words, null when no record was refused */
	json_object_object_add(o, "refused", refused ? json_object_new_string(refused) : NULL);
	free(refused);
	json_object_object_add(o, "mode", json_object_new_string(b->mode));
	json_object_object_add(o, "outcome", json_object_new_string(b->outcome));
	json_object_object_add(o, "boot_s", jdouble(m.boot_s));
	json_object_object_add(o, "udev_event_timeout_s", jdouble(b->event_timeout_s));
	/* udevd's extra time and kill deadline: null when its version is unknown */
	json_object_object_add(o, "udevd_version", *dl.version ?
			       json_object_new_string(dl.version) : NULL);
	json_object_object_add(o, "udev_extra_timeout_s", jdouble(dl.extra_s));
	json_object_object_add(o, "udev_kill_deadline_s", jdouble(dl.timeout_s + dl.extra_s));
	json_object_object_add(o, "udev_ignored", strings__json(&b->udev_ignored));
	for (int i = 0; (k = relevant_signal(b, &i));) {
		json_object *e = json_object_new_object(), *st = json_object_new_array();
		char *chain = kill__chain(b, k);

		json_object_object_add(e, "explanation", json_object_new_string(chain));
		json_object_object_add(e, "signal", json_object_new_string(k->sig == 9 ? "SIGKILL" :
									    k->sig_name));
		json_object_object_add(e, "ts_s", jdouble(k->ts_ns / NS));
		json_object_object_add(e, "sender", json_object_new_string(k->sender_comm));
		json_object_object_add(e, "sender_pid", json_object_new_int(k->sender_pid));
		json_object_object_add(e, "target", json_object_new_string(k->target_comm));
		json_object_object_add(e, "target_pid", json_object_new_int(k->target_pid));
		json_object_object_add(e, "module", json_object_new_string(kill__module(b, k)));
		json_object_object_add(e, "device", json_object_new_string(k->probe_device));
		for (size_t j = 0; j < k->stack.n; j++)
			json_object_array_add(st, json_object_new_string(k->stack.v[j]));
		json_object_object_add(e, "stack", st);
		json_object_array_add(kills, e);
		free(chain);
	}
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];
		json_object *e;
		double d;

		if (probe_span__failed(p)) {
			e = json_object_new_object();
			json_object_object_add(e, "driver", json_object_new_string(p->driver));
			json_object_object_add(e, "device", json_object_new_string(p->device));
			json_object_object_add(e, "ret", json_object_new_int(p->ret));
			failed_probe__json(b, p, e);
			json_object_array_add(failed, e);
		}
		if (!probe_span__in_user_space(b, p))
			continue;
		d = (p->end_ns - p->start_ns) / NS;
		if (d < b->event_timeout_s / 3)
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "driver", json_object_new_string(p->driver));
		json_object_object_add(e, "device", json_object_new_string(p->device));
		json_object_object_add(e, "probe_s", jdouble(d));
		json_object_object_add(e, "fraction_of_timeout", jdouble(d / b->event_timeout_s));
		json_object_object_add(e, "async", json_object_new_boolean(p->async));
		/* killed if synchronous: null when udevd's version leaves it open */
		json_object_object_add(e, "past_kill_deadline",
				       d >= udev_deadline__latest(&dl) ? json_object_new_boolean(1) :
				       d < deadline__earliest(&dl) ? json_object_new_boolean(0) :
				       NULL);
		json_object_array_add(risk, e);
	}

	json_object_object_add(o, "kills", kills);
	json_object_object_add(o, "failed_probes", failed);
	json_object_object_add(o, "at_risk", risk);
	json_object_object_add(o, "warnings", strings__json(&b->warnings));
	return o;
}
