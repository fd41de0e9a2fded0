// SPDX-License-Identifier: GPL-2.0
/*
 * probetrace: driver probe spans, kthread_create, signals, task exits and
 * module loads, with per-thread context so that a kill can tell what its
 * target was doing.  CO-RE; vmlinux.h comes from the guest kernel's BTF.
 *
 * Every program here is optional: user space switches off the ones whose
 * attach point the running kernel lacks, and reports why.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "probetrace.h"

#define SIGKILL		9
#define SIGCHLD		17
#define SI_USER		0
#define SI_KERNEL	0x80
#define MAX_ERRNO	4095
#define MAX_FDS		4096

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load. */
const volatile bool trace_sigchld = false;	/* SIGCHLD is boot noise */
const volatile bool trace_all_exits = false;	/* clean thread exits too */
/* The collector's own process (see signal_wants_stack()). */
const volatile __u32 self_tgid = 0;
/*
 * Wake the collector only once this many bytes wait in the ring buffer (0:
 * the kernel's own rule, a wake-up whenever it had caught up).  It reads
 * the rest on its own every 100 ms: under a storm on one CPU, a wake-up
 * per few records cost more than the records.
 */
const volatile __u64 wakeup_bytes = 0;

/*
 * When user space had every program attached (boot ns; 0: not yet).  An
 * event of the boot-time trace (probes, the kthread tracepoints, signals)
 * before it is that trace's to report (tools/probetrace/boottrace.c), one
 * after it ours: each is reported once, whatever was attached when it
 * happened.  Without a boot-time trace, user space sets 1 before attaching.
 */
__u64 cutover_ns = 0;

/* The kernel's own symbol printing: "sym+0xoff/0xsize [module]". */
static const char sym_fmt[] = "%pS";
/* PT_STACK_HALF frames, a line each. */
static const char stack_fmt[] =
	"%pS\n%pS\n%pS\n%pS\n%pS\n%pS\n%pS\n%pS\n%pS\n%pS\n%pS\n%pS\n";

/* BPF-side counters, enum pt_counter; read by user space at the end. */
__u64 counters[PT_CNT_MAX] = {};
/* Ring buffer reservation failures by record type, enum pt_type. */
__u64 drops_by_type[PT_TYPE_MAX] = {};
/* signal_generate records lost, by signal (index sig - 1): a storm's own losses. */
__u64 signal_drops[PT_NSIG] = {};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, PT_RINGBUF_DEFAULT);	/* set by user space */
} events SEC(".maps");

/* One probe of a thread, innermost last. */
struct probe_frame {
	__u64 start_ns;
	__u64 dev;
	char driver[PT_DRV_LEN];
	char device[PT_DEV_LEN];
};

/* What a thread is inside of, right now; zero fields mean "not inside". */
struct thread_ctx {
	__u64 module_start;
	__u64 module_init_start;
	__u64 kthread_start;
	__u64 kthread_caller;
	__u64 initcall_start;
	__u64 initcall_fn;
	__u64 deferred_start;
	__u32 async_depth;
	__u32 probe_depth;
	char module[PT_NAME_LEN];
	char module_file[PT_FILE_LEN];
	struct probe_frame probes[PT_PROBE_DEPTH];
	struct pt_origin_info async_origin;	/* of the async scheduler */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);	/* threads; a boot has a few hundred */
	__type(key, __u32);
	__type(value, struct thread_ctx);
} thread_ctxs SEC(".maps");

/* An all-zero thread_ctx to create entries from (too big for the stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct thread_ctx);
} zero_ctx SEC(".maps");

/* Origin of an async probe, recorded when it is scheduled, by device. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct pt_origin_info);
} async_origins SEC(".maps");

static __always_inline void count(int i)
{
	if (i >= 0 && i < PT_CNT_MAX)
		__sync_fetch_and_add(&counters[i], 1);
}

/*
 * Every reservation failure is counted, in all and by record type: none is
 * silent, and a workload's losses can be told from the rest of the boot's.
 */
static __always_inline void dropped(__u32 type)
{
	count(PT_CNT_RB_DROPS);
	if (type < PT_TYPE_MAX)
		__sync_fetch_and_add(&drops_by_type[type], 1);
}

static __always_inline void *reserve(__u64 size, __u32 type)
{
	void *e = bpf_ringbuf_reserve(&events, size, 0);

	if (!e)
		dropped(type);
	return e;
}

