/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel addresses to "symbol+0xoff [module]", from /proc/kallsyms. */
#ifndef PROBETRACE_KSYMS_H
#define PROBETRACE_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksyms;

/* NULL with errno set; an all-zero kallsyms (kptr_restrict) gives EPERM. */
struct ksyms *ksyms__load(const char *path);
/* The same from an open kallsyms, read from its start (@fd stays open). */
struct ksyms *ksyms__load_fd(int fd);
void ksyms__free(struct ksyms *ks);
/* In the core kernel's text (_stext.._etext), which modules do not change. */
bool ksyms__is_core(const struct ksyms *ks, uint64_t addr);
/* "name+0xoff" or "name+0xoff [mod]" into buf; false when unknown. */
bool ksyms__resolve(const struct ksyms *ks, uint64_t addr, char *buf,
		    size_t len);

#endif
