// SPDX-License-Identifier: GPL-2.0
/*
 * probetrace: trace driver probes, kthread_create, signals, task exits and
 * module loads from the first moment of user space, as JSON Lines.
 *
 * Lifecycle: open -> choose programs (BTF) -> load -> attach one by one ->
 * header -> pre-collector records -> ready file -> poll -> drain ->
 * trailer.  Optional programs whose attach point is missing are switched
 * off and reported; nothing is dropped without being counted.
 */
#define _GNU_SOURCE		/* SCHED_IDLE */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <linux/types.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/linkhash.h>

#include "probetrace.h"
#include "probetrace.skel.h"
#include "attach.h"
#include "clock.h"
#include "kmsg.h"
#include "bootargs.h"
#include "boottrace.h"
#include "output.h"
#include "record.h"
#include "replay.h"
#include "util.h"

#define MAX_LINKS 64

static struct env {
	const char *output;
	const char *ready_file;
	const char *done_file;
	const char *attach_dir;
	const char *input;
	const char *tracefs;
	const char *kallsyms;
	const char *btf;	/* --btf: the kernel --boot-args or
				 * --read-boot-trace is for */
	long trace_buf;		/* --trace-buf-size, bytes per CPU; -1: sized */
	long cpus;		/* --cpus; 0: this machine's */
	int table;		/* -1: on a tty */
	double duration;	/* seconds, 0: until SIGTERM/SIGINT */
	unsigned long ringbuf_size;	/* bytes, a power of 2 */
	long bench_format;	/* --bench-format N: records to format, 0: trace */
	uint64_t boot_trace_at;	/* --read-boot-trace NS: cutover, 0: trace */
	bool boot_trace;
	bool keep_boot_trace;
	bool sigchld;
	bool all_exits;
	bool idle_start;
	bool binary;
	bool boot_args;
	bool verbose;
} env = {
	.tracefs = "/sys/kernel/tracing",
	.kallsyms = "/proc/kallsyms",
	.table = -1,
	.boot_trace = true,
	.ringbuf_size = PT_RINGBUF_DEFAULT,
	.trace_buf = -1,
};

struct collector {
	struct probetrace *skel;
	struct bpf_link *links[MAX_LINKS];
	int nlinks;
	struct ring_buffer *rb;
	struct output out;
	struct symbolizer sym;
	json_object *attached;		/* program names */
	json_object *not_attached;	/* {program, target, reason} */
	const char *kthread_source;
	uint64_t attach_ns;
	uint64_t received, written, malformed, write_failed;
	uint64_t batch_events;	/* events in the output buffer */
	struct boottrace_stats boot;
	struct boottrace_open boot_open;	/* probes open at the cutover */
	struct btf *btf;	/* the running kernel's, until the boot trace is read */
	uint64_t starts_from_boot_trace;
	uint64_t states_from_boot_trace;	/* signal states completed */
	uint64_t origins_from_boot_trace;	/* probe origins completed */
	struct kmsg_offset printk;	/* the console's clock against ours */
	int printk_err;
	struct attach_stats attach;
	int attach_err;
	/* Opened at start (see collector__open_later), -1 if not wanted. */
	int attach_dirfd, done_dirfd;
	const char *done_name;
	const char *exit_reason;
	/* Startup phases, boot ns: main(), loaded, attached, boot trace read, ready. */
	uint64_t t_start, t_loaded, t_boot_trace, t_ready;
	/* Time in the skeleton's open and in our BTF look-up, ns (all attempts). */
	uint64_t open_dur, btf_dur;
	/* CPU time (user + system) used before the poll loop, and in all. */
	uint64_t cpu_at_ready, cpu_at_end;
};

static volatile sig_atomic_t exiting;
static volatile sig_atomic_t exit_signal;

const char *argp_program_version = "probetrace 1 (schema 1)";
static const char doc[] =
"Trace driver probes, kthread_create, signals, task exits and module loads\n"
"from boot, as JSON Lines (one record per line; docs/events.md).\n"
"\n"
"USAGE: probetrace [--output FILE] [--ready-file FILE] [--done-file FILE]\n"
"                  [--table|--json|--binary]\n"
"                  [--duration SEC] [--no-boot-trace] [--sigchld]\n"
"                  [--attach-dir DIR]\n"
"       probetrace --input EVENTS.jsonl|EVENTS.port [--table|--json]\n"
"       probetrace --read-boot-trace NS [--tracefs DIR] [--btf FILE]\n"
"       probetrace --boot-args [--btf FILE] [--trace-buf-size BYTES] [--cpus N]\n"
"\n"
"EXAMPLES:\n"
"    probetrace                    # a table on a terminal, until Ctrl-C\n"
"    probetrace --json --duration 10 >events.jsonl\n"
"                                  # 10 s of JSON Lines into a file\n"
"    probetrace --output /dev/vport0p1 --ready-file /run/probetrace.ready &\n"
"                                  # the guest's /init: JSON to a virtio port,\n"
"                                  # ready file once all programs are attached\n"
"    probetrace --output /dev/vport0p1 --attach-dir /run/bootprobe/attach &\n"
"                                  # on SIGTERM, also send the files in\n"
"                                  # /run/bootprobe/attach (systemd-analyze\n"
"                                  # output) before the trailer\n"
"    probetrace --output /dev/vport0p1 --binary &\n"
"                                  # the samples as they came, framed: the\n"
"                                  # reader formats them (bootprobe run does)\n"
"    probetrace --input events.jsonl\n"
"                                  # read a recorded stream back as a table\n"
"    probetrace --input events.port --json\n"
"                                  # a binary stream back as JSON Lines\n"
"    probetrace --boot-args --btf build/guest/vmlinux\n"
"                                  # the kernel arguments of the boot-time\n"
"                                  # trace, offsets from that kernel's BTF\n"
"    probetrace --boot-args --cpus 32\n"
"                                  # for this machine's kernel, its trace buffer\n"
"                                  # sized for 32 CPUs within 64 MiB in all\n"
"    probetrace --read-boot-trace 4000000000 --tracefs copy/\n"
"                                  # the records of a copy of tracefs (trace,\n"
"                                  # trace_pipe, trace_clock) for a cutover\n"
"                                  # at 4 s of boot, without BPF\n"
"    probetrace --read-boot-trace 4000000000 --tracefs copy/ --btf vmlinux\n"
"                                  # the same, its kprobe_events checked\n"
"                                  # against the boot arguments of the kernel\n"
"                                  # of vmlinux: an event made for another\n"
"                                  # kernel has its records refused\n"
"\n"
"On SIGTERM or SIGINT it drains the ring buffer, writes a trailer record\n"
"(events written, dropped in user space, dropped in BPF, programs not\n"
"attached and why) and exits 0.\n"
"\n"
"Options:";