/* bpf_ringbuf_submit()'s flags: wake the collector for a batch, not a record. */
static __always_inline __u64 wakeup(void)
{
	if (!wakeup_bytes)
		return 0;
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes ?
	       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* An event the boot-time trace reports: counted, not sent. */
static __always_inline bool before_cutover(__u64 now)
{
	__u64 cut = cutover_ns;

	if (cut && now >= cut)
		return false;
	count(PT_CNT_BOOT_TRACE);
	return true;
}

static __always_inline void fill_hdr(struct pt_hdr *h, __u32 type, __u64 now)
{
	__u64 id = bpf_get_current_pid_tgid();

	h->type = type;
	h->cpu = bpf_get_smp_processor_id();
	h->ts_ns = now;
	h->pid = (__u32)id;
	h->tgid = id >> 32;
	bpf_get_current_comm(h->comm, sizeof(h->comm));
}

static __always_inline __u32 current_tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

static __always_inline struct thread_ctx *ctx_get(__u32 tid, bool create)
{
	struct thread_ctx *c = bpf_map_lookup_elem(&thread_ctxs, &tid);
	__u32 zero = 0;

	if (c || !create)
		return c;
	c = bpf_map_lookup_elem(&zero_ctx, &zero);
	if (!c)
		return NULL;
	if (bpf_map_update_elem(&thread_ctxs, &tid, c, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&thread_ctxs, &tid)) {
		count(PT_CNT_CTX_FULL);
		return NULL;
	}
	return bpf_map_lookup_elem(&thread_ctxs, &tid);
}

static __always_inline bool fatal_signal_pending(struct task_struct *t)
{
	unsigned long pending = BPF_CORE_READ(t, pending.signal.sig[0]);

	return pending & (1UL << (SIGKILL - 1));
}

static __always_inline void read_dev_name(char *dst, int size,
					  struct device *dev)
{
	const char *name = BPF_CORE_READ(dev, init_name);

	if (!name)
		name = BPF_CORE_READ(dev, kobj.name);
	bpf_probe_read_kernel_str(dst, size, name);
}

/* Origin of work started by the current thread now. */
static __always_inline void origin_of(struct pt_origin_info *o,
				      struct thread_ctx *c)
{
	o->pid = current_tid();
	bpf_get_current_comm(o->comm, sizeof(o->comm));
	if (!c)
		return;
	if (c->async_depth) {
		*o = c->async_origin;
	} else if (c->module_start) {
		o->kind = PT_ORIGIN_MODULE_LOAD;
		__builtin_memcpy(o->module, c->module, sizeof(o->module));
		if (!o->module[0])
			bpf_probe_read_kernel_str(o->module, sizeof(o->module),
						  c->module_file);
	} else if (c->deferred_start) {
		o->kind = PT_ORIGIN_DEFERRED;
	} else if (c->initcall_start) {
		__u64 fn = c->initcall_fn;

		o->kind = PT_ORIGIN_INITCALL;
		o->initcall_fn = fn;
		bpf_snprintf(o->initcall_sym, sizeof(o->initcall_sym), sym_fmt,
			     &fn, sizeof(fn));
	}
}

/*
 * A function-pointer argument cannot be read from the context directly
 * (its BTF type is a FUNC_PROTO, not a struct): bpf_get_func_arg() can.
 */
static __always_inline __u64 func_arg(void *ctx, __u32 n)
{
	__u64 v = 0;

	bpf_get_func_arg(ctx, n, &v);
	return v;
}

/* ---- driver probes ------------------------------------------------------ */

static __always_inline void fill_probe(struct pt_probe *e, struct device *dev,
				       struct device_driver *drv,
				       struct thread_ctx *c)
{
	struct module *owner = BPF_CORE_READ(drv, owner);

	e->dev = (__u64)dev;
	e->async = c && c->async_depth;
	bpf_probe_read_kernel_str(e->driver, sizeof(e->driver),
				  BPF_CORE_READ(drv, name));
	read_dev_name(e->device, sizeof(e->device), dev);
	bpf_probe_read_kernel_str(e->bus, sizeof(e->bus),
				  BPF_CORE_READ(dev, bus, name));
	if (owner)
		BPF_CORE_READ_STR_INTO(&e->owner, owner, name);
	origin_of(&e->origin, c);
	/*
	 * The thread was already loading the driver's module when the
	 * collector attached (finit_module()'s entry unseen, perhaps only the
	 * module's init seen as an initcall): the module still coming up
	 * says so.
	 */
	if ((e->origin.kind == PT_ORIGIN_OTHER ||
	     e->origin.kind == PT_ORIGIN_INITCALL) && !e->async && owner &&
	    BPF_CORE_READ(owner, state) == MODULE_STATE_COMING) {
		e->origin.kind = PT_ORIGIN_MODULE_LOAD;
		e->origin.initcall_fn = 0;
		e->origin.initcall_sym[0] = '\0';
		__builtin_memcpy(e->origin.module, e->owner,
				 sizeof(e->origin.module));
	}
}

SEC("fentry/really_probe")
int BPF_PROG(probe_enter, struct device *dev, struct device_driver *drv)
{
	__u64 now = bpf_ktime_get_boot_ns();
	struct thread_ctx *c = ctx_get(current_tid(), true);
	struct probe_frame *f;
	struct pt_probe *e;
	__u32 d;

	if (c) {
		d = c->probe_depth++;
		if (d < PT_PROBE_DEPTH) {
			f = &c->probes[d & (PT_PROBE_DEPTH - 1)];
			f->start_ns = now;
			f->dev = (__u64)dev;
			bpf_probe_read_kernel_str(f->driver, sizeof(f->driver),
						  BPF_CORE_READ(drv, name));
			read_dev_name(f->device, sizeof(f->device), dev);
		} else {
			count(PT_CNT_PROBE_DEEP);
		}
	}
	if (before_cutover(now))
		return 0;
	e = reserve(sizeof(*e), PT_PROBE_START);
	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	fill_hdr(&e->hdr, PT_PROBE_START, now);
	e->start_ns = now;
	e->depth = c ? c->probe_depth - 1 : 0;
	fill_probe(e, dev, drv, c);
	bpf_ringbuf_submit(e, wakeup());
	return 0;
}

/*
 * The span ends when this program takes its time, and the kernel's own
 * measure of the call (initcall_debug) when the trampoline has returned:
 * the record is filled first and the time taken last, just before the
 * submit, so that the program's work falls inside the span, not between
 * its end and the caller's.
 */
SEC("fexit/really_probe")
int BPF_PROG(probe_exit, struct device *dev, struct device_driver *drv, int ret)
{
	struct thread_ctx *c = ctx_get(current_tid(), false);
	__u64 start = 0, flags, now;
	struct pt_probe *e;
	__u32 d = 0;

	if (c && c->probe_depth) {
		d = --c->probe_depth;
		if (d < PT_PROBE_DEPTH &&
		    c->probes[d & (PT_PROBE_DEPTH - 1)].dev == (__u64)dev)
			start = c->probes[d & (PT_PROBE_DEPTH - 1)].start_ns;
	}
	/* One test of the reservation: 6.1's verifier loses a second one. */
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		if (!before_cutover(bpf_ktime_get_boot_ns()))
			dropped(PT_PROBE);
		return 0;
	}
	__builtin_memset(e, 0, sizeof(*e));
	fill_hdr(&e->hdr, PT_PROBE, 0);
	e->start_ns = start;
	e->ret = ret;
	e->depth = d;
	fill_probe(e, dev, drv, c);
	flags = wakeup();
	now = bpf_ktime_get_boot_ns();
	if (before_cutover(now)) {
		bpf_ringbuf_discard(e, BPF_RB_NO_WAKEUP);
		return 0;
	}
	e->hdr.ts_ns = now;
	bpf_ringbuf_submit(e, flags);
	return 0;
}

