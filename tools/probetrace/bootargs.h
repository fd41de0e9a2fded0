/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel arguments that turn on the boot-time trace (probetrace
 * --boot-args), made for one kernel: every struct offset and argument
 * register the kprobes fetch is looked up by name in that kernel's BTF.
 */
#ifndef PROBETRACE_BOOTARGS_H
#define PROBETRACE_BOOTARGS_H

#include <stddef.h>
#include <stdio.h>

/* Where a running kernel publishes its BTF. */
#define BOOTARGS_BTF_DEFAULT "/sys/kernel/btf/vmlinux"

/* The kprobe events' group, and the room their kprobe_event= list has. */
#define BOOTARGS_GROUP "bootprobe"
#define BOOTARGS_KPROBES_MAX 2048

struct btf;

/*
 * The boot-time trace holds what happens before the collector attaches
 * (a signal storm among it): its buffer per CPU, unless asked otherwise,
 * is BOOTARGS_TRACE_BUF, or less so that all CPUs' together stay within
 * BOOTARGS_TRACE_BUF_ALL.
 */
#define BOOTARGS_TRACE_BUF	(8UL << 20)
#define BOOTARGS_TRACE_BUF_ALL	(64UL << 20)

/* The buffer per CPU for @cpus CPUs; @requested (>= 0) wins. */
unsigned long bootargs__trace_buf(long requested, long cpus);

/* "8M", "512K", "0": bytes, up to 1 GiB, into @bytes, or -EINVAL (one
 * syntax for every size probetrace takes). */
int bootargs__parse_size(const char *arg, long *bytes);

/*
 * Print the arguments for the kernel whose BTF is @btf_path (raw BTF, or
 * an ELF with a .BTF section such as a build's vmlinux) to @out, one line,
 * with trace_buf_size=@trace_buf (bytes per CPU) unless it is 0.
 * Returns 0, or -errno with one line in @err naming the file and the
 * type, member or function it lacks.
 */
int bootargs__print(FILE *out, const char *btf_path, unsigned long trace_buf,
		    char *err, size_t errlen);

/*
 * The kprobe_event= list (without "kprobe_event=") for the kernel of
 * @btf, named @label in errors, into @buf: what bootargs__print() prints.
 */
int bootargs__kprobes(const struct btf *btf, const char *label, char *buf, size_t len,
		      char *err, size_t errlen);

#define BOOTARGS_MAX_EVENTS 16

/* The boot-time kprobes the kernel defined, against those made for it. */
struct bootargs_check {
	int compared;		/* bootprobe/ events defined */
	int nr_other;		/* of those, made for another kernel */
	struct bootargs_mismatch {
		char event[32];	/* "netdev_add" */
		/* "netdev_add: name=+304(%di):string on the command line,
		 * name=+288(%di):string for this kernel" */
		char why[400];
	} other[BOOTARGS_MAX_EVENTS];
};

/*
 * @defined, the kernel's kprobe_events (tracefs: a "p:GROUP/EVENT SYMBOL
 * NAME=FETCH ..." line each), against @expected, this kernel's
 * kprobe_event= list (bootargs__kprobes()): each bootprobe/ event whose
 * symbol or fetch arguments differ, or that this kernel's list lacks, is
 * named in @chk with the first difference.
 */
void bootargs__compare(const char *defined, const char *expected,
		       struct bootargs_check *chk);

#endif
