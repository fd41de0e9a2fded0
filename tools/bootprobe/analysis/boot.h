/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One boot folder, loaded: boot.json, the console's markers and udevd's log
 * lines, and the probetrace event stream (docs/events.md).  Loading never
 * fails on bad content: it keeps what it can use and records a warning that
 * names the file and line.
 */
#ifndef BOOTPROBE_BOOT_H
#define BOOTPROBE_BOOT_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

#define NAME_LEN 64
#define UNKNOWN_NS INT64_MIN

/*
 * Where a record came from: the collector's BPF programs, its boot-time
 * trace, or a line of the kernel's own log (docs/gather.md).
 */
enum record_source { SRC_BPF, SRC_BOOT_TRACE, SRC_KERNEL_LOG };
/* The source's name in outputs: "bpf", "boot_trace", "kernel_log". */
const char *record_source__name(int source);

struct probe_span {
	char driver[NAME_LEN], device[NAME_LEN], bus[NAME_LEN], owner[NAME_LEN];
	char comm[NAME_LEN], origin[NAME_LEN], origin_module[NAME_LEN];
	int pid, origin_pid, ret;
	bool async, pre_collector;
	bool other_clock;	/* from a boot-time trace on another clock than "boot" */
	unsigned char source;	/* enum record_source */
	/* kernel log: the driver named by the record, the sysfs map, or not known ("?") */
	unsigned char driver_from;	/* enum driver_from */
	int log_line;		/* kernel log: the line it came from */
	int64_t start_ns, end_ns;	/* start UNKNOWN_NS if it began before the collector */
};

enum driver_from { DRV_FROM_RECORD, DRV_FROM_MAP, DRV_UNKNOWN };

struct module_load {
	char name[NAME_LEN], comm[NAME_LEN];
	int pid, ret;
	int64_t start_ns, end_ns;
};

struct kthread_wait {
	char comm[NAME_LEN], caller[128], probe_device[NAME_LEN];
	int pid, ret;
	bool fatal_signal;
	int64_t end_ns, wait_ns;
};

/*
 * A signal sent to a task: every SIGKILL, and any other signal that hit a
 * task loading a module or probing, or that udevd sent (its event timeout
 * sends udev.timeout_signal, SIGKILL by default).
 */
struct kill_event {
	int64_t ts_ns;
	int sig;
	int sender_pid, target_pid;
	char sender_comm[NAME_LEN], target_comm[NAME_LEN], result[NAME_LEN];
	char sig_name[16];
	/* what became of it: delivered (signal_deliver), the target's exit */
	int64_t delivered_ns, exit_ns;	/* -1: not seen */
	char handler[24];		/* "default", "ignore" or the handler's address */
	int exit_code;			/* the exit record's: low 7 bits the killing signal */
	/* the target's state at the kill */
	char module[NAME_LEN], probe_driver[NAME_LEN], probe_device[NAME_LEN];
	char kthread_caller[128];
	int64_t module_for_ns, probe_for_ns, kthread_for_ns;	/* -1: not in it */
	struct strv stack;
};

struct udev_kill {
	int worker_pid, seqnum;
	double ts_s;
};

/* udevd's "Spawned process 'CMD' [PID] timed out after T, killing" */
struct udev_timeout {
	int pid;
	double ts_s;
	char cmd[128];
};

/* An initcall from initcall_debug's "initcall FUNC returned RET after N usecs" */
struct log_initcall {
	char func[160];
	int ret;
	int64_t start_ns, end_ns;
};

/*
 * A probe the kernel deferred: its "deferred probe pending" line (the
 * reason from 6.12 on), or /sys/kernel/debug/devices_deferred at gather time.
 */
struct log_deferral {
	char device[NAME_LEN], reason[160];
	double ts_s;			/* NAN: from devices_deferred (no time) */
	bool from_debugfs;
};

/*
 * What reading a kernel log found about the log itself (docs/gather.md):
 * the kernel's first line, how many boots it holds, where it begins, a cut
 * end, the boot ids its files name.
 */
struct log_account {
	int records;			/* probe, failure, deferral, initcall, udevd lines read */
	int linux_versions;		/* "Linux version" lines: one per boot */
	double first_stamp_s;		/* the first stamped line's time; NAN if none */
	bool begin_missing;		/* no "Linux version" line: the buffer overflowed */
	bool cut;			/* the log ends inside a line */
	char boot_id[40];		/* the kernel log's "# bootprobe-gather: boot_id=" */
	char release[NAME_LEN];		/* "Linux version RELEASE" */
	char *cmdline;			/* "Command line: ..." */
	char *two_boots;		/* "FILE:LINE: a second 'Linux version' line ..." */
	char *non_text;			/* "FILE:LINE: bytes that are not UTF-8 text ..." */
	char *first_at;			/* "FILE:LINE" of the first stamped line */
	int probe_lines, failed_lines, deferred_lines, initcall_lines;
	int unpaired_failures;		/* failures without a "returned" line: no span */
	int non_utf8_lines;
};