/* Record who scheduled async work on a device, for its async probe. */
SEC("fentry/async_schedule_node_domain")
int BPF_PROG(async_schedule)
{
	struct thread_ctx *c = ctx_get(current_tid(), false);
	struct pt_origin_info o = {};
	__u64 key = func_arg(ctx, 1);	/* data: the device */

	origin_of(&o, c);
	bpf_map_update_elem(&async_origins, &key, &o, BPF_ANY);
	return 0;
}

static __always_inline void async_helper_enter(void *dev)
{
	struct thread_ctx *c = ctx_get(current_tid(), true);
	struct pt_origin_info *o;
	__u64 key = (__u64)dev;

	if (!c)
		return;
	if (!c->async_depth) {
		o = bpf_map_lookup_elem(&async_origins, &key);
		if (o) {
			c->async_origin = *o;
			bpf_map_delete_elem(&async_origins, &key);
		} else {
			__builtin_memset(&c->async_origin, 0,
					 sizeof(c->async_origin));
		}
	}
	c->async_depth++;
}

static __always_inline void async_helper_exit(void)
{
	struct thread_ctx *c = ctx_get(current_tid(), false);

	if (c && c->async_depth)
		c->async_depth--;
}

SEC("fentry/__driver_attach_async_helper")
int BPF_PROG(drv_async_enter, void *dev)
{
	async_helper_enter(dev);
	return 0;
}

