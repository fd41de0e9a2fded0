/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Before-user-space coverage: initcalls and driver probes that ran before
 * the collector attached, read back from the kernel's boot-time tracing
 * and emitted as records flagged "pre_collector": true.
 *
 * The guest's kernel command line turns the tracing on: probetrace
 * --boot-args (bootargs.c) makes it from the booted kernel's BTF.
 */
#ifndef PROBETRACE_BOOTTRACE_H
#define PROBETRACE_BOOTTRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>

#include "bootargs.h"

/*
 * The kernel arguments that record what the collector cannot see are made
 * for each kernel from its BTF (bootargs.c, `probetrace --boot-args`).
 * really_probe(dev, drv): the driver's and device's names and the
 * driver's module ("(fault)" when built in); really_probe returns a
 * driver's probe error as a positive number, so ret is read as s32.  A
 * module load is its syscall, from entry to return (x86-64 wrappers, as
 * the BPF side); a probe runs asynchronously inside async_run_entry_fn().
 * Return probes may be pending on many threads at once (udevd's workers,
 * async kworkers): 64 instances each, and the misses are read back from
 * kprobe_profile.  A disk or network interface appears when
 * device_add_disk(parent, disk, groups) or register_netdevice(dev)
 * returns.  A disk's name is read at entry, an interface's once
 * register_netdevice() has made "eth%d" a name, when it calls
 * netdev_register_kobject(dev); each is paired with the return on the
 * same thread.  A disk's parent and grandparent and their drivers name
 * the probe that made it, as the BPF side's ancestor walk does; an
 * interface's is the probe its thread runs.
 */

struct output;

struct boottrace_stats {
	bool sigchld;		/* in: keep SIGCHLD (probetrace --sigchld) */
	/*
	 * in: this kernel's kprobe_event= list (bootargs__kprobes()), made
	 * from the BTF @kernel_btf names, or NULL with why in @kernel_err
	 * (NULL too: not checked).  The bootprobe/ kprobes tracefs lists are
	 * compared with it, and the records of an event made for another
	 * kernel refused.
	 */
	const char *kernel_kprobes, *kernel_btf, *kernel_err;
	bool args_checked;	/* kprobe_events read and compared */
	char args_err[128];	/* why not, if it was to be */
	struct bootargs_check args;
	uint64_t args_refused[BOOTARGS_MAX_EVENTS];	/* by args.other[] */
	uint64_t refused;	/* records refused: arguments made for
				 * another kernel (the sum of those) */
	char clock[16];		/* the trace clock in use: "boot", "local", ... */
	uint64_t lines;		/* event lines read */
	uint64_t records;	/* pre-collector records emitted */
	uint64_t skipped_late;	/* events after the collector attached */
	uint64_t unparsed;	/* event lines of an unknown shape */
	uint64_t unmatched;	/* starts without an end (emitted as starts) */
	uint64_t starts_dropped;	/* starts not kept: too many open at once */
	uint64_t lost;		/* entries overwritten in the trace buffer */
	uint64_t sigchld_filtered;	/* SIGCHLD left out (see sigchld) */
	/* Read at boottrace__finish(): */
	uint64_t kprobe_missed;	/* bootprobe/ kprobe hits not recorded */
	int events_left_on;	/* boot-time events still enabled */
	int err;		/* -errno reading the trace, 0 if read */
};

/* Why the records of a kprobe made for another kernel are refused. */
#define BOOTTRACE_OTHER_KERNEL "boot-time trace arguments made for another kernel"

#define BOOTTRACE_MAX_OPEN 256

/*
 * BT_MODULE: a module load, from its syscall's entry to its return (name
 * from module:module_load), or without the syscall events from
 * module:module_load to the end of the module's init.  BT_ASYNC: an async
 * function running (only to tell an async probe).  BT_DISK, BT_NETDEV: a
 * disk or network interface being registered (a devnode record at the end).
 */
enum boottrace_kind { BT_INITCALL, BT_PROBE, BT_MODULE, BT_ASYNC, BT_DISK, BT_NETDEV };

/* A span the boot-time trace saw start and not end before the cutover. */
struct boottrace_span {
	enum boottrace_kind kind;
	int pid;
	uint64_t start_ns;
	uint64_t end_ns;	/* 0 while running */
	bool end_from_trace;	/* its record was written from the trace */
	bool async;		/* probe: inside an async function */
	char comm[32];
	char name[64];		/* initcall function, driver, module, disk
				 * or interface */
	char device[32];	/* probe: its device; devnode: the device
				 * bound to driver below ("" if none) */
	char driver[32];	/* devnode: the driver that made it */
	char module[32];	/* initcall: the module whose init it is;
				 * probe: the driver's owner ("" built in) */
	char syscall[16];	/* module: "finit_module", "init_module", or
				 * "" when only module:module_load was seen */
};