/* A disk or network interface appearing, and whose probe made it. */
struct devnode {
	char name[NAME_LEN], kind[8];		/* "vda", "block" or "net" */
	char bound_driver[NAME_LEN], bound_device[NAME_LEN];
	int ret;
	int64_t ts_ns;
};

struct device_state {
	char device[NAME_LEN], driver[NAME_LEN];	/* driver "none" if unbound */
};

/* A small text file the guest sent in the stream: what systemd-analyze said. */
struct attachment {
	char name[NAME_LEN];
	char *text;
	bool truncated;			/* the collector cut it at its size limit */
};

/* The collector's PT_ATTACH_MAX_FILES: finish's files and a gathered folder's. */
#define MAX_ATTACHMENTS 32
#define MAX_ATTACHMENT_BYTES (1024 * 1024)

struct boot_data {
	char *dir, *name, *mode, *outcome, *kernel_cmdline;
	char *host;			/* the machine that ran it, "" if boot.json does not say */
	char *initrd_generator;		/* "dracut 106-6", "" if boot.json does not say */
	double wall_s;
	double event_timeout_s;		/* udev's (struct boot_settings) */
	/*
	 * udevd's version, which says when it kills (boot_data__udev_deadline()):
	 * boot.json's udev_version (the image's udev package), udevd's own first
	 * "Starting systemd-udevd version V" line, PID 1's first "systemd V
	 * running in system mode" (udev and systemd are one source package);
	 * "" where not said
	 */
	char udev_version[NAME_LEN], udevd_log_version[NAME_LEN], systemd_log_version[NAME_LEN];
	char kill_policy[NAME_LEN];	/* kthread.sigkill_policy=, "" if not set */
	/*
	 * console markers, seconds since kernel start on the records' clock
	 * (CLOCK_BOOTTIME): printk's stamps less printk_offset_s; NAN when absent
	 */
	double kernel_done_s;		/* "Run /init as init process" */
	double init_start_s, coldplug_start_s, coldplug_done_s, devices_done_s, complete_s;
	int expected, probed;
	double disks_done_s;		/* "N of M expected disks present" */
	int disks_expected, disks;
	/* systemd (image debian): the initramfs handing over to the root (its
	 * init-bottom mark, just before run-init starts systemd), systemd's
	 * first line in the root ("systemd[1]: systemd N running in system
	 * mode"), multi-user.target's own monotonic timestamp */
	double handover_s, systemd_start_s, multi_user_s;
	double init_exec_s;		/* the stream: PID 1 executes the root's init */
	/* our /init: the collector launched, udevd launched */
	double collector_start_s, udevd_start_s;
	/* printk's stamp of the console's last line (uncorrected); NAN if unstamped */
	double last_stamp_raw_s;
	/* boot.json: QEMU start to the console's last write, host clock */
	double console_last_write_s;
	struct strv udev_ignored;	/* udevd's "Invalid value for OPTIONS key, ignoring" lines */
	struct udev_kill *udev_kills;
	int nr_udev_kills;
	struct udev_timeout *udev_timeouts;
	int nr_udev_timeouts;
	/*
	 * A boot read from a kernel log (no event stream, and initcall_debug,
	 * driver-core or udevd records in its log): its probe spans came from
	 * the log (source SRC_KERNEL_LOG), and what a log cannot give is marked
	 * incomplete (boot_data__losses()).
	 */
	bool from_log;
	struct log_account log;
	struct log_initcall *initcalls;
	int nr_initcalls;
	struct log_deferral *deferrals;
	int nr_deferrals;
	struct device_state *devices;
	int nr_devices;
	/* events */
	bool has_events, has_header, has_trailer;
	/*
	 * How the collector saw kthread_create() (the header's kthread_source):
	 * "tracepoint" on our patched kernel, "fentry" on a stock one.
	 */
	char kthread_source[NAME_LEN];
	/*
	 * printk's clock (local_clock()) less CLOCK_BOOTTIME, measured by the
	 * collector at its start (the header's printk_offset_ns); 0 if not.
	 */
	double printk_offset_s;
	double attach_s;		/* the header's attach_ns: all programs attached */
	int64_t events_written, events_dropped, bpf_drops;
	/*
	 * The boot-time trace's losses (the trailer's boot_trace): entries
	 * overwritten in its buffer (any event), and spans it could not keep
	 * (kprobe hits not recorded, starts dropped, spans not followed
	 * across the cutover).
	 */
	int64_t boot_trace_overwritten, boot_trace_spans_lost;
	struct strv not_attached;
	struct probe_span *probes;
	int nr_probes;
	struct module_load *modloads;
	int nr_modloads;
	struct kthread_wait *kwaits;
	int nr_kwaits;
	struct kill_event *kills;	/* SIGKILLs generated */
	int nr_kills;
	struct kill_event *signals;	/* other signals (struct kill_event says which) */
	int nr_signals;
	/*
	 * Kept signals the delivery and exit records were matched against,
	 * summed: at most one step per signal for each (a test counts them).
	 */
	uint64_t signal_match_steps;
	struct attachment *attachments;
	int nr_attachments;
	struct devnode *devnodes;
	int nr_devnodes;
	int unknown_records;
	int rejected;			/* stream records refused (warnings say why) */
	int console_refused;		/* console lines refused: a number out of range */
	char *first_rejected;		/* the first of them, "file:line: why" */
	unsigned refused_incomplete;	/* enum incomplete: what those refusals cost */
	/*
	 * The first refused record the boot cannot do without (its header,
	 * trailer or a probe span): "probe spans unusable (file:line: why)";
	 * NULL if none.  See boot_data__unusable().
	 */
	char *unusable;
	struct strv warnings;		/* "file:line: what" */
	struct boot_index *index;	/* bootindex.h: built on first use */
	/*
	 * Memory: what the boot holds as counted while it is read (boot.c,
	 * "memory budget"), the most it held, the budget it was read under
	 * (0: none), whether that was what the run's budget had left, and
	 * once past it, the one line that says so ("DIR: over its memory
	 * budget of N MiB ...").
	 */
	size_t mem_bytes, mem_peak, mem_budget;
	bool mem_budget_of_run;
	char *over_budget;
};