SEC("fexit/__driver_attach_async_helper")
int BPF_PROG(drv_async_exit, void *dev)
{
	async_helper_exit();
	return 0;
}

SEC("fentry/__device_attach_async_helper")
int BPF_PROG(dev_async_enter, void *dev)
{
	async_helper_enter(dev);
	return 0;
}

SEC("fexit/__device_attach_async_helper")
int BPF_PROG(dev_async_exit, void *dev)
{
	async_helper_exit();
	return 0;
}

SEC("fentry/deferred_probe_work_func")
int BPF_PROG(deferred_enter)
{
	struct thread_ctx *c = ctx_get(current_tid(), true);

	if (c)
		c->deferred_start = bpf_ktime_get_boot_ns();
	return 0;
}

SEC("fexit/deferred_probe_work_func")
int BPF_PROG(deferred_exit)
{
	struct thread_ctx *c = ctx_get(current_tid(), false);

	if (c)
		c->deferred_start = 0;
	return 0;
}

SEC("fentry/do_one_initcall")
int BPF_PROG(initcall_enter)
{
	struct thread_ctx *c = ctx_get(current_tid(), true);

	if (c) {
		c->initcall_start = bpf_ktime_get_boot_ns();
		c->initcall_fn = func_arg(ctx, 0);
	}
	return 0;
}

SEC("fexit/do_one_initcall")
int BPF_PROG(initcall_exit)
{
	struct thread_ctx *c = ctx_get(current_tid(), false);

	if (c)
		c->initcall_start = 0;
	return 0;
}

/* ---- kthread_create ------------------------------------------------------ */

static __always_inline void kthread_emit(__u32 type, __u64 now, __u64 caller,
					 __u64 wait_ns, int ret, bool fatal,
					 bool oom, __u8 src,
					 struct thread_ctx *c)
{
	struct pt_kthread *e;
	__u32 d;

	/* The boot-time trace has the tracepoints' events, not fentry's. */
	if (src == PT_KTHREAD_SRC_TP && before_cutover(now))
		return;
	e = reserve(sizeof(*e), type);
	if (!e)
		return;
	__builtin_memset(e, 0, sizeof(*e));
	fill_hdr(&e->hdr, type, now);
	e->caller = caller;
	bpf_snprintf(e->caller_sym, sizeof(e->caller_sym), sym_fmt, &caller,
		     sizeof(caller));
	e->wait_ns = wait_ns;
	e->ret = ret;
	e->fatal_signal = fatal;
	e->oom_victim = oom;
	e->src = src;
	if (c && c->probe_depth) {
		d = c->probe_depth - 1;
		if (d < PT_PROBE_DEPTH)
			__builtin_memcpy(e->probe_device,
					 c->probes[d & (PT_PROBE_DEPTH - 1)].device,
					 sizeof(e->probe_device));
	}
	bpf_ringbuf_submit(e, wakeup());
}

static __always_inline void kthread_start(__u64 caller, bool fatal, __u8 src)
{
	__u64 now = bpf_ktime_get_boot_ns();
	struct thread_ctx *c = ctx_get(current_tid(), true);

	if (c) {
		c->kthread_start = now;
		c->kthread_caller = caller;
	}
	kthread_emit(PT_KTHREAD_START, now, caller, 0, 0, fatal, false, src, c);
}

static __always_inline void kthread_end(__u64 caller, __u64 wait_ns, int ret,
					bool fatal, bool oom, __u8 src)
{
	__u64 now = bpf_ktime_get_boot_ns();
	struct thread_ctx *c = ctx_get(current_tid(), false);

	if (c) {
		if (src == PT_KTHREAD_SRC_FENTRY && c->kthread_start)
			wait_ns = now - c->kthread_start;
		c->kthread_start = 0;
	}
	kthread_emit(PT_KTHREAD_END, now, caller, wait_ns, ret, fatal, oom,
		     src, c);
}

/* The kthread tracepoints of kernel-patches/0003 (not in mainline 6.1). */
SEC("tp_btf/kthread_create_start")
int BPF_PROG(kthread_tp_start, unsigned long caller, bool fatal_signal)
{
	kthread_start(caller, fatal_signal, PT_KTHREAD_SRC_TP);
	return 0;
}