enum {
	OPT_NO_BOOT_TRACE = 0x100,
	OPT_KEEP_BOOT_TRACE,
	OPT_TRACEFS,
	OPT_KALLSYMS,
	OPT_SIGCHLD,
	OPT_ALL_EXITS,
	OPT_BOOT_ARGS,
	OPT_DONE_FILE,
	OPT_ATTACH_DIR,
	OPT_RINGBUF_SIZE,
	OPT_BENCH_FORMAT,
	OPT_READ_BOOT_TRACE,
	OPT_IDLE_START,
	OPT_BINARY,
	OPT_BTF,
	OPT_TRACE_BUF_SIZE,
	OPT_CPUS,
};

static const struct argp_option opts[] = {
	{ "output", 'o', "FILE", 0, "Write records to FILE (default stdout)", 0 },
	{ "ready-file", 'r', "FILE", 0,
	  "Create FILE once every program is attached", 0 },
	{ "done-file", OPT_DONE_FILE, "FILE", 0,
	  "Create FILE once the trailer is written (before the slow detach)", 0 },
	{ "attach-dir", OPT_ATTACH_DIR, "DIR", 0,
	  "At the end, send DIR's small text files as attachment records", 0 },
	{ "table", 't', NULL, 0, "Human-readable table (default on a tty)", 0 },
	{ "json", 'j', NULL, 0, "JSON Lines (default when not a tty)", 0 },
	{ "duration", 'd', "SEC", 0, "Stop after SEC seconds", 0 },
	{ "input", 'i', "FILE", 0,
	  "Read a recorded stream back instead of tracing (- for stdin)", 0 },
	{ "no-boot-trace", OPT_NO_BOOT_TRACE, NULL, 0,
	  "Do not read pre-collector records from the boot-time trace", 0 },
	{ "keep-boot-trace", OPT_KEEP_BOOT_TRACE, NULL, 0,
	  "Leave the boot-time bootprobe/* kprobe events enabled", 0 },
	{ "tracefs", OPT_TRACEFS, "DIR", 0,
	  "tracefs mount (default /sys/kernel/tracing)", 0 },
	{ "kallsyms", OPT_KALLSYMS, "FILE", 0,
	  "Symbols for stacks (default /proc/kallsyms)", 0 },
	{ "sigchld", OPT_SIGCHLD, NULL, 0,
	  "Also trace SIGCHLD (filtered as noise by default, but counted)", 0 },
	{ "all-exits", OPT_ALL_EXITS, NULL, 0,
	  "Also trace clean exits of non-leader threads", 0 },
	{ "boot-args", OPT_BOOT_ARGS, NULL, 0,
	  "Print the kernel arguments that record pre-collector probes for the "
	  "kernel of --btf, and exit", 0 },
	{ "btf", OPT_BTF, "FILE", 0,
	  "--boot-args: the kernel's BTF, raw or in its vmlinux ELF "
	  "(default " BOOTARGS_BTF_DEFAULT ", the running kernel's); "
	  "--read-boot-trace: the BTF of the kernel the copy of tracefs is from, "
	  "whose own boot arguments its kprobe_events are checked against", 0 },
	{ "trace-buf-size", OPT_TRACE_BUF_SIZE, "BYTES", 0,
	  "--boot-args: the boot-time trace's buffer per CPU (trace_buf_size=), "
	  "suffix K or M; 0 leaves the kernel's default (default 8M, less when "
	  "--cpus times it would pass 64M)", 0 },
	{ "cpus", OPT_CPUS, "N", 0,
	  "--boot-args: the CPUs of the machine the arguments are for "
	  "(default this machine's)", 0 },
	{ "ringbuf-size", OPT_RINGBUF_SIZE, "BYTES", 0,
	  "Ring buffer size, a power of 2 from 4K to 1G, suffix K or M (default 16M)", 0 },
	{ "bench-format", OPT_BENCH_FORMAT, "N", 0,
	  "Format N synthetic records as the collector does (no BPF), print ns per record", 0 },
	{ "read-boot-trace", OPT_READ_BOOT_TRACE, "NS", 0,
	  "Only read the boot-time trace as if attached at NS ns of boot (no BPF); statistics on stderr", 0 },
	{ "idle-start", OPT_IDLE_START, NULL, 0,
	  "Start up (load, attach) as SCHED_IDLE and drain at nice 19, so that the boot "
	  "beside gets the CPU first; the boot-time trace covers the wait", 0 },
	{ "binary", OPT_BINARY, NULL, 0,
	  "Write the samples as they came, framed, for the reader to format "
	  "(probetrace --input, bootprobe run): no formatting on the guest's CPU", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf debug output on stderr", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show the full help", 0 },
	{},
};

/* "16M", "65536": a power of 2 from a page to 1 GiB (the ring buffer's rules). */
static int parse_size(const char *arg, unsigned long *size)
{
	long v;

	if (bootargs__parse_size(arg, &v) || v < 4096 || (v & (v - 1)))
		return -EINVAL;
	*size = v;
	return 0;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	char *end;

	switch (key) {
	case 'o': env.output = arg; break;
	case 'r': env.ready_file = arg; break;
	case OPT_DONE_FILE: env.done_file = arg; break;
	case OPT_ATTACH_DIR: env.attach_dir = arg; break;
	case 't': env.table = 1; break;
	case 'j': env.table = 0; break;
	case 'i': env.input = arg; break;
	case 'v': env.verbose = true; break;
	case OPT_NO_BOOT_TRACE: env.boot_trace = false; break;
	case OPT_KEEP_BOOT_TRACE: env.keep_boot_trace = true; break;
	case OPT_TRACEFS: env.tracefs = arg; break;
	case OPT_KALLSYMS: env.kallsyms = arg; break;
	case OPT_SIGCHLD: env.sigchld = true; break;
	case OPT_ALL_EXITS: env.all_exits = true; break;
	case OPT_IDLE_START: env.idle_start = true; break;
	case OPT_BINARY: env.binary = true; break;
	case OPT_RINGBUF_SIZE:
		if (parse_size(arg, &env.ringbuf_size))
			argp_error(state, "--ringbuf-size %s: not a power of 2 from 4K to 1G", arg);
		break;
	case OPT_BOOT_ARGS: env.boot_args = true; break;
	case OPT_BTF: env.btf = arg; break;
	case OPT_TRACE_BUF_SIZE:
		if (bootargs__parse_size(arg, &env.trace_buf))
			argp_error(state, "--trace-buf-size %s: not a size in bytes "
				   "(suffix K or M) up to 1G", arg);
		break;
	case OPT_CPUS:
		errno = 0;
		env.cpus = strtol(arg, &end, 10);
		if (errno || *end || env.cpus <= 0 || env.cpus > 65536)
			argp_error(state, "--cpus %s: not a CPU count from 1 to 65536", arg);
		break;
	case OPT_BENCH_FORMAT:
		errno = 0;
		env.bench_format = strtol(arg, &end, 10);
		if (errno || *end || env.bench_format <= 0)
			argp_error(state, "--bench-format %s: not a positive count", arg);
		break;
	case OPT_READ_BOOT_TRACE:
		errno = 0;
		env.boot_trace_at = strtoull(arg, &end, 10);
		if (errno || *end || *arg == '-' || !env.boot_trace_at)
			argp_error(state, "--read-boot-trace %s: not a positive ns count", arg);
		break;
	case 'd':
		errno = 0;
		env.duration = strtod(arg, &end);
		if (errno || *end || env.duration <= 0)
			argp_error(state, "--duration %s: not a positive number", arg);
		break;
	case 'h':
		argp_state_help(state, stderr, ARGP_HELP_STD_HELP);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "%s: unexpected argument", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* User plus system CPU time of this process so far, ns. */
static uint64_t cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

/* The program libbpf last failed to load, from its own message. */
static char load_failed_prog[64];

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt,
			   va_list args)
{
	char line[256];
	const char *p;
	va_list copy;

	if (level == LIBBPF_DEBUG && !env.verbose)
		return 0;
	va_copy(copy, args);
	vsnprintf(line, sizeof(line), fmt, copy);
	va_end(copy);
	/* "libbpf: prog 'NAME': failed to load: -13" */
	p = strstr(line, "prog '");
	if (p && strstr(line, "': failed to load"))
		sscanf(p, "prog '%63[^']'", load_failed_prog);
	/* With -v, when each step happened: the start-up cost, step by step. */
	if (env.verbose)
		fprintf(stderr, "%.6f ", boot_ns() / 1e9);
	return vfprintf(stderr, fmt, args);
}

static void sig_handler(int sig)
{
	exiting = 1;
	exit_signal = sig;
}

/* No SA_RESTART: a signal interrupts the ring buffer poll at once. */
static int setup_signals(void)
{
	struct sigaction sa = { .sa_handler = sig_handler };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL))
		return -errno;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* ---- choosing programs ---------------------------------------------------- */

