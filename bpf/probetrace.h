/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probetrace: the records the BPF programs send to user space.
 *
 * Included by bpf/probetrace.bpf.c and the tools/probetrace sources:
 * every event struct exists here once.  Fixed-width types only; every
 * record starts with struct pt_hdr, whose first field is the record type.
 * Times are nanoseconds since boot (bpf_ktime_get_boot_ns(), CLOCK_BOOTTIME).
 */
#ifndef PROBETRACE_H
#define PROBETRACE_H

#define PT_COMM_LEN	16
#define PT_NAME_LEN	56	/* module names (MODULE_NAME_LEN) */
#define PT_DRV_LEN	32
#define PT_DEV_LEN	32
#define PT_BUS_LEN	16
#define PT_FILE_LEN	64
#define PT_SYM_LEN	96	/* "sym+0xoff/0xsize [module]" (%pS) */
#define PT_STACK_MAX	24	/* kernel stack frames kept for a kill */
#define PT_STACK_HALF	12	/* frames one bpf_snprintf() prints (its argument limit) */
#define PT_STACK_SYM_LEN 1024	/* bytes for one half's %pS lines */
#define PT_PROBE_DEPTH	4	/* nested really_probe() frames per thread */
#define PT_NSIG		64	/* signals 1..64: signal_drops[sig - 1] */
#define PT_RINGBUF_DEFAULT (16UL << 20)	/* bytes; probetrace --ringbuf-size */
#define PT_WAKEUP_FRACTION 16	/* wake the collector once 1/16 of the ring waits */

enum pt_type {
	PT_PROBE_START = 1,	/* really_probe() entry */
	PT_PROBE,		/* really_probe() span, at its return */
	PT_KTHREAD_START,	/* kthread_create() asks kthreadd */
	PT_KTHREAD_END,		/* kthread_create() returns */
	PT_SIGNAL_GENERATE,	/* signal:signal_generate */
	PT_SIGNAL_DELIVER,	/* signal:signal_deliver */
	PT_EXIT,		/* sched:sched_process_exit */
	PT_MODULE_LOAD_START,	/* finit_module()/init_module() entry */
	PT_MODULE_LOAD,		/* finit_module()/init_module() span */
	PT_MODULE_INIT,		/* do_init_module() span */
	PT_DEVNODE,		/* a disk or network interface appears */
	PT_INIT_EXEC,		/* sched:sched_process_exec by PID 1 */
	PT_TYPE_MAX,
};

/* Why a probe ran: what its thread (or, for async, the scheduler) was in. */
enum pt_origin {
	PT_ORIGIN_OTHER = 0,	/* e.g. a device added, a sysfs bind */
	PT_ORIGIN_MODULE_LOAD,	/* inside finit_module/init_module */
	PT_ORIGIN_INITCALL,	/* inside do_one_initcall() of the kernel */
	PT_ORIGIN_DEFERRED,	/* deferred_probe_work_func() retry */
};

/* Where kthread_create() events come from. */
enum pt_kthread_src {
	PT_KTHREAD_SRC_TP = 1,	/* kthread:kthread_create_{start,end} */
	PT_KTHREAD_SRC_FENTRY,	/* fentry/fexit __kthread_create_on_node */
};

/* Kinds of module-loading syscall. */
enum pt_mod_syscall {
	PT_SYS_FINIT_MODULE = 1,
	PT_SYS_INIT_MODULE,
};

/* Indexes of the BPF-side counters (the `counters` array). */
enum pt_counter {
	PT_CNT_RB_DROPS = 0,	/* ring buffer reservation failures */
	PT_CNT_CTX_FULL,	/* thread context map full: state not kept */
	PT_CNT_SIG_FILTERED,	/* SIGCHLD events filtered as noise */
	PT_CNT_EXIT_FILTERED,	/* clean non-leader thread exits filtered */
	PT_CNT_PROBE_DEEP,	/* probes nested deeper than PT_PROBE_DEPTH */
	PT_CNT_BOOT_TRACE,	/* events before the cutover: the boot trace's */
	PT_CNT_MAX,
};

struct pt_hdr {
	__u32 type;		/* enum pt_type: first, always */
	__u32 cpu;
	__u64 ts_ns;		/* since boot */
	__u32 pid;		/* thread id of the current task */
	__u32 tgid;
	char comm[PT_COMM_LEN];
};

/* Where a probe came from. */
struct pt_origin_info {
	__u32 kind;		/* enum pt_origin */
	__u32 pid;		/* thread that loaded the module / ran the initcall */
	char comm[PT_COMM_LEN];
	char module[PT_NAME_LEN];	/* module being loaded, if any */
	__u64 initcall_fn;	/* do_one_initcall() function, if any */
	/*
	 * initcall_fn as the kernel's own %pS prints it, formatted in BPF while
	 * the function is there: a module's init text is freed once it
	 * returns, and kallsyms read later names whatever took its place.
	 */
	char initcall_sym[PT_SYM_LEN];
};

struct pt_probe {
	struct pt_hdr hdr;
	__u64 start_ns;		/* == hdr.ts_ns for PT_PROBE_START */
	__u64 dev;		/* struct device address: pairs start and end */
	__s32 ret;		/* PT_PROBE only */
	__u32 async;		/* 1: in an async attach helper on a worker */
	__u32 depth;		/* 0: outermost probe of this thread */
	__u32 pad;
	char driver[PT_DRV_LEN];
	char device[PT_DEV_LEN];
	char bus[PT_BUS_LEN];
	char owner[PT_NAME_LEN];	/* driver's module, "" if built in */
	struct pt_origin_info origin;
};