SEC("tp_btf/kthread_create_end")
int BPF_PROG(kthread_tp_end, unsigned long caller, __u64 wait_ns, int ret,
	     bool fatal_signal, bool oom_victim)
{
	kthread_end(caller, wait_ns, ret, fatal_signal, oom_victim,
		    PT_KTHREAD_SRC_TP);
	return 0;
}

/* Fallback without the tracepoints: the function that waits for kthreadd. */
SEC("fentry/__kthread_create_on_node")
int BPF_PROG(kthread_fentry)
{
	struct task_struct *t = (void *)bpf_get_current_task_btf();

	kthread_start(func_arg(ctx, 0), fatal_signal_pending(t),
		      PT_KTHREAD_SRC_FENTRY);
	return 0;
}

SEC("fexit/__kthread_create_on_node")
int BPF_PROG(kthread_fexit)
{
	struct task_struct *t = (void *)bpf_get_current_task_btf();
	__u64 ret = 0;
	long r;

	bpf_get_func_ret(ctx, &ret);
	r = (long)ret;
	kthread_end(func_arg(ctx, 0), 0,
		    (unsigned long)r >= (unsigned long)-MAX_ERRNO ? (int)r : 0,
		    fatal_signal_pending(t), false, PT_KTHREAD_SRC_FENTRY);
	return 0;
}

/* ---- signals and exits --------------------------------------------------- */

static __always_inline __u64 age(__u64 now, __u64 start)
{
	return start && now > start ? now - start : (start ? 1 : 0);
}

/* What @c's thread is doing at @now. */
static __always_inline void fill_state(struct pt_task_state *s,
				       struct thread_ctx *c, __u64 now)
{
	__u32 d;

	s->module_ns = age(now, c->module_start);
	s->module_init_ns = age(now, c->module_init_start);
	s->kthread_ns = age(now, c->kthread_start);
	s->kthread_caller = c->kthread_start ? c->kthread_caller : 0;
	if (c->kthread_start) {
		/* From the stack: a helper takes one argument in the record. */
		__u64 caller = c->kthread_caller;

		bpf_snprintf(s->kthread_caller_sym, sizeof(s->kthread_caller_sym),
			     sym_fmt, &caller, sizeof(caller));
	}
	s->async = c->async_depth;
	s->probe_depth = c->probe_depth;
	if (c->module_start) {
		__builtin_memcpy(s->module, c->module, sizeof(s->module));
		__builtin_memcpy(s->module_file, c->module_file,
				 sizeof(s->module_file));
	}
	if (!c->probe_depth)
		return;
	d = c->probe_depth - 1;
	if (d >= PT_PROBE_DEPTH)
		d = PT_PROBE_DEPTH - 1;
	/* Keep the mask: clang drops it as redundant, the verifier needs it. */
	asm volatile("" : "+r"(d));
	d &= PT_PROBE_DEPTH - 1;
	s->probe_ns = age(now, c->probes[d].start_ns);
	__builtin_memcpy(s->probe_driver, c->probes[d].driver,
			 sizeof(s->probe_driver));
	__builtin_memcpy(s->probe_device, c->probes[d].device,
			 sizeof(s->probe_device));
}

static __always_inline void siginfo_read(struct kernel_siginfo *info,
					 __s32 *err, __s32 *code)
{
	/* SEND_SIG_NOINFO is 0, SEND_SIG_PRIV is 1 (include/linux/sched/signal.h). */
	if ((unsigned long)info == 0) {
		*err = 0;
		*code = SI_USER;
	} else if ((unsigned long)info == 1) {
		*err = 0;
		*code = SI_KERNEL;
	} else {
		*err = BPF_CORE_READ(info, si_errno);
		*code = BPF_CORE_READ(info, si_code);
	}
}

/*
 * The target's kernel stack says where a kill found it.  None for a signal
 * it ignores, one a task sends itself (the stack would be the sender's own
 * kill path) or one sent to the collector (the SIGTERM that ends the
 * stream: the stack would only show it waiting, and make it load kallsyms
 * at the end of every boot).
 */
static __always_inline bool signal_wants_stack(struct task_struct *task,
					       __u32 tpid, int result)
{
	if (result == TRACE_SIGNAL_IGNORED || tpid == current_tid())
		return false;
	return !self_tgid || BPF_CORE_READ(task, tgid) != self_tgid;
}

/*
 * The stack's frames printed by the kernel into stack_sym, a half at a
 * time through the BPF stack (the verifier takes one helper argument in
 * the record, not two).
 */
