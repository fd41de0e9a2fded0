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

/*
 * Print the arguments for the kernel whose BTF is @btf_path (raw BTF, or
 * an ELF with a .BTF section such as a build's vmlinux) to @out, one line.
 * Returns 0, or -errno with one line in @err naming the file and the
 * type, member or function it lacks.
 */
int bootargs__print(FILE *out, const char *btf_path, char *err, size_t errlen);

#endif
