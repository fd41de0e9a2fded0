// SPDX-License-Identifier: GPL-2.0
/*
 * storm: a synthetic event storm for the probetrace collector.
 *
 * Sends itself N SIGUSR1 with the signal ignored: each kill() is exactly
 * one signal:signal_generate (result "ignored", never delivered, so no
 * signal_deliver), i.e. exactly one collector record per iteration.  It
 * prints how long the N kills took; run with and without the collector,
 * the difference per iteration is the collector's cost per event.
 *
 * With "rt:N" it runs as SCHED_FIFO: on a one-CPU guest the collector
 * (SCHED_OTHER) cannot run during the loop, so the time is the BPF side
 * alone (program, ring buffer reservation, wake-up), as long as N records
 * fit in the ring buffer; plain N includes the collector's user-space work.
 *
 * usage: storm [rt:]N
 * output: "n=N pid=PID sig=10 rt=0|1 elapsed_ns=T per_iter_ns=X" on stdout
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>

#include "clock.h"

static int parse_count(const char *s, unsigned long *n)
{
	char *end;

	errno = 0;
	*n = strtoul(s, &end, 10);
	return errno || end == s || *end || *n == 0 ? -EINVAL : 0;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 50 };
	unsigned long n, i;
	uint64_t t0, t1;
	pid_t self = getpid();
	const char *arg = argc == 2 ? argv[1] : "";
	int rt = !strncmp(arg, "rt:", 3);

	if (argc != 2 || parse_count(arg + (rt ? 3 : 0), &n)) {
		fprintf(stderr, "usage: storm [rt:]N   (N > 0 signals to itself)\n");
		return 2;
	}
	if (rt && sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "storm: SCHED_FIFO: %s\n", strerror(errno));
		return 1;
	}
	/* Ignored: generated and traced, then dropped by the kernel. */
	if (signal(SIGUSR1, SIG_IGN) == SIG_ERR) {
		fprintf(stderr, "storm: SIGUSR1: %s\n", strerror(errno));
		return 1;
	}
	t0 = mono_ns();
	for (i = 0; i < n; i++) {
		if (kill(self, SIGUSR1)) {
			fprintf(stderr, "storm: kill %lu of %lu: %s\n", i + 1,
				n, strerror(errno));
			return 1;
		}
	}
	t1 = mono_ns();
	printf("n=%lu pid=%d sig=%d rt=%d elapsed_ns=%llu per_iter_ns=%.1f\n",
	       n, (int)self, SIGUSR1, rt, (unsigned long long)(t1 - t0),
	       (double)(t1 - t0) / n);
	return 0;
}