static void collector__not_attached(struct collector *c, const char *prog,
				    const char *target, const char *reason)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "program", json_object_new_string(prog));
	json_object_object_add(o, "target", json_object_new_string(target));
	json_object_object_add(o, "reason", json_object_new_string(reason));
	json_object_array_add(c->not_attached, o);
	/* The header and the trailer carry it; stderr only with -v. */
	if (env.verbose)
		fprintf(stderr, "probetrace: %s (%s): not attached: %s\n", prog,
			target, reason);
}

/* The attach point of one program, looked for in the kernel's BTF. */
struct attach_point {
	char name[128];		/* "really_probe" or "btf_trace_signal_generate" */
	int kind;		/* BTF_KIND_FUNC or BTF_KIND_TYPEDEF */
	bool found;
	struct bpf_program *prog;
};

static int attach_point_cmp(const void *a, const void *b)
{
	const struct attach_point *x = a, *y = b;

	return strcmp(x->name, y->name) ?: x->kind - y->kind;
}

/* "fentry/x" and "fexit/x": FUNC x; "tp_btf/x": TYPEDEF btf_trace_x. */
static void attach_point_init(struct attach_point *ap, struct bpf_program *p)
{
	const char *sec = bpf_program__section_name(p);
	const char *target = strchr(sec, '/') ? strchr(sec, '/') + 1 : sec;

	ap->prog = p;
	ap->found = false;
	if (!strncmp(sec, "tp_btf/", 7)) {
		snprintf(ap->name, sizeof(ap->name), "btf_trace_%s", target);
		ap->kind = BTF_KIND_TYPEDEF;
	} else {
		snprintf(ap->name, sizeof(ap->name), "%s", target);
		ap->kind = BTF_KIND_FUNC;
	}
}

/*
 * One pass over the kernel's types, looking each name up among the sorted
 * attach points: ~100k types, a btf__find_by_name_kind() per program would
 * walk them all each time (a second of boot under TCG).
 */
static void attach_points_find(const struct btf *btf, struct attach_point *aps,
			       int n)
{
	struct attach_point key, *ap;
	const struct btf_type *t;
	__u32 id, nr = btf__type_cnt(btf);

	qsort(aps, n, sizeof(*aps), attach_point_cmp);
	for (id = 1; id < nr; id++) {
		t = btf__type_by_id(btf, id);
		key.kind = btf_kind(t);
		if (key.kind != BTF_KIND_FUNC && key.kind != BTF_KIND_TYPEDEF)
			continue;
		snprintf(key.name, sizeof(key.name), "%s",
			 btf__name_by_offset(btf, t->name_off));
		ap = bsearch(&key, aps, n, sizeof(*aps), attach_point_cmp);
		if (ap) {
			/* Equal names sort together: mark every program's. */
			while (ap > aps && !attach_point_cmp(ap - 1, &key))
				ap--;
			for (; ap < aps + n && !attach_point_cmp(ap, &key); ap++)
				ap->found = true;
		}
	}
}

static void collector__disable(struct collector *c, struct bpf_program *p,
			       const char *reason)
{
	const char *sec = bpf_program__section_name(p);

	bpf_program__set_autoload(p, false);
	collector__not_attached(c, bpf_program__name(p),
				strchr(sec, '/') ? strchr(sec, '/') + 1 : sec,
				reason);
}

/* kthread: the tracepoints of kernel-patches/0003 if there, else fentry. */
static void collector__choose_kthread(struct collector *c)
{
	struct probetrace *s = c->skel;
	bool tp = bpf_program__autoload(s->progs.kthread_tp_start) &&
		  bpf_program__autoload(s->progs.kthread_tp_end);

	if (tp) {
		c->kthread_source = "tracepoint";
		collector__disable(c, s->progs.kthread_fentry,
				   "superseded by the kthread:kthread_create_* tracepoints");
		collector__disable(c, s->progs.kthread_fexit,
				   "superseded by the kthread:kthread_create_* tracepoints");
		return;
	}
	c->kthread_source = bpf_program__autoload(s->progs.kthread_fentry) ?
			    "fentry" : "none";
	if (bpf_program__autoload(s->progs.kthread_tp_start))
		collector__disable(c, s->progs.kthread_tp_start,
				   "kthread tracepoints incomplete: using fentry");
	if (bpf_program__autoload(s->progs.kthread_tp_end))
		collector__disable(c, s->progs.kthread_tp_end,
				   "kthread tracepoints incomplete: using fentry");
}

static int collector__choose(struct collector *c)
{
	struct btf *btf = btf__load_vmlinux_btf();
	struct attach_point aps[MAX_LINKS];
	struct bpf_program *p;
	int i, n = 0, err;

	if (!btf) {
		err = -errno;
		fprintf(stderr, "probetrace: /sys/kernel/btf/vmlinux: %s (a kernel with CONFIG_DEBUG_INFO_BTF is needed)\n",
			strerror(-err));
		return err;
	}
	bpf_object__for_each_program(p, c->skel->obj) {
		if (bpf_program__autoload(p) && n < MAX_LINKS)
			attach_point_init(&aps[n++], p);
	}
	if (env.verbose)
		fprintf(stderr, "%.6f probetrace: kernel BTF: %u types\n",
			boot_ns() / 1e9, btf__type_cnt(btf));
	attach_points_find(btf, aps, n);
	if (env.verbose)
		fprintf(stderr, "%.6f probetrace: %d attach points looked up\n",
			boot_ns() / 1e9, n);
	/* Kept: the boot-time trace's kprobes are checked against it. */
	btf__free(c->btf);
	c->btf = btf;
	for (i = 0; i < n; i++) {
		if (!aps[i].found)
			collector__disable(c, aps[i].prog, "not in the kernel's BTF");
	}
	collector__choose_kthread(c);
	return 0;
}