/*
 * The spans open at the cutover.  A call already running when a BPF
 * program attaches never reaches its fexit (the trampoline wraps only the
 * calls that enter after it), so their ends come from the boot-time
 * kretprobes and initcall_finish, read from trace_pipe.  Each end event
 * stays enabled while a span of its kind is open, no longer: the
 * probes' kretprobe left on runs its handlers in every later probe,
 * outside BPF's span (docs/accuracy.md).
 */
struct boottrace_open {
	int n;
	struct boottrace_span span[BOOTTRACE_MAX_OPEN];
	int pipe_fd;		/* tracefs/trace_pipe, -1 once nothing is open */
	int dir_fd;		/* tracefs, until boottrace__end() (-1: none) */
	bool disable;		/* turn the followed events off at the end */
	unsigned int ends_off;	/* end events turned off (bit per event) */
	uint64_t attach_ns;
	size_t len;
	char buf[8192];		/* a partial line of trace_pipe */
	int nqueued;		/* ends read, not yet past the BPF records */
	struct boottrace_end_event {
		uint64_t ts_ns;
		int pid;
		long ret;
		enum boottrace_kind kind;	/* of the span it ends */
	} queued[256];
	int nclaimed;		/* ends of other probes on those threads, */
	struct {		/* from BPF records: not theirs */
		int pid;
		uint64_t end_ns;
	} claimed[64];
	uint64_t ends_from_trace;	/* records written from trace_pipe */
	uint64_t last_end_ns[BT_NETDEV + 1];	/* per kind: the last end read */
	uint64_t duplicates;	/* BPF records of an end already written */
	uint64_t lines_after;	/* trace_pipe lines after the cutover */
	uint64_t lost;		/* open spans, ends or lines that did not fit:
				 * not followed */
};

/*
 * Turn off the boot-time events whose starts the collector now sees (if
 * disable), read tracefs/trace and emit the records of events before
 * attach_ns; keep the spans still open at attach_ns in @open and follow
 * their ends (boottrace__follow()).  Returns 0, or -errno when the trace
 * could not be read at all.
 */
int boottrace__emit(const char *tracefs, uint64_t attach_ns, bool disable,
		    struct output *out, struct boottrace_stats *st,
		    struct boottrace_open *open);

/*
 * Read what trace_pipe holds now and write the records of open spans that
 * ended before @up_to_ns (the BPF records before it have been read, so a
 * nested probe's end is known not to be theirs); once none is open, stop
 * following.  Returns the records written.
 */
int boottrace__follow(struct boottrace_open *open, struct output *out,
		      uint64_t up_to_ns);

/* Stop following: the spans still open stay without an end. */
void boottrace__stop(struct boottrace_open *open);

/*
 * At the collector's end: stop following, then read into @st what only
 * the end can tell (the kprobe hits the kernel could not record, the
 * boot-time events still enabled), and let tracefs go.
 */
void boottrace__finish(struct boottrace_open *open, struct boottrace_stats *st);

enum boottrace_end {
	BT_NOT_OPEN,		/* not a span open at the cutover */
	BT_ENDED,		/* it was; it is ended now */
	BT_DUPLICATE,		/* its end was already written from the trace */
};

/*
 * A BPF probe record of @pid on @driver/@device ending at @end_ns: ends the
 * matching open probe.  When *start_ns is 0 it is set from the trace.
 */
enum boottrace_end boottrace_open__end(struct boottrace_open *open, int pid,
				       const char *driver, const char *device,
				       uint64_t end_ns, uint64_t *start_ns);

/*
 * Into a signal's @state: the module load and probe the trace saw @pid
 * in at @ts_ns, where the collector's own state has none ("from":
 * "boot_trace").  True if it added any.
 */
bool boottrace_open__state(const struct boottrace_open *open, int pid,
			   uint64_t ts_ns, json_object *state);

/*
 * A BPF module_load record of @pid ending at @end_ns: ends the module load
 * open at the cutover on that thread; *span is set to it (its start and
 * name) when BT_ENDED.
 */
enum boottrace_end boottrace_open__end_module(struct boottrace_open *open,
					      int pid, uint64_t end_ns,
					      const struct boottrace_span **span);

/*
 * A BPF devnode record (@kind BT_DISK or BT_NETDEV) of @name on @pid at
 * @end_ns: ends that registration if it was open at the cutover.
 */
enum boottrace_end boottrace_open__end_devnode(struct boottrace_open *open,
					       enum boottrace_kind kind, int pid,
					       const char *name, uint64_t end_ns);

/*
 * Into a probe's @origin whose kind the collector could not tell: the
 * load of @owner the trace saw running at @start_ns (the thread that
 * loads it, "from": "boot_trace").  True if it set it.
 */
bool boottrace_open__origin(const struct boottrace_open *open,
			    const char *owner, uint64_t start_ns,
			    json_object *origin);

/* True while a span open at the cutover runs on @pid. */
bool boottrace_open__has(const struct boottrace_open *open, int pid);

json_object *boottrace__stats_json(const struct boottrace_stats *st,
				   const struct boottrace_open *open,
				   const char *tracefs);

#endif
