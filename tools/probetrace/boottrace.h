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
	"signal:signal_generate " \
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

/*
 * Probes the boot-time trace saw start but not end: they end after the
 * cutover, where the collector reports them, and this is their start.
 */
struct boottrace_open {
	int n;
	struct {
		int pid;
		uint64_t start_ns;
		char driver[32];
		char device[32];
		bool taken;
	} probe[BOOTTRACE_MAX_OPEN];
};

/*
 * Stop our boot-time kprobe events (group "bootprobe") if disable, then
 * read tracefs/trace and emit the records of events before attach_ns;
 * keep the probes still open at attach_ns in @open (may be NULL).
 * Returns 0, or -errno when the trace could not be read at all.
 */
int boottrace__emit(const char *tracefs, uint64_t attach_ns, bool disable,
		    struct output *out, struct boottrace_stats *st,
		    struct boottrace_open *open);

/*
 * The start of the open probe of @pid on @driver/@device, once: true and
 * *start_ns set, or false when the boot-time trace did not see it start.
 */
bool boottrace_open__take(struct boottrace_open *open, int pid,
			  const char *driver, const char *device,
			  uint64_t *start_ns);
json_object *boottrace__stats_json(const struct boottrace_stats *st,
				   const char *tracefs);

#endif