/* ---- lifecycle ------------------------------------------------------------- */

/* Programs the verifier rejected in an earlier attempt, with the reason. */
struct rejected {
	char prog[64];
	char reason[96];
};

static int collector__open(struct collector *c, const struct rejected *rej,
			   int nrej)
{
	struct bpf_program *p;
	uint64_t t0 = boot_ns(), t1;
	int i, err;

	c->skel = probetrace__open();
	t1 = boot_ns();
	c->open_dur += t1 - t0;
	if (!c->skel) {
		err = -errno;
		fprintf(stderr, "probetrace: BPF skeleton: open failed: %s\n",
			strerror(-err));
		return err;
	}
	c->skel->rodata->trace_sigchld = env.sigchld;
	c->skel->rodata->trace_all_exits = env.all_exits;
	c->skel->rodata->self_tgid = getpid();
	c->skel->rodata->wakeup_bytes = env.ringbuf_size / PT_WAKEUP_FRACTION;
	err = bpf_map__set_max_entries(c->skel->maps.events, env.ringbuf_size);
	if (err) {
		fprintf(stderr, "probetrace: ring buffer 'events': size %lu: %s\n",
			env.ringbuf_size, strerror(-err));
		return err;
	}
	json_object_put(c->not_attached);
	c->not_attached = json_object_new_array();
	for (i = 0; i < nrej; i++) {
		p = bpf_object__find_program_by_name(c->skel->obj, rej[i].prog);
		if (p)
			collector__disable(c, p, rej[i].reason);
	}
	err = collector__choose(c);
	c->btf_dur += boot_ns() - t1;
	return err;
}

/*
 * A program the verifier rejects is switched off and the load tried
 * again without it: one bad program never costs the others.
 */
static int collector__open_and_load(struct collector *c)
{
	struct rejected rej[MAX_LINKS];
	int nrej = 0, err;

	for (;;) {
		load_failed_prog[0] = '\0';
		err = collector__open(c, rej, nrej);
		if (err)
			return err;
		err = probetrace__load(c->skel);
		if (!err)
			return 0;
		probetrace__destroy(c->skel);
		c->skel = NULL;
		if (!load_failed_prog[0] || nrej == MAX_LINKS)
			break;
		snprintf(rej[nrej].prog, sizeof(rej[nrej].prog), "%s",
			 load_failed_prog);
		snprintf(rej[nrej].reason, sizeof(rej[nrej].reason),
			 "rejected by the verifier: %s", strerror(-err));
		nrej++;
		fprintf(stderr, "probetrace: %s: %s; loading again without it\n",
			load_failed_prog, rej[nrej - 1].reason);
	}
	fprintf(stderr, "probetrace: BPF skeleton: load failed: %s\n",
		strerror(-err));
	return err;
}

/* One by one: a program that fails to attach is reported, not fatal. */
static int collector__attach(struct collector *c)
{
	struct bpf_program *p;
	struct bpf_link *link;
	char reason[160];

	/* Without a boot-time trace to leave them to, every event is ours. */
	if (!env.boot_trace)
		c->skel->bss->cutover_ns = 1;
	bpf_object__for_each_program(p, c->skel->obj) {
		if (!bpf_program__autoload(p))
			continue;
		link = bpf_program__attach(p);
		if (!link || c->nlinks == MAX_LINKS) {
			snprintf(reason, sizeof(reason), "attach failed: %s",
				 link ? "too many links" : strerror(errno));
			bpf_link__destroy(link);
			collector__not_attached(c, bpf_program__name(p),
						bpf_program__section_name(p),
						reason);
			continue;
		}
		c->links[c->nlinks++] = link;
		json_object_array_add(c->attached, json_object_new_string(
			bpf_program__name(p)));
	}
	if (!c->nlinks) {
		fprintf(stderr, "probetrace: no program attached\n");
		return -ENOENT;
	}
	/*
	 * From now on the probes are ours; before, the boot-time trace's
	 * (boottrace__emit() skips its events from this instant on).
	 */
	c->attach_ns = boot_ns();
	c->skel->bss->cutover_ns = c->attach_ns;
	return 0;
}

/*
 * An async probe the collector saw whose scheduling it did not (before
 * the cutover), or a probe in a module load whose syscall it did not see:
 * the boot-time trace knows which thread was loading the driver's module.
 */
static json_object *probe_origin_from_trace(struct collector *c,
					    const struct pt_probe *e,
					    json_object *rec)
{
	json_object *origin, *kind;

	if (rec && json_object_object_get_ex(rec, "origin", &origin) &&
	    json_object_object_get_ex(origin, "kind", &kind) &&
	    strcmp(json_object_get_string(kind), "module_load") &&
	    boottrace_open__origin(&c->boot_open, e->owner, e->start_ns, origin))
		c->origins_from_boot_trace++;
	return rec;
}

/*
 * A probe that began before the cutover and ends after it: the boot-time
 * trace saw it start (if the fentry program was not attached yet), and may
 * have written its end already (a BPF record of it is then a duplicate).
 */
static json_object *probe_from_event(struct collector *c, const void *data,
				     size_t size, bool *duplicate)
{
	struct pt_probe e;
	json_object *rec;
	uint64_t start;

	memcpy(&e, data, sizeof(e));
	start = e.start_ns;
	switch (boottrace_open__end(&c->boot_open, e.hdr.pid, e.driver,
				    e.device, e.hdr.ts_ns, &start)) {
	case BT_DUPLICATE:
		*duplicate = true;
		return NULL;
	case BT_ENDED:
		if (start == e.start_ns)
			break;
		e.start_ns = start;
		rec = record__from_event(&e, sizeof(e), &c->sym);
		if (rec) {
			json_object_object_add(rec, "start_from",
					       json_object_new_string("boot_trace"));
			c->starts_from_boot_trace++;
		}
		return probe_origin_from_trace(c, &e, rec);
	case BT_NOT_OPEN:
		break;
	}
	return probe_origin_from_trace(c, &e, record__from_event(data, size,
								 &c->sym));
}

/*
 * A module load that began before the cutover and ends after it: fexit
 * sees its end only if it entered after the trampoline, and its entry and
 * name may be the trace's; an end the trace wrote already is a duplicate.
 */
static json_object *module_from_event(struct collector *c, const void *data,
				      size_t size, bool *duplicate)
{
	const struct boottrace_span *span;
	struct pt_module e;
	json_object *rec;

	memcpy(&e, data, sizeof(e));
	switch (boottrace_open__end_module(&c->boot_open, e.hdr.pid,
					   e.hdr.ts_ns, &span)) {
	case BT_DUPLICATE:
		*duplicate = true;
		return NULL;
	case BT_NOT_OPEN:
		return record__from_event(data, size, &c->sym);
	case BT_ENDED:
		break;
	}
	if (!e.start_ns)
		e.start_ns = span->start_ns;
	if (!e.name[0])
		snprintf(e.name, sizeof(e.name), "%.*s", (int)sizeof(e.name) - 1,
			 span->name);
	rec = record__from_event(&e, sizeof(e), &c->sym);
	if (rec && e.start_ns == span->start_ns)
		json_object_object_add(rec, "start_from",
				       json_object_new_string("boot_trace"));
	return rec;
}

