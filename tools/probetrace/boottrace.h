/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Before-user-space coverage: initcalls and driver probes that ran before
 * the collector attached, read back from the kernel's boot-time tracing
 * and emitted as records flagged "pre_collector": true.
 *
 * The guest's kernel command line turns the tracing on: PT_BOOT_ARGS.
 */
#ifndef PROBETRACE_BOOTTRACE_H
#define PROBETRACE_BOOTTRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>

/*
 * The kernel arguments that record what the collector cannot see (printed
 * by `probetrace --boot-args`).  really_probe(dev, drv): %di is dev, whose
 * first field is kobj, whose first field is its name; %si is drv, whose
 * first field is its name.  really_probe returns a driver's probe error as
 * a positive number, so ret is read as s32.
 */
#define PT_BOOT_ARGS \
	"trace_event=initcall:initcall_start,initcall:initcall_finish," \
	"kthread:kthread_create_start,kthread:kthread_create_end," \
	"signal:signal_generate,module:module_load " \
	"kprobe_event=p:bootprobe/probe_entry,really_probe," \
	"drv=+0(+0(%si)):string,dev=+0(+0(%di)):string;" \
	"r:bootprobe/probe_return,really_probe,ret=$retval:s32 " \
	"trace_clock=boot"

struct output;

struct boottrace_stats {
	bool sigchld;		/* in: keep SIGCHLD (probetrace --sigchld) */
	char clock[16];		/* the trace clock in use: "boot", "local", ... */
	uint64_t lines;		/* event lines read */
	uint64_t records;	/* pre-collector records emitted */
	uint64_t skipped_late;	/* events after the collector attached */
	uint64_t unparsed;	/* event lines of an unknown shape */
	uint64_t unmatched;	/* starts without an end (emitted as starts) */
	uint64_t lost;		/* entries overwritten in the trace buffer */
	uint64_t sigchld_filtered;	/* SIGCHLD left out (see sigchld) */
	int err;		/* -errno reading the trace, 0 if read */
};

#define BOOTTRACE_MAX_OPEN 64

enum boottrace_kind { BT_INITCALL, BT_PROBE, BT_MODULE };

/* A span the boot-time trace saw start and not end before the cutover. */
struct boottrace_span {
	enum boottrace_kind kind;
	int pid;
	uint64_t start_ns;
	uint64_t end_ns;	/* 0 while running */
	bool end_from_trace;	/* its record was written from the trace */
	char comm[32];
	char name[64];		/* initcall function, driver or module */
	char device[32];
	char module[32];	/* initcall: the module whose init it is */
};

/*
 * The spans open at the cutover.  A call already running when a BPF
 * program attaches never reaches its fexit (the trampoline wraps only the
 * calls that enter after it), so their ends come from the boot-time
 * kretprobe and initcall_finish, which stay enabled and are read from
 * trace_pipe until the last open span has ended.
 */
struct boottrace_open {
	int n;
	struct boottrace_span span[BOOTTRACE_MAX_OPEN];
	int pipe_fd;		/* tracefs/trace_pipe, -1 once nothing is open */
	bool disable;		/* turn the followed events off at the end */
	char tracefs[256];
	uint64_t attach_ns;
	size_t len;
	char buf[8192];		/* a partial line of trace_pipe */
	int nqueued;		/* ends read, not yet past the BPF records */
	struct boottrace_end_event {
		uint64_t ts_ns;
		int pid;
		int ret;
		bool probe;	/* probe_return, else initcall_finish */
	} queued[256];
	int nclaimed;		/* ends of other probes on those threads, */
	struct {		/* from BPF records: not theirs */
		int pid;
		uint64_t end_ns;
	} claimed[64];
	uint64_t ends_from_trace;	/* records written from trace_pipe */
	uint64_t duplicates;	/* BPF records of an end already written */
	uint64_t lines_after;	/* trace_pipe lines after the cutover */
	uint64_t lost;		/* ends or lines that did not fit: not read */
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

/* True while a span open at the cutover runs on @pid. */
bool boottrace_open__has(const struct boottrace_open *open, int pid);

json_object *boottrace__stats_json(const struct boottrace_stats *st,
				   const struct boottrace_open *open,
				   const char *tracefs);

#endif