static __noinline void stack_print(struct pt_signal *e)
{
	__u64 args[PT_STACK_HALF];

	__builtin_memcpy(args, &e->stack[0], sizeof(args));
	bpf_snprintf(e->stack_sym[0], sizeof(e->stack_sym[0]), stack_fmt, args,
		     sizeof(args));
	if (e->stack_sz <= (int)sizeof(args))
		return;
	__builtin_memcpy(args, &e->stack[PT_STACK_HALF], sizeof(args));
	bpf_snprintf(e->stack_sym[1], sizeof(e->stack_sym[1]), stack_fmt, args,
		     sizeof(args));
}

SEC("tp_btf/signal_generate")
int BPF_PROG(signal_generate, int sig, struct kernel_siginfo *info,
	     struct task_struct *task, int group, int result)
{
	__u64 now = bpf_ktime_get_boot_ns();
	struct thread_ctx *c;
	struct pt_signal *e;
	bool want_stack;
	__u32 tpid, i;

	if (sig == SIGCHLD && !trace_sigchld) {
		count(PT_CNT_SIG_FILTERED);
		return 0;
	}
	if (before_cutover(now))
		return 0;
	tpid = BPF_CORE_READ(task, pid);
	c = ctx_get(tpid, false);
	want_stack = signal_wants_stack(task, tpid, result);
	/* Nothing to say of the target: the short record (a storm's). */
	if (c || want_stack)
		e = reserve(sizeof(*e), PT_SIGNAL_GENERATE);
	else
		e = reserve(PT_SIGNAL_SHORT, PT_SIGNAL_GENERATE);
	if (!e) {
		i = (__u32)sig - 1;
		if (i < PT_NSIG) {
			/* Keep the mask: the verifier needs the bound. */
			asm volatile("" : "+r"(i));
			i &= PT_NSIG - 1;
			__sync_fetch_and_add(&signal_drops[i], 1);
		}
		return 0;
	}
	__builtin_memset(e, 0, PT_SIGNAL_SHORT);
	fill_hdr(&e->hdr, PT_SIGNAL_GENERATE, now);
	e->sig = sig;
	siginfo_read(info, &e->errno_, &e->code);
	e->group = group;
	e->result = result;
	e->target_pid = tpid;
	e->target_tgid = BPF_CORE_READ(task, tgid);
	BPF_CORE_READ_STR_INTO(&e->target_comm, task, comm);
	if (c || want_stack) {
		/* stack_sym: too big for an unrolled memset; each half's "" is enough */
		__builtin_memset(&e->target_state, 0,
				 __builtin_offsetof(struct pt_signal, stack_sym) -
				 PT_SIGNAL_SHORT);
		e->stack_sym[0][0] = '\0';
		e->stack_sym[1][0] = '\0';
		if (c) {
			fill_state(&e->target_state, c, now);
			e->has_state = 1;
		}
		if (want_stack)
			e->stack_sz = bpf_get_task_stack(task, e->stack,
							 sizeof(e->stack), 0);
		if (e->stack_sz > 0)
			stack_print(e);
	}
	bpf_ringbuf_submit(e, wakeup());
	return 0;
}

SEC("tp_btf/signal_deliver")
int BPF_PROG(signal_deliver, int sig, struct kernel_siginfo *info,
	     struct k_sigaction *ka)
{
	struct pt_signal_deliver *e;

	if (sig == SIGCHLD && !trace_sigchld) {
		count(PT_CNT_SIG_FILTERED);
		return 0;
	}
	e = reserve(sizeof(*e), PT_SIGNAL_DELIVER);
	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	fill_hdr(&e->hdr, PT_SIGNAL_DELIVER, bpf_ktime_get_boot_ns());
	e->sig = sig;
	siginfo_read(info, &e->errno_, &e->code);
	e->handler = (__u64)BPF_CORE_READ(ka, sa.sa_handler);
	e->sa_flags = BPF_CORE_READ(ka, sa.sa_flags);
	bpf_ringbuf_submit(e, wakeup());
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(process_exit, struct task_struct *p)
{
	__u32 pid = BPF_CORE_READ(p, pid);
	__u32 tgid = BPF_CORE_READ(p, tgid);
	int code = BPF_CORE_READ(p, exit_code);
	struct pt_exit *e;

	bpf_map_delete_elem(&thread_ctxs, &pid);
	if (pid != tgid && !code && !trace_all_exits) {
		count(PT_CNT_EXIT_FILTERED);
		return 0;
	}
	e = reserve(sizeof(*e), PT_EXIT);
	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	fill_hdr(&e->hdr, PT_EXIT, bpf_ktime_get_boot_ns());
	e->exit_code = code;
	e->leader = pid == tgid;
	bpf_ringbuf_submit(e, wakeup());
	return 0;
}

/*
 * Only PID 1: an initramfs's init starting the real root's (systemd), the
 * start systemd-analyze's "kernel" time ends at.
 */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(init_exec, struct task_struct *p, pid_t old_pid,
	     struct linux_binprm *bprm)
{
	struct pt_init_exec *e;