/*
 * The memory budgets (docs/scale.md): a boot's, and a run's for the boots it
 * holds at once; BOOTPROBE_MAX_BOOT_MEM and BOOTPROBE_MAX_RUN_MEM set them
 * (bytes, or a number and K, M or G; at least 1 MiB).
 */
#define BOOT_MEM_DEFAULT ((size_t)512 << 20)
#define RUN_MEM_DEFAULT ((size_t)1 << 30)
/* Read the environment's; -1 with the one-line reason in @err for a value that is no size. */
int mem_budget__init(char *err, int errlen);
size_t mem_budget__boot(void);
size_t mem_budget__run(void);

/* An empty boot (no boot.json read): for tests and the fuzzer. */
struct boot_data *boot_data__new(const char *dir);
/*
 * The parts of a boot's counts, one bit each: what a loss (boot_data__losses())
 * or a refused record (boot_data__refusal_cost()) makes incomplete.
 * docs/events.md, "What a refused record costs", lists the metrics of each.
 */
enum incomplete {
	INC_PROBES = 1 << 0,		/* probe spans */
	INC_KILLS = 1 << 1,		/* SIGKILLs and the other signals followed */
	INC_SIGNAL_ENDS = 1 << 2,	/* what became of a signal: delivered, the exit */
	INC_KTHREADS = 1 << 3,		/* kthread_create() */
	INC_MODULES = 1 << 4,		/* module loads */
	INC_DEVNODES = 1 << 5,		/* disks and interfaces appearing */
	INC_INIT_EXEC = 1 << 6,		/* PID 1's exec of the root's init */
	INC_ATTACHMENTS = 1 << 7,	/* the guest's files: systemd-analyze's output */
	INC_EVERY = (1 << 8) - 1,
};
/* Each part's name in reports, in bit order; NULL past the last. */
const char *incomplete__name(unsigned bit);
/* @mask in words, ", "-separated ("every count" when all) into @buf of @len. */
const char *incomplete__text(unsigned mask, char *buf, size_t len);

/*
 * What a refused record of stream type @type (enum event_type; -1: its
 * type could not be read) costs the boot: the parts it makes incomplete, or
 * (*@unusable set, 0 returned) the part the boot cannot do without: its
 * "header", "trailer" or "probe spans".  One table, in boot.c.
 */
unsigned boot_data__refusal_cost(int type, const char **unusable);