/*
 * A signal to a thread that was already loading a module or probing when
 * the collector attached: the collector's state of it is blind to that,
 * the boot-time trace is not.  Its ends before the signal are read first.
 */
static json_object *signal_from_event(struct collector *c, const void *data,
				      size_t size)
{
	const struct pt_signal *e = data;
	json_object *rec = record__from_event(data, size, &c->sym), *state;

	if (!rec || !boottrace_open__has(&c->boot_open, e->target_pid))
		return rec;
	boottrace__follow(&c->boot_open, &c->out, e->hdr.ts_ns);
	if (json_object_object_get_ex(rec, "target_state", &state) &&
	    boottrace_open__state(&c->boot_open, e->target_pid, e->hdr.ts_ns,
				  state))
		c->states_from_boot_trace++;
	return rec;
}

/* Write the buffered records; a batch lost is counted event by event. */
static void collector__flush(struct collector *c)
{
	if (output__flush(&c->out)) {
		c->write_failed += c->batch_events;
		c->written -= c->batch_events;
	}
	c->batch_events = 0;
}

/*
 * A sample the reader can format as it came: not one the boot-time trace
 * completes here (a probe or module load while spans open at the cutover
 * are known, a signal to a thread in one), nor a probe whose initcall
 * would be looked up in this machine's kallsyms.
 */
static bool collector__sample_as_is(const struct collector *c, const void *data,
				    size_t size)
{
	const struct pt_hdr *h = data;

	if (!c->out.binary || size < sizeof(*h))
		return false;
	switch (h->type) {
	case PT_PROBE_START:
	case PT_PROBE:
		return size >= sizeof(struct pt_probe) && !c->boot_open.n &&
		       ((const struct pt_probe *)data)->origin.kind != PT_ORIGIN_INITCALL;
	case PT_MODULE_LOAD:
	case PT_DEVNODE:
		return !c->boot_open.n;
	case PT_SIGNAL_GENERATE:
		return size >= PT_SIGNAL_SHORT &&
		       !boottrace_open__has(&c->boot_open,
					    ((const struct pt_signal *)data)->target_pid);
	default:
		return h->type < PT_TYPE_MAX;
	}
}

/* A sample into the output as it came; counted as handle_event() counts. */
static void collector__write_sample(struct collector *c, const void *data, size_t size)
{
	uint32_t type = ((const struct pt_hdr *)data)->type;

	/* Module text comes and goes: reload kallsyms at the next lookup. */
	if (type == PT_MODULE_LOAD_START || type == PT_MODULE_LOAD || type == PT_MODULE_INIT)
		c->sym.stale = 1;
	if (output__write_sample(&c->out, data, size)) {
		c->write_failed++;
	} else {
		c->written++;
		c->batch_events++;
	}
}

/*
 * A disk or interface whose registration began before the cutover: the
 * trace may have written it already (fexit sees only the calls that
 * entered after the trampoline).
 */
static json_object *devnode_from_event(struct collector *c, const void *data,
				       size_t size, bool *duplicate)
{
	const struct pt_devnode *e = data;
	char name[sizeof(e->name) + 1];

	snprintf(name, sizeof(name), "%.*s", (int)sizeof(e->name), e->name);
	if (boottrace_open__end_devnode(&c->boot_open,
					e->kind == PT_DEVNODE_NET ? BT_NETDEV : BT_DISK,
					e->hdr.pid, name, e->hdr.ts_ns) == BT_DUPLICATE) {
		*duplicate = true;
		return NULL;
	}
	return record__from_event(data, size, &c->sym);
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct pt_hdr *h = data;
	struct collector *c = ctx;
	bool duplicate = false;
	json_object *rec;

	c->received++;
	if (collector__sample_as_is(c, data, size)) {
		collector__write_sample(c, data, size);
		goto flush;
	}
	if (size >= sizeof(struct pt_probe) && h->type == PT_PROBE)
		rec = probe_from_event(c, data, size, &duplicate);
	else if (size >= sizeof(struct pt_signal) && h->type == PT_SIGNAL_GENERATE)
		rec = signal_from_event(c, data, size);
	else if (size >= sizeof(struct pt_module) && h->type == PT_MODULE_LOAD)
		rec = module_from_event(c, data, size, &duplicate);
	else if (size >= sizeof(struct pt_devnode) && h->type == PT_DEVNODE)
		rec = devnode_from_event(c, data, size, &duplicate);
	else
		rec = record__from_event(data, size, &c->sym);
	if (duplicate)
		return 0;	/* counted in the trailer's boot_trace */
	if (!rec) {
		c->malformed++;
		return 0;
	}
	if (output__write(&c->out, rec)) {
		c->write_failed++;
	} else {
		c->written++;
		c->batch_events++;
	}
	json_object_put(rec);
flush:
	if (output__pending_bytes(&c->out) >= OUTPUT_BATCH)
		collector__flush(c);
	return 0;
}

static int collector__ring_buffer(struct collector *c)
{
	c->rb = ring_buffer__new(bpf_map__fd(c->skel->maps.events),
				 handle_event, c, NULL);
	if (!c->rb) {
		fprintf(stderr, "probetrace: ring buffer 'events': %s\n",
			strerror(errno));
		return -errno;
	}
	return 0;
}

static void collector__header(struct collector *c)
{
	json_object *o = json_object_new_object();
	struct utsname u;

	uname(&u);
	json_object_object_add(o, "type", json_object_new_string("header"));
	json_object_object_add(o, "schema", json_object_new_int(PT_SCHEMA_VERSION));
	json_object_object_add(o, "tool", json_object_new_string("probetrace"));
	json_object_object_add(o, "clock", json_object_new_string("boottime"));
	json_object_object_add(o, "ts_ns", json_object_new_int64(boot_ns()));
	json_object_object_add(o, "attach_ns", json_object_new_int64(c->attach_ns));
	json_object_object_add(o, "kernel", json_object_new_string(u.release));
	json_object_object_add(o, "pid", json_object_new_int64(getpid()));
	json_object_object_add(o, "kthread_source",
			       json_object_new_string(c->kthread_source));
	json_object_object_add(o, "sigchld_traced", json_object_new_boolean(env.sigchld));
	json_object_object_add(o, "idle_start", json_object_new_boolean(env.idle_start));
	if (c->printk_err) {
		json_object_object_add(o, "printk_offset_error", json_object_new_string(
			strerror(-c->printk_err)));
	} else {
		json_object_object_add(o, "printk_offset_ns",
				       json_object_new_int64(c->printk.offset_ns));
		json_object_object_add(o, "printk_offset_error_ns",
				       json_object_new_int64(c->printk.error_ns));
	}
	json_object_object_add(o, "attached", json_object_get(c->attached));
	json_object_object_add(o, "not_attached", json_object_get(c->not_attached));
	output__write(&c->out, o);
	json_object_put(o);
}

