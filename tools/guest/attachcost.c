// SPDX-License-Identifier: GPL-2.0
/*
 * attachcost: what each kind of BPF attach point costs per event, in this
 * kernel.  For each program of bpf/attachcost.bpf.c (fentry, fexit,
 * tp_btf, raw_tp, tp, kprobe): attach it alone, time N kill(2) of an
 * ignored SIGUSR1 to ourselves, detach, and time N kills with nothing
 * attached just before; the difference per kill is the attach kind's cost
 * (the program itself is one increment).  Rounds alternate the kinds so
 * that drift hits all alike; the medians over rounds are printed.
 *
 * For a guest only: it loads BPF programs into the running kernel.
 *
 * usage: attachcost N [ROUNDS]
 * output: "attachcost kind=K n=N rounds=R base_ns=B with_ns=W cost_ns=C hits_ok=0|1"
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "attachcost.skel.h"
#include "clock.h"

#define MAX_KINDS	8
#define MAX_ROUNDS	15

/* ns per kill of n kills, or -1 on a failed kill. */
static double kill_loop(unsigned long n)
{
	pid_t self = getpid();
	uint64_t t0 = mono_ns();
	unsigned long i;

	for (i = 0; i < n; i++)
		if (kill(self, SIGUSR1))
			return -1;
	return (double)(mono_ns() - t0) / n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct kind {
	struct bpf_program *prog;
	const char *name;		/* "fentry", "tp_btf", ... */
	double base[MAX_ROUNDS], with[MAX_ROUNDS];
	bool hits_ok;
	int err;			/* attach error, 0 if it attached */
};

/* One round of one kind: nothing attached, then the program alone. */
static int kind__round(struct kind *k, struct attachcost *skel,
		       unsigned long n, int r)
{
	struct bpf_link *link;

	k->base[r] = kill_loop(n);
	link = bpf_program__attach(k->prog);
	if (!link) {
		k->err = -errno;
		return k->err;
	}
	skel->bss->hits = 0;
	k->with[r] = kill_loop(n);
	k->hits_ok = k->hits_ok && skel->bss->hits == n;
	bpf_link__destroy(link);
	return k->base[r] < 0 || k->with[r] < 0 ? -errno : 0;
}

static int parse_count(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || end == s || *end || !*v || *v > max ? -EINVAL : 0;
}

int main(int argc, char **argv)
{
	struct kind kinds[MAX_KINDS] = {};
	unsigned long n, rounds = 5;
	struct attachcost *skel;
	struct bpf_program *p;
	int nk = 0, i, r, err;

	if (argc < 2 || argc > 3 || parse_count(argv[1], 100000000, &n) ||
	    (argc == 3 && parse_count(argv[2], MAX_ROUNDS, &rounds))) {
		fprintf(stderr, "usage: attachcost N [ROUNDS]   (N kills per measure, ROUNDS 1..%d, default 5)\n",
			MAX_ROUNDS);
		return 2;
	}
	if (signal(SIGUSR1, SIG_IGN) == SIG_ERR) {
		fprintf(stderr, "attachcost: SIGUSR1: %s\n", strerror(errno));
		return 1;
	}
	skel = attachcost__open_and_load();
	if (!skel) {
		fprintf(stderr, "attachcost: BPF skeleton: %s\n", strerror(errno));
		return 1;
	}
	bpf_object__for_each_program(p, skel->obj) {
		if (nk == MAX_KINDS)
			break;
		kinds[nk].prog = p;
		kinds[nk].name = bpf_program__name(p) + strlen("on_");
		kinds[nk].hits_ok = true;
		nk++;
	}
	for (r = 0; r < (int)rounds; r++)
		for (i = 0; i < nk; i++)
			if (!kinds[i].err && (err = kind__round(&kinds[i], skel, n, r)) &&
			    !kinds[i].err)
				kinds[i].err = err;
	for (i = 0; i < nk; i++) {
		struct kind *k = &kinds[i];
		double b, w;

		if (k->err) {
			printf("attachcost kind=%s error=%s\n", k->name, strerror(-k->err));
			continue;
		}
		b = median(k->base, rounds);
		w = median(k->with, rounds);
		printf("attachcost kind=%s n=%lu rounds=%lu base_ns=%.1f with_ns=%.1f cost_ns=%.1f hits_ok=%d\n",
		       k->name, n, rounds, b, w, w - b, k->hits_ok);
	}
	attachcost__destroy(skel);
	return 0;
}