/*
 * A boot whose header, trailer or probe spans had a record refused: no
 * statistic can use it (b->unusable says why).  Any other refused record
 * (damaged or forged: a wrong type, a time out of range, a NUL byte, ...)
 * costs only what depends on its type (b->refused_incomplete); a stream cut
 * short is a loss (boot_data__losses()), not a refusal.
 */
static inline bool boot_data__unusable(const struct boot_data *b)
{
	return b->unusable != NULL;
}
/*
 * What the refused records of @b cost, in words, for every output that
 * says it (report, compare, explain, import): "probe spans unusable
 * (FILE:LINE: why)" for an unusable boot, else "N records refused (first:
 * FILE:LINE: why); incomplete: PARTS"; NULL if none was refused.  The
 * caller frees it.
 */
char *boot_data__refusals(const struct boot_data *b);
/* Load @dir; NULL only if it is not a boot folder at all (message in @err). */
struct boot_data *boot_data__load(const char *dir, char *err, int errlen);
/*
 * The same for the boot folder open at @dfd (@dir its path, for messages):
 * its files are read without following a link (one is named and refused).
 */
struct boot_data *boot_data__load_at(int dfd, const char *dir, char *err, int errlen);
/*
 * The same under a memory budget of @budget bytes (@of_run: what the run's
 * budget had left): NULL with *@over true and the one line in @err when
 * reading the boot takes more.
 */
struct boot_data *boot_data__load_budget(int dfd, const char *dir, size_t budget, bool of_run,
					 bool *over, char *err, int errlen);
void boot_data__free(struct boot_data *b);

/*
 * The event stream's @len bytes of text, read by the one stream reader
 * (tools/common/events.h); exposed for tests and the fuzzer.
 */
void boot_data__parse_events(struct boot_data *b, const char *text, size_t len,
			     const char *label);
/* The console's lines; after the events, whose header says printk's offset. */
void boot_data__parse_console(struct boot_data *b, const char *text, const char *label);
/*
 * A console.log's (or an imported kernel log's) @len bytes as a boot folder's
 * is read: lines with a NUL byte blanked and named, the text made inert
 * (text_clean()), then parsed; @text is changed.  For the loader and the fuzzer.
 */
void boot_data__read_console(struct boot_data *b, char *text, size_t len, const char *label);
/*
 * The files a gathered boot keeps beside its kernel log (docs/gather.md),
 * read from the folder open at @dfd (@dir its path, for messages): udevd's
 * journal lines (udevd.log), the device-to-driver map (drivers.txt), the
 * deferred probes (devices-deferred.txt) and systemd-analyze's and the
 * machine's text files; then what the log lacks is judged (a beginning
 * overwritten, a map of another boot).  After the console.  For the
 * loader and import.
 */
void boot_data__read_beside_log(struct boot_data *b, int dfd, const char *dir);
/*
 * A collector's stream that carried bootprobe-gather's folder of its boot
 * (bootprobe.gather=1): its gather.txt's initrd_generator into
 * @b->initrd_generator, read and refused as a folder's is.
 */
void boot_data__read_gather_attachment(struct boot_data *b);
/*
 * What a boot read from a kernel log cannot give, whatever the log holds:
 * the parts of enum incomplete no log line has (kthread_create(), the
 * signal to the worker and its state and stack, module loads, disks and
 * interfaces, init exec).  docs/gather.md lists them.
 */
#define LOG_CANNOT_GIVE (INC_KILLS | INC_SIGNAL_ENDS | INC_KTHREADS | INC_MODULES | \
			 INC_DEVNODES | INC_INIT_EXEC)
/*
 * The kinds of kernel-log record, for what a refused one costs
 * (boot_data__log_refusal_cost(), docs/gather.md's table).
 */
enum log_kind {
	LOG_PROBE,		/* "probe of DEV [with driver DRV] returned RET after N usecs" */
	LOG_PROBE_FAILED,	/* "DRV: probe of DEV failed with error N", 6.12's dev_err */
	LOG_DEFERRED,		/* "deferred probe pending[: REASON]" */
	LOG_INITCALL,		/* "initcall FUNC returned RET after N usecs" */
	LOG_UDEV_KILL,		/* udevd's "Worker [PID] processing SEQNUM=N killed" */
	LOG_UDEV_TIMEOUT,	/* udevd's "Spawned process ... timed out after T, killing" */
	LOG_MAP,		/* a drivers.txt line (the sysfs map) */
	LOG_KIND_MAX,
};
const char *log_kind__name(int kind);
unsigned boot_data__log_refusal_cost(int kind, const char **unusable);
/*
 * boot.json's text (@len bytes, NUL-terminated, read from @label) into @b:
 * name, mode, outcome, kernel command line, wall time.  -1 with a message in
 * @err if it is not a finished boot's (no JSON object, a NUL byte).
 */