	if (BPF_CORE_READ(p, pid) != 1)
		return 0;
	e = reserve(sizeof(*e), PT_INIT_EXEC);
	if (!e)
		return 0;
	__builtin_memset(e, 0, sizeof(*e));
	fill_hdr(&e->hdr, PT_INIT_EXEC, bpf_ktime_get_boot_ns());
	bpf_probe_read_kernel_str(e->filename, sizeof(e->filename),
				  BPF_CORE_READ(bprm, filename));
	bpf_ringbuf_submit(e, wakeup());
	return 0;
}

/* ---- module loads -------------------------------------------------------- */

/* Base name of the file open on @fd in the current task. */
static __always_inline void fd_file_name(char *dst, int size, int fd)
{
	struct task_struct *t = (void *)bpf_get_current_task_btf();
	struct file **fds = BPF_CORE_READ(t, files, fdt, fd);
	struct file *f = NULL;

	if (fd < 0 || fd >= MAX_FDS || !fds)
		return;
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	if (f)
		bpf_probe_read_kernel_str(dst, size,
					  BPF_CORE_READ(f, f_path.dentry,
							d_name.name));
}

static __always_inline void module_load_enter(__u32 syscall, int fd)
{
	__u64 now = bpf_ktime_get_boot_ns();
	struct thread_ctx *c = ctx_get(current_tid(), true);
	struct pt_module *e;

	e = reserve(sizeof(*e), PT_MODULE_LOAD_START);
	if (e) {
		__builtin_memset(e, 0, sizeof(*e));
		fill_hdr(&e->hdr, PT_MODULE_LOAD_START, now);
		e->start_ns = now;
		e->syscall = syscall;
		e->fd = fd;
		if (syscall == PT_SYS_FINIT_MODULE)
			fd_file_name(e->file, sizeof(e->file), fd);
	}
	if (c) {
		c->module_start = now;
		c->module[0] = 0;
		c->module_file[0] = 0;
		if (e)
			__builtin_memcpy(c->module_file, e->file,
					 sizeof(c->module_file));
	}
	if (e)
		bpf_ringbuf_submit(e, wakeup());
}

static __always_inline void module_load_exit(__u32 syscall, int fd, long ret)
{
	__u64 now = bpf_ktime_get_boot_ns();
	struct thread_ctx *c = ctx_get(current_tid(), false);
	struct pt_module *e = reserve(sizeof(*e), PT_MODULE_LOAD);

	if (e) {
		__builtin_memset(e, 0, sizeof(*e));
		fill_hdr(&e->hdr, PT_MODULE_LOAD, now);
		e->syscall = syscall;
		e->fd = fd;
		e->ret = ret;
		e->fatal_signal = fatal_signal_pending(
			(void *)bpf_get_current_task_btf());
		if (c) {
			e->start_ns = c->module_start;
			__builtin_memcpy(e->name, c->module, sizeof(e->name));
			__builtin_memcpy(e->file, c->module_file,
					 sizeof(e->file));
		}
		bpf_ringbuf_submit(e, wakeup());
	}
	if (c) {
		c->module_start = 0;
		c->module[0] = 0;
	}
}

/* The x86-64 syscall wrappers: arguments are in the saved registers. */
SEC("fentry/__x64_sys_finit_module")
int BPF_PROG(finit_module_enter, struct pt_regs *regs)
{
	module_load_enter(PT_SYS_FINIT_MODULE, (int)BPF_CORE_READ(regs, di));
	return 0;
}

SEC("fexit/__x64_sys_finit_module")
int BPF_PROG(finit_module_exit, struct pt_regs *regs, long ret)
{
	module_load_exit(PT_SYS_FINIT_MODULE, (int)BPF_CORE_READ(regs, di),
			 ret);
	return 0;
}

SEC("fentry/__x64_sys_init_module")
int BPF_PROG(init_module_enter, struct pt_regs *regs)
{
	module_load_enter(PT_SYS_INIT_MODULE, -1);
	return 0;
}

SEC("fexit/__x64_sys_init_module")
int BPF_PROG(init_module_exit, struct pt_regs *regs, long ret)
{
	module_load_exit(PT_SYS_INIT_MODULE, -1, ret);
	return 0;
}

SEC("fentry/do_init_module")
int BPF_PROG(do_init_module_enter, struct module *mod)
{
	struct thread_ctx *c = ctx_get(current_tid(), true);

	if (!c)
		return 0;
	c->module_init_start = bpf_ktime_get_boot_ns();
	BPF_CORE_READ_STR_INTO(&c->module, mod, name);
	return 0;
}

SEC("fexit/do_init_module")
int BPF_PROG(do_init_module_exit, struct module *mod, int ret)
{
	__u64 now = bpf_ktime_get_boot_ns();
	struct thread_ctx *c = ctx_get(current_tid(), false);
	struct pt_module *e = reserve(sizeof(*e), PT_MODULE_INIT);

	if (e) {
		__builtin_memset(e, 0, sizeof(*e));
		fill_hdr(&e->hdr, PT_MODULE_INIT, now);
		e->ret = ret;
		e->fd = -1;
		e->fatal_signal = fatal_signal_pending(
			(void *)bpf_get_current_task_btf());
		/* A failed do_init_module() has freed @mod: use the copy. */
		if (c) {
			__builtin_memcpy(e->name, c->module, sizeof(e->name));
			e->start_ns = c->module_init_start;
			__builtin_memcpy(e->file, c->module_file,
					 sizeof(e->file));
		}
		bpf_ringbuf_submit(e, wakeup());
	}
	if (c)
		c->module_init_start = 0;
	return 0;
}

/* ---- disks and network interfaces appearing --------------------------------- */

/*
 * Local flavours: CO-RE relocates them against the running kernel, and the
 * object still builds from a vmlinux.h that lacks the type.
 */
struct gendisk___pt {
	char disk_name[32];
} __attribute__((preserve_access_index));

struct net_device___pt {
	char name[16];
	struct device dev;
} __attribute__((preserve_access_index));

/* The nearest ancestor bound to a driver: whose probe made @dev. */
static __always_inline void bound_ancestor(struct pt_devnode *e,
					   struct device *dev)
{
	struct device_driver *drv;
	int i;