/* NAME.tmp then rename, in the folder open at @dirfd: seen whole or not at all. */
static int write_ready_file_at(int dirfd, const char *name)
{
	char tmp[4096];
	FILE *f;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -errno;
	}
	fprintf(f, "%d\n", getpid());
	if (fclose(f) || renameat(dirfd, tmp, dirfd, name)) {
		unlinkat(dirfd, tmp, 0);
		return -errno;
	}
	return 0;
}

/* The folder of @path, opened (O_DIRECTORY); its last component in *@name. */
static int open_parent(const char *path, const char **name)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash - path) : NULL;
	int fd;

	*name = slash ? slash + 1 : path;
	fd = open(dir ? (*dir ? dir : "/") : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return fd;
}

static int write_ready_file(const char *path)
{
	const char *name;
	int dirfd = open_parent(path, &name), err;

	if (dirfd < 0)
		return -errno;
	err = write_ready_file_at(dirfd, name);
	close(dirfd);
	return err;
}

/*
 * What the collector reads or writes only at the end is opened now: started
 * from an initramfs, it outlives the switch to the real root, after which
 * its own /run and /proc are empty (initramfs-tools moves those mounts into
 * the new root).  An open descriptor still reaches them.
 */
static int collector__open_later(struct collector *c)
{
	if (env.attach_dir) {
		c->attach_dirfd = open(env.attach_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (c->attach_dirfd < 0)
			c->attach_err = -errno;
	}
	if (env.done_file) {
		c->done_dirfd = open_parent(env.done_file, &c->done_name);
		if (c->done_dirfd < 0) {
			fprintf(stderr, "probetrace: %s: %s\n", env.done_file, strerror(errno));
			return -errno;
		}
	}
	/* Stacks are symbolised while tracing; a failure here is the trailer's. */
	c->sym.fd = open(env.kallsyms, O_RDONLY | O_CLOEXEC);
	return 0;
}

static void collector__run(struct collector *c)
{
	uint64_t end = env.duration ? boot_ns() + env.duration * 1e9 : 0;
	int err;

	uint64_t t;

	while (!exiting) {
		t = boot_ns();
		err = ring_buffer__poll(c->rb, 100);
		/* Woken for a batch or not, what waits is read (BPF_RB_NO_WAKEUP). */
		if (err >= 0)
			err = ring_buffer__consume(c->rb);
		/* The BPF records before t are read: the trace's ends can go. */
		boottrace__follow(&c->boot_open, &c->out, t);
		/* What one round read goes out now: at most 100 ms late. */
		collector__flush(c);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "probetrace: ring buffer poll: %s\n",
				strerror(-err));
			c->exit_reason = "poll error";
			return;
		}
		if (end && boot_ns() >= end) {
			c->exit_reason = "duration";
			return;
		}
	}
	c->exit_reason = exit_signal == SIGINT ? "SIGINT" : "SIGTERM";
}

static json_object *collector__bpf_counters(struct collector *c)
{
	static const char *const names[PT_CNT_MAX] = {
		[PT_CNT_RB_DROPS] = "ringbuf_reserve_failed",
		[PT_CNT_CTX_FULL] = "thread_ctx_full",
		[PT_CNT_SIG_FILTERED] = "sigchld_filtered",
		[PT_CNT_EXIT_FILTERED] = "thread_exits_filtered",
		[PT_CNT_PROBE_DEEP] = "probes_too_deep",
		[PT_CNT_BOOT_TRACE] = "left_to_boot_trace",
	};
	json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < PT_CNT_MAX; i++)
		json_object_object_add(o, names[i], json_object_new_int64(
			c->skel->bss->counters[i]));
	return o;
}

/* bpf_drops split by record type: every type, zeros included. */
static json_object *collector__drops_by_type(struct collector *c)
{
	json_object *o = json_object_new_object();
	uint32_t t;

	for (t = 1; t < PT_TYPE_MAX; t++)
		json_object_object_add(o, record__type_name(t),
				       json_object_new_int64(
					       c->skel->bss->drops_by_type[t]));
	return o;
}

/* signal_generate drops by signal number ("10": n), the signals that lost any. */
static json_object *collector__signal_drops(struct collector *c)
{
	json_object *o = json_object_new_object();
	char num[16];
	int sig;

	for (sig = 1; sig <= PT_NSIG; sig++) {
		if (!c->skel->bss->signal_drops[sig - 1])
			continue;
		snprintf(num, sizeof(num), "%d", sig);
		json_object_object_add(o, num, json_object_new_int64(
					       c->skel->bss->signal_drops[sig - 1]));
	}
	return o;
}

/* When each startup phase ended, ns since boot. */
static json_object *collector__startup(struct collector *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "start_ns", json_object_new_int64(c->t_start));
	json_object_object_add(o, "loaded_ns", json_object_new_int64(c->t_loaded));
	json_object_object_add(o, "attached_ns", json_object_new_int64(c->attach_ns));
	json_object_object_add(o, "ready_ns", json_object_new_int64(c->t_ready));
	/* What the steps took, ns: the load is the verifier's, mostly. */
	json_object_object_add(o, "open_dur_ns", json_object_new_int64(c->open_dur));
	json_object_object_add(o, "btf_dur_ns", json_object_new_int64(c->btf_dur));
	json_object_object_add(o, "load_dur_ns", json_object_new_int64(
		c->t_loaded - c->t_start - c->open_dur - c->btf_dur));
	json_object_object_add(o, "attach_dur_ns", json_object_new_int64(
		c->attach_ns - c->t_loaded));
	json_object_object_add(o, "boot_trace_dur_ns", json_object_new_int64(
		c->t_boot_trace - c->attach_ns));
	json_object_object_add(o, "ringbuf_bytes", json_object_new_int64(
		env.ringbuf_size));
	json_object_object_add(o, "kallsyms_loads", json_object_new_int64(
		c->sym.loads));
	json_object_object_add(o, "kallsyms_ns", json_object_new_int64(
		c->sym.load_total_ns));
	return o;
}

/* What --attach-dir sent, cut, skipped, and why it could not be read. */
static json_object *collector__attachments(struct collector *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "sent", json_object_new_int64(c->attach.sent));
	json_object_object_add(o, "cut", json_object_new_int64(c->attach.truncated));
	json_object_object_add(o, "skipped", json_object_new_int64(c->attach.skipped));
	if (c->attach_err)
		json_object_object_add(o, "error", json_object_new_string(
			strerror(-c->attach_err)));
	return o;
}