int boot_data__parse_boot_json(struct boot_data *b, const char *text, size_t len,
			       const char *label, char *err, int errlen);

/*
 * What the collector lost in a boot or the reader refused, and so which of
 * its counts are incomplete: any dropped event (BPF ring buffer, writer, an
 * entry overwritten in the boot-time trace) or a stream without its trailer
 * makes every count incomplete; a span the boot-time trace could not keep
 * makes the probe spans incomplete; a program that was not attached makes
 * its own records (with no stand-in attached) incomplete; a refused record
 * makes what depends on its type incomplete (boot_data__refusal_cost()).
 */
struct boot_losses {
	unsigned incomplete;	/* enum incomplete: drops or no trailer make it INC_EVERY */
	int64_t lost;		/* bpf_drops + events_dropped + the boot-time trace's (saturated) */
	int refused;		/* records refused (b->rejected) */
};
void boot_data__losses(const struct boot_data *b, struct boot_losses *l);

/* The text of attachment @name, or NULL. */
const char *boot_data__attachment(const struct boot_data *b, const char *name);
/*
 * Write the attachments the host keeps (systemd-analyze-*.txt, uname-r.txt)
 * into the boot folder.  File names come from a fixed list, never from the
 * stream.  The number written, or -errno.
 */
int boot_data__save_attachments(const struct boot_data *b);

/*
 * Which definition of boot time a boot takes, decided here and only here
 * (the what-if model's kind of boot is this too): a systemd boot reached
 * multi-user.target and has no lab coldplug mark; every other boot is the
 * lab's (our /init, which marks udev's queue empty after coldplug).
 */
bool boot_data__is_systemd(const struct boot_data *b);

/*
 * Boot time, defined here and only here, from kernel start (0):
 * - on a systemd boot (boot_data__is_systemd()), to multi-user.target
 *   reached: what systemd itself calls booted, whatever probes go on after
 *   it (those are late: probe_span__late(), devnode__late());
 * - on a lab boot, to the later of udev's queue being empty after coldplug
 *   ("coldplug done"), the end of the last driver probe that ran in user
 *   space (async ones included), /init's "expected devices probed" mark and
 *   its "expected disks present" mark.
 * NAN if the boot never got there.
 */
double boot_data__boot_time(const struct boot_data *b);

/*
 * When the boot's udevd killed a worker: its event timeout, plus from
 * systemd 256 its extra time (struct boot_settings, docs/debian.md "When
 * systemd-udevd kills").  With udevd's version unknown the deadline lies
 * between timeout_s and timeout_s + extra_if_new_s.
 */
struct udev_deadline {
	double timeout_s;
	int systemd;			/* udevd's systemd version (252, 257), 0 unknown */
	double extra_s;			/* 0 up to 255; NAN when the version is unknown */
	double extra_if_new_s;		/* what systemd 256 and later would add */
	char extra_set[64];		/* systemd.setenv='s value, "" when not set */
	bool extra_ignored;		/* udevd ignores it (no time, over 5 h): 10 s */
	const char *version;		/* "257.13-1~deb13u1", "" unknown */
	const char *version_from;	/* "boot.json", "udevd's log", "systemd's log", "" */
};
void boot_data__udev_deadline(const struct boot_data *b, struct udev_deadline *d);
/* The latest time udevd can have killed at: timeout + extra (the most, if unknown). */
double udev_deadline__latest(const struct udev_deadline *d);
/*
 * The same definitions in words, here and only here, indexed by
 * boot_data__is_systemd(): summary.json's boot_time_definition and
 * report.md's sentence (which names async probes).
 */
extern const char *const boot_time_words[2];
extern const char *const boot_time_sentence[2];

/*
 * A probe (any, with a time on the boot's clock) that ended after
 * multi-user.target on a systemd boot: a device a unit or a script started
 * at the target may not find yet.  Never on a lab boot.
 */
bool probe_span__late(const struct boot_data *b, const struct probe_span *p);
/* A disk or interface that registered after multi-user.target on a systemd boot. */
bool devnode__late(const struct boot_data *b, const struct devnode *d);

/* Whether @b's outcome is ok (resultfiles.h names the outcomes). */
bool boot_data__ok(const struct boot_data *b);

/* Probes that ran once user space started (spans with a known start). */
bool probe_span__in_user_space(const struct boot_data *b, const struct probe_span *p);
/* A failure, not a rejected match or a deferral. */
bool probe_span__failed(const struct probe_span *p);

#endif