struct pt_kthread {
	struct pt_hdr hdr;
	__u64 caller;		/* call site (tracepoint) or threadfn (fentry) */
	__u64 wait_ns;		/* PT_KTHREAD_END: time waited for kthreadd */
	__s32 ret;		/* PT_KTHREAD_END: 0 or -errno */
	__u8 fatal_signal;	/* a fatal signal is pending */
	__u8 oom_victim;	/* PT_KTHREAD_END, tracepoint only */
	__u8 src;		/* enum pt_kthread_src */
	__u8 pad;
	char probe_device[PT_DEV_LEN];	/* innermost probe of this thread */
	/*
	 * caller as the kernel's own %pS prints it, formatted in BPF: the
	 * collector then never reads /proc/kallsyms for it (a quarter of a
	 * second of a TCG guest's CPU, on the boot's critical path); "" if
	 * bpf_snprintf() failed.
	 */
	char caller_sym[PT_SYM_LEN];
};

/* What a task was doing at one instant: its thread context, aged. */
struct pt_task_state {
	__u64 module_ns;	/* in finit/init_module for this long, 0: not */
	__u64 module_init_ns;	/* in do_init_module for this long, 0: not */
	__u64 probe_ns;		/* in its innermost probe for this long */
	__u64 kthread_ns;	/* in kthread_create for this long */
	__u64 kthread_caller;
	char kthread_caller_sym[PT_SYM_LEN];	/* %pS of it, "" if none */
	__u32 probe_depth;
	__u32 async;
	char module[PT_NAME_LEN];
	char module_file[PT_FILE_LEN];
	char probe_driver[PT_DRV_LEN];
	char probe_device[PT_DEV_LEN];
};

struct pt_signal {
	struct pt_hdr hdr;	/* the sender (current) */
	__s32 sig;
	__s32 errno_;
	__s32 code;		/* si_code: SI_USER 0, SI_KERNEL 0x80, ... */
	__s32 group;
	__s32 result;		/* TRACE_SIGNAL_*: 0 delivered, 1 ignored, ... */
	__u32 target_pid;
	__u32 target_tgid;
	__s32 stack_sz;		/* bytes of stack[], or -errno */
	char target_comm[PT_COMM_LEN];
	__u32 has_state;	/* 1: target_state is filled */
	__u32 pad;
	/* A short record (PT_SIGNAL_SHORT bytes) ends here: no state, no stack. */
	struct pt_task_state target_state;
	__u64 stack[PT_STACK_MAX];	/* target's kernel stack */
	/*
	 * The same frames printed by the kernel, "%pS\n" each, 12 per half:
	 * the collector reads no /proc/kallsyms for them.  A frame whose line
	 * is missing (cut short) is resolved from kallsyms after all.
	 */
	char stack_sym[PT_STACK_MAX / PT_STACK_HALF][PT_STACK_SYM_LEN];
};

#define PT_SIGNAL_SHORT	__builtin_offsetof(struct pt_signal, target_state)

struct pt_signal_deliver {
	struct pt_hdr hdr;	/* the receiver (current) */
	__s32 sig;
	__s32 errno_;
	__s32 code;
	__u32 pad;
	__u64 handler;		/* 0 SIG_DFL, 1 SIG_IGN, else a handler */
	__u64 sa_flags;
};

struct pt_exit {
	struct pt_hdr hdr;
	__s32 exit_code;	/* as wait(2) sees it: status << 8 | signal */
	__u32 leader;		/* 1: the thread group leader */
};

struct pt_module {
	struct pt_hdr hdr;
	__u64 start_ns;		/* == hdr.ts_ns for PT_MODULE_LOAD_START */
	__s64 ret;		/* spans only */
	__u32 syscall;		/* enum pt_mod_syscall (0 for PT_MODULE_INIT) */
	__s32 fd;		/* finit_module's fd, -1 otherwise */
	__u32 fatal_signal;	/* spans: a fatal signal pending at return */
	__u32 pad;
	char name[PT_NAME_LEN];		/* module name, once known */
	char file[PT_FILE_LEN];		/* finit_module's file name */
};

/* Kinds of PT_DEVNODE. */
enum pt_devnode_kind {
	PT_DEVNODE_BLOCK = 1,	/* device_add_disk() returned */
	PT_DEVNODE_NET,		/* register_netdevice() returned */
};

/*
 * A device a script waits for: a disk (its /dev node) or a network
 * interface, with the nearest ancestor device that has a driver, the one
 * whose probe (or module load) made it: its readiness gap.
 */
struct pt_devnode {
	struct pt_hdr hdr;
	__u32 kind;		/* enum pt_devnode_kind */
	__s32 ret;		/* 0, or the registration's -errno */
	char name[PT_DEV_LEN];		/* "vda", "nvme0n1", "eth0" */
	char bound_driver[PT_DRV_LEN];	/* ancestor's driver, "" if none */
	char bound_device[PT_DEV_LEN];	/* that ancestor, e.g. "virtio2" */
};

/*
 * PID 1 executes a new program: an initramfs's /init handing over to the
 * real root's init (run-init, switch_root), the moment systemd starts.
 */
struct pt_init_exec {
	struct pt_hdr hdr;
	char filename[PT_FILE_LEN];	/* as passed to execve(), e.g. "/sbin/init" */
};

#endif /* PROBETRACE_H */