static void collector__trailer(struct collector *c)
{
	json_object *o = json_object_new_object();
	uint64_t dropped = c->malformed + c->write_failed;

	json_object_object_add(o, "type", json_object_new_string("trailer"));
	json_object_object_add(o, "ts_ns", json_object_new_int64(boot_ns()));
	json_object_object_add(o, "exit_reason", json_object_new_string(
		c->exit_reason ? c->exit_reason : "?"));
	json_object_object_add(o, "records_written",
			       json_object_new_int64(c->out.written));
	json_object_object_add(o, "events_received", json_object_new_int64(c->received));
	json_object_object_add(o, "events_written", json_object_new_int64(c->written));
	json_object_object_add(o, "events_dropped", json_object_new_int64(dropped));
	json_object_object_add(o, "events_malformed", json_object_new_int64(c->malformed));
	json_object_object_add(o, "events_write_failed",
			       json_object_new_int64(c->write_failed));
	json_object_object_add(o, "bpf_drops", json_object_new_int64(
		c->skel->bss->counters[PT_CNT_RB_DROPS]));
	json_object_object_add(o, "bpf_drops_by_type", collector__drops_by_type(c));
	json_object_object_add(o, "bpf_signal_drops", collector__signal_drops(c));
	json_object_object_add(o, "bpf_counters", collector__bpf_counters(c));
	json_object_object_add(o, "records_by_type", json_object_get(output__by_type(&c->out)));
	json_object_object_add(o, "not_attached", json_object_get(c->not_attached));
	json_object_object_add(o, "boot_trace", env.boot_trace ?
			       boottrace__stats_json(&c->boot, &c->boot_open,
						     env.tracefs) : NULL);
	json_object_object_add(o, "startup", collector__startup(c));
	/* What draining cost: CPU per event received, the consumer's side. */
	json_object_object_add(o, "drain_cpu_ns", json_object_new_int64(
		c->cpu_at_end - c->cpu_at_ready));
	json_object_object_add(o, "probe_starts_from_boot_trace",
			       json_object_new_int64(c->starts_from_boot_trace));
	json_object_object_add(o, "signal_states_from_boot_trace",
			       json_object_new_int64(c->states_from_boot_trace));
	json_object_object_add(o, "probe_origins_from_boot_trace",
			       json_object_new_int64(c->origins_from_boot_trace));
	if (env.attach_dir)
		json_object_object_add(o, "attachments", collector__attachments(c));
	if (c->sym.err)
		json_object_object_add(o, "kallsyms_error", json_object_new_string(
			strerror(-c->sym.err)));
	output__write(&c->out, o);
	json_object_put(o);
}

static void collector__destroy(struct collector *c)
{
	int i;

	ring_buffer__free(c->rb);
	for (i = 0; i < c->nlinks; i++)
		bpf_link__destroy(c->links[i]);
	probetrace__destroy(c->skel);
	btf__free(c->btf);
	symbolizer__free(&c->sym);
	if (c->attach_dirfd >= 0)
		close(c->attach_dirfd);
	if (c->done_dirfd >= 0)
		close(c->done_dirfd);
	json_object_put(c->attached);
	json_object_put(c->not_attached);
	output__close(&c->out);
}

/*
 * --idle-start: the start-up (BTF, verifier, attach) runs only on a CPU
 * the boot leaves idle; once ready, back to the normal class at nice 19:
 * the drain still gets a share of a busy CPU, and the boot goes first.
 * A failure leaves it as it was.
 */
static void set_idle(bool idle)
{
	struct sched_param p = { 0 };

	if (!env.idle_start)
		return;
	if (sched_setscheduler(0, idle ? SCHED_IDLE : SCHED_OTHER, &p))
		fprintf(stderr, "probetrace: sched_setscheduler(%s): %s\n",
			idle ? "SCHED_IDLE" : "SCHED_OTHER", strerror(errno));
	else if (!idle && setpriority(PRIO_PROCESS, 0, 19))
		fprintf(stderr, "probetrace: setpriority(19): %s\n", strerror(errno));
}

/*
 * Into @st: the boot arguments' kprobes made for the kernel of @btf (read
 * from @label), in @buf, as `probetrace --boot-args` makes them; or why
 * there are none, in @err.  The boot-time trace's kprobes are checked
 * against them (boottrace.h).
 */
static void kernel_args(struct boottrace_stats *st, const struct btf *btf, const char *label,
			char *buf, size_t len, char *err, size_t errlen)
{
	st->kernel_btf = label;
	st->kernel_kprobes = NULL;
	st->kernel_err = err;
	if (!btf)
		snprintf(err, errlen, "%s: no BTF read (a raw BTF file or an ELF with .BTF)",
			 label);
	else if (!bootargs__kprobes(btf, label, buf, len, err, errlen))
		st->kernel_kprobes = buf;
}

static int trace_main(void)
{
	struct collector c = {
		.sym = { .path = env.kallsyms, .fd = -1 },
		.attach_dirfd = -1, .done_dirfd = -1,
		.boot_open = { .pipe_fd = -1, .dir_fd = -1 },
	};
	char kprobes[BOOTARGS_KPROBES_MAX], args_err[256];
	uint64_t t_end;
	int err;

	c.attached = json_object_new_array();
	c.not_attached = json_object_new_array();
	err = output__open(&c.out, env.output, env.binary ? 0 : env.table);
	if (err) {
		fprintf(stderr, "probetrace: %s: %s\n", env.output, strerror(-err));
		goto out;
	}
	c.out.binary = env.binary;
	c.t_start = boot_ns();
	/*
	 * The handlers first: a SCHED_IDLE start-up beside a busy boot may not
	 * run for seconds, and a SIGTERM (the boot's end) before the handlers
	 * were there killed the collector with its stream unwritten.  Caught,
	 * it finishes the start-up and writes the stream (the boot-time trace
	 * holds what came before) and its trailer.
	 */
	err = setup_signals();
	set_idle(true);
	if (!err)
		err = collector__open_later(&c);
	if (!err)
		err = collector__open_and_load(&c);
	c.t_loaded = boot_ns();
	if (!err)
		err = collector__attach(&c);
	if (!err)
		err = collector__ring_buffer(&c);
	if (err)
		goto out;
	/* Console times are printk's: how far from ours, for the host to correct. */
	c.printk_err = kmsg__offset("probetrace: printk clock sample", 3, &c.printk);
	collector__header(&c);
	c.boot.sigchld = env.sigchld;
	if (env.boot_trace) {
		kernel_args(&c.boot, c.btf, BOOTARGS_BTF_DEFAULT, kprobes, sizeof(kprobes),
			    args_err, sizeof(args_err));
		boottrace__emit(env.tracefs, c.attach_ns, !env.keep_boot_trace,
				&c.out, &c.boot, &c.boot_open);
	}
	btf__free(c.btf);
	c.btf = NULL;
	collector__flush(&c);
	c.t_boot_trace = boot_ns();
	if (env.ready_file && (err = write_ready_file(env.ready_file))) {
		fprintf(stderr, "probetrace: %s: %s\n", env.ready_file,
			strerror(-err));
		goto out;
	}
	c.t_ready = boot_ns();
	set_idle(false);
	c.cpu_at_ready = cpu_ns();
	fprintf(stderr, "probetrace: ready in %.0f ms (load %.0f, attach %.0f, boot trace %.0f)\n",
		(c.t_ready - c.t_start) / 1e6, (c.t_loaded - c.t_start) / 1e6,
		(c.attach_ns - c.t_loaded) / 1e6, (c.t_ready - c.attach_ns) / 1e6);
	collector__run(&c);
	/* Whatever is still in the ring buffer goes out before the trailer. */
	t_end = boot_ns();
	ring_buffer__consume(c.rb);
	boottrace__follow(&c.boot_open, &c.out, t_end);
	boottrace__finish(&c.boot_open, &c.boot);
	if (c.attach_dirfd >= 0)
		c.attach_err = attach__send_dir(c.attach_dirfd, &c.out, &c.attach);
	collector__flush(&c);
	c.cpu_at_end = cpu_ns();
	collector__trailer(&c);
	collector__flush(&c);
	/*
	 * Detaching two dozen fentry programs waits for RCU tasks grace
	 * periods, about a second under TCG: tell a waiting /init that the
	 * stream is complete before that.
	 */
	if (c.done_dirfd >= 0 && (err = write_ready_file_at(c.done_dirfd, c.done_name)))
		fprintf(stderr, "probetrace: %s: %s\n", env.done_file, strerror(-err));
out:
	collector__destroy(&c);
	return err ? 1 : 0;
}

