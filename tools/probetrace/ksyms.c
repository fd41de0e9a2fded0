// SPDX-License-Identifier: GPL-2.0
/* Kernel addresses to symbols, from /proc/kallsyms. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksyms.h"

struct ksym {
	uint64_t addr;
	char *name;		/* "name" or "name\0mod": module after the NUL */
};

struct ksyms {
	struct ksym *syms;
	size_t n, cap;
	uint64_t stext, etext;	/* the core kernel's text, never reloaded */
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int ksyms__add(struct ksyms *ks, uint64_t addr, const char *name,
		      const char *mod)
{
	struct ksym *grown;
	size_t len;

	if (ks->n == ks->cap) {
		ks->cap = ks->cap ? ks->cap * 2 : 4096;
		grown = realloc(ks->syms, ks->cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		ks->syms = grown;
	}
	len = strlen(name) + 1;
	ks->syms[ks->n].name = malloc(len + (mod ? strlen(mod) : 0) + 1);
	if (!ks->syms[ks->n].name)
		return -ENOMEM;
	memcpy(ks->syms[ks->n].name, name, len);
	strcpy(ks->syms[ks->n].name + len, mod ? mod : "");
	ks->syms[ks->n++].addr = addr;
	return 0;
}

/* One line: "ffffffff81000000 T _stext" or "... t foo\t[mod]". */
static int ksyms__parse_line(struct ksyms *ks, char *line)
{
	char type, name[256], mod[64];
	uint64_t addr;
	int n;

	n = sscanf(line, "%" SCNx64 " %c %255s [%63[^]]]", &addr, &type, name,
		   mod);
	if (n < 3 || !addr)
		return 0;
	/* Text symbols only: stacks and call sites point into code. */
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	if (n == 3 && !strcmp(name, "_stext"))
		ks->stext = addr;
	else if (n == 3 && !strcmp(name, "_etext"))
		ks->etext = addr;
	return ksyms__add(ks, addr, name, n == 4 ? mod : NULL);
}

/* Every line of @f (closed here); NULL with errno set. */
static struct ksyms *ksyms__read(FILE *f)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));
	char line[512];
	int err = 0;

	if (!ks) {
		fclose(f);
		errno = ENOMEM;
		return NULL;
	}
	while (!err && fgets(line, sizeof(line), f))
		err = ksyms__parse_line(ks, line);
	fclose(f);
	if (!err && !ks->n)
		err = -EPERM;	/* addresses hidden: kptr_restrict */
	if (err)
		goto err_free;
	qsort(ks->syms, ks->n, sizeof(*ks->syms), ksym_cmp);
	return ks;

err_free:
	ksyms__free(ks);
	errno = -err;
	return NULL;
}

struct ksyms *ksyms__load(const char *path)
{
	FILE *f = fopen(path, "re");

	return f ? ksyms__read(f) : NULL;
}

struct ksyms *ksyms__load_fd(int fd)
{
	int dfd = dup(fd);
	FILE *f;

	if (dfd < 0)
		return NULL;
	/* The file offset is shared with @fd: read it again from the start. */
	if (lseek(dfd, 0, SEEK_SET) < 0 || !(f = fdopen(dfd, "r"))) {
		int err = errno;

		close(dfd);
		errno = err;
		return NULL;
	}
	return ksyms__read(f);
}

void ksyms__free(struct ksyms *ks)
{
	size_t i;

	if (!ks)
		return;
	for (i = 0; i < ks->n; i++)
		free(ks->syms[i].name);
	free(ks->syms);
	free(ks);
}

bool ksyms__is_core(const struct ksyms *ks, uint64_t addr)
{
	return ks && addr >= ks->stext && addr < ks->etext;
}

bool ksyms__resolve(const struct ksyms *ks, uint64_t addr, char *buf,
		    size_t len)
{
	size_t lo = 0, hi, mid;
	const struct ksym *s;
	const char *mod;

	if (!ks || !ks->n || addr < ks->syms[0].addr)
		return false;
	hi = ks->n;
	/* The last symbol at or below addr. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	s = &ks->syms[lo];
	/* Past the last symbol by more than any function: not ours. */
	if (lo == ks->n - 1 && addr - s->addr > (1 << 20))
		return false;
	mod = s->name + strlen(s->name) + 1;
	snprintf(buf, len, "%s+0x%" PRIx64 "%s%s%s", s->name, addr - s->addr,
		 *mod ? " [" : "", mod, *mod ? "]" : "");
	return true;
}