	for (i = 0; i < 6 && dev; i++) {
		drv = BPF_CORE_READ(dev, driver);
		if (drv) {
			bpf_probe_read_kernel_str(e->bound_driver,
						  sizeof(e->bound_driver),
						  BPF_CORE_READ(drv, name));
			read_dev_name(e->bound_device,
				      sizeof(e->bound_device), dev);
			return;
		}
		dev = BPF_CORE_READ(dev, parent);
	}
}

/*
 * A registration that returned before the cutover is the boot-time
 * trace's (bootprobe/disk_added, netdev_added), as a probe's end is.
 */
static __always_inline struct pt_devnode *devnode_new(__u32 kind, int ret)
{
	__u64 now = bpf_ktime_get_boot_ns();
	struct pt_devnode *e;

	if (before_cutover(now))
		return NULL;
	e = reserve(sizeof(*e), PT_DEVNODE);
	if (!e)
		return NULL;
	__builtin_memset(e, 0, sizeof(*e));
	fill_hdr(&e->hdr, PT_DEVNODE, now);
	e->kind = kind;
	e->ret = ret;
	return e;
}

SEC("fexit/device_add_disk")
int BPF_PROG(disk_added, struct device *parent, struct gendisk___pt *disk,
	     const void *groups, int ret)
{
	struct pt_devnode *e = devnode_new(PT_DEVNODE_BLOCK, ret);

	if (!e)
		return 0;
	bpf_probe_read_kernel_str(e->name, sizeof(e->name), disk->disk_name);
	bound_ancestor(e, parent);
	bpf_ringbuf_submit(e, wakeup());
	return 0;
}

SEC("fexit/register_netdevice")
int BPF_PROG(netdev_registered, struct net_device___pt *dev, int ret)
{
	struct pt_devnode *e = devnode_new(PT_DEVNODE_NET, ret);

	if (!e)
		return 0;
	bpf_probe_read_kernel_str(e->name, sizeof(e->name), dev->name);
	bound_ancestor(e, BPF_CORE_READ(dev, dev.parent));
	bpf_ringbuf_submit(e, wakeup());
	return 0;
}
