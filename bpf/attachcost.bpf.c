// SPDX-License-Identifier: GPL-2.0
/*
 * attachcost: the same empty program (one counter increment) on one kill(2)
 * through each kind of BPF attach point, so that the time a kill takes with
 * it attached, minus without, is what that kind of attach costs per event.
 * Loaded and attached one at a time by tools/guest/attachcost.c, in a guest
 * only.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* Hits of the program attached now: each kill must make exactly one. */
__u64 hits = 0;

static __always_inline int hit(void)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

/* A BPF trampoline at the function's entry, and at its return. */
SEC("fentry/__x64_sys_kill")
int BPF_PROG(on_fentry)
{
	return hit();
}

SEC("fexit/__x64_sys_kill")
int BPF_PROG(on_fexit)
{
	return hit();
}

/* The signal:signal_generate tracepoint, three ways. */
SEC("tp_btf/signal_generate")
int BPF_PROG(on_tp_btf)
{
	return hit();
}

SEC("raw_tp/signal_generate")
int on_raw_tp(void *ctx)
{
	return hit();
}

SEC("tp/signal/signal_generate")
int on_tp(void *ctx)
{
	return hit();
}

/* A kprobe, for contrast: the kprobe_event kind the boot-time trace uses. */
SEC("kprobe/__x64_sys_kill")
int on_kprobe(void *ctx)
{
	return hit();
}