/*
 * The boot-time trace alone: what the collector writes from it for a
 * cutover at env.boot_trace_at, the spans open then followed to the end of
 * trace_pipe.  Nothing is turned off in tracefs.
 */
static int boot_trace_main(void)
{
	struct boottrace_open open = { .pipe_fd = -1, .dir_fd = -1 };
	struct boottrace_stats st = { .sigchld = env.sigchld };
	char kprobes[BOOTARGS_KPROBES_MAX], args_err[256];
	struct btf *btf = NULL;
	struct output out;
	json_object *stats;
	int err;

	/* With --btf: the kernel the copy is from, its kprobes checked. */
	if (env.btf) {
		if (!env.verbose)
			libbpf_set_print(NULL);
		btf = btf__parse(env.btf, NULL);
		kernel_args(&st, btf, env.btf, kprobes, sizeof(kprobes), args_err,
			    sizeof(args_err));
		btf__free(btf);
		if (!st.kernel_kprobes) {
			fprintf(stderr, "probetrace: --btf %s\n", args_err);
			return 1;
		}
	}
	err = output__open(&out, env.output, env.table);
	if (err) {
		fprintf(stderr, "probetrace: %s: %s\n", env.output, strerror(-err));
		return 1;
	}
	err = boottrace__emit(env.tracefs, env.boot_trace_at, false, &out, &st,
			      &open);
	boottrace__follow(&open, &out, UINT64_MAX);
	boottrace__finish(&open, &st);
	output__flush(&out);
	output__close(&out);
	if (err) {
		fprintf(stderr, "probetrace: %s/trace: %s\n", env.tracefs,
			strerror(-err));
		return 1;
	}
	stats = boottrace__stats_json(&st, &open, env.tracefs);
	fprintf(stderr, "%s\n", json_object_to_json_string_ext(stats,
							       JSON_C_TO_STRING_PLAIN));
	json_object_put(stats);
	return 0;
}

static int replay_main(void)
{
	struct replay_stats st;
	struct output out;
	int err;

	err = output__open(&out, env.output, env.table);
	if (err) {
		fprintf(stderr, "probetrace: %s: %s\n", env.output, strerror(-err));
		return 1;
	}
	err = replay__run(env.input, &out, &st);
	output__close(&out);
	if (err < 0) {
		fprintf(stderr, "probetrace: %s: %s\n", env.input, read_file_strerror(-err));
		return 1;
	}
	fprintf(stderr, "probetrace: %s: %llu records, %llu malformed lines%s\n",
		env.input, (unsigned long long)st.records,
		(unsigned long long)st.malformed,
		st.trailer ? "" : ", truncated (no trailer)");
	return err ? 2 : 0;
}

/*
 * The consumer's cost per record without BPF (so it runs anywhere, this
 * host included): the collector's own decode, format and batched write of
 * N records alike to a storm's (short signal_generate records).
 */
static int bench_format_main(void)
{
	struct collector c = { .attach_dirfd = -1, .done_dirfd = -1 };
	struct pt_signal e = { .hdr = { .type = PT_SIGNAL_GENERATE,
					.comm = "storm" },
			       .sig = 10, .result = 1, .target_comm = "storm" };
	uint64_t t0, cpu0;
	long i;
	int err;

	err = output__open(&c.out, env.output, 0);
	if (err) {
		fprintf(stderr, "probetrace: %s: %s\n", env.output ?: "stdout",
			strerror(-err));
		return 1;
	}
	c.out.binary = env.binary;
	t0 = boot_ns();
	cpu0 = cpu_ns();
	for (i = 0; i < env.bench_format; i++) {
		/* A guest's time, 1 s after boot: this host may be up for days. */
		e.hdr.ts_ns = 1000000000ULL + i;
		e.hdr.pid = e.target_pid = 1000 + i % 7;
		handle_event(&c, &e, PT_SIGNAL_SHORT);
	}
	collector__flush(&c);
	fprintf(stderr, "probetrace: %s %ld records: %.0f ns each (%.0f ns CPU), %llu written\n",
		env.binary ? "framed" : "formatted", env.bench_format, (double)(boot_ns() - t0) / env.bench_format,
		(double)(cpu_ns() - cpu0) / env.bench_format,
		(unsigned long long)c.written);
	output__close(&c.out);
	return c.written == (uint64_t)env.bench_format ? 0 : 1;
}

/* --boot-args: made from the BTF of the kernel they are for. */
static int boot_args_main(void)
{
	char err[512];

	/* libbpf's own warning would be a second line: ours names the file. */
	if (!env.verbose)
		libbpf_set_print(NULL);
	long cpus = env.cpus ?: sysconf(_SC_NPROCESSORS_CONF);
	unsigned long buf = bootargs__trace_buf(env.trace_buf, cpus > 0 ? cpus : 1);

	if (bootargs__print(stdout, env.btf ?: BOOTARGS_BTF_DEFAULT, buf, err, sizeof(err))) {
		fprintf(stderr, "probetrace: --boot-args: %s\n", err);
		return 1;
	}
	return fflush(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.doc = doc,
	};
	int err;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 1;
	if (env.binary && (env.table == 1 || env.input)) {
		fprintf(stderr, "probetrace: --binary writes frames for a reader: not with %s\n",
			env.input ? "--input (which writes JSON Lines or a table)" : "--table");
		return argp_err_exit_status;	/* a usage error, as argp_error()'s */
	}
	libbpf_set_print(libbpf_print_fn);
	if (env.boot_args)
		return boot_args_main();
	/*
	 * json-c seeds its default string hash from /dev/urandom on the first
	 * object key; early in a guest without an entropy source that read
	 * waits for the kernel's jitter entropy, ~1 s under TCG (Linux 5.18+,
	 * try_to_generate_entropy()).  Our keys are our own: no need for a
	 * seeded hash.
	 */
	json_global_set_string_hash(JSON_C_STR_HASH_PERLLIKE);
	if (env.input)
		return replay_main();
	if (env.bench_format)
		return bench_format_main();
	if (env.boot_trace_at)
		return boot_trace_main();
	return trace_main();
}
