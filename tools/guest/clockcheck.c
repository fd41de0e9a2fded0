// SPDX-License-Identifier: GPL-2.0
/*
 * clockcheck: do the collector's records, the console's printk timestamps
 * and the boot-time trace share one clock?
 *
 * Each of N samples, 50 ms apart, is bracketed by two CLOCK_BOOTTIME
 * readings and holds three events: a signal to itself (SIGUSR2, ignored:
 * one signal_generate record of the collector, bpf_ktime_get_boot_ns()), a
 * line written to /dev/kmsg (its printk timestamp, local_clock()) and a
 * line written to tracefs's trace_marker (its trace clock timestamp).
 * Afterwards it reads the two back and prints one line per sample; the
 * host compares the collector's record with the bracket.
 *
 * usage: clockcheck N [TRACEFS]
 * output: "clock i=I pid=P boot_before_ns=A boot_after_ns=B mono_ns=M
 *          printk_us=K trace_us=T" (-1: not found)
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "kmsg.h"
#include "traceline.h"

#define MAX_SAMPLES 100
#define TAG "bootprobe-clock:"

struct sample {
	uint64_t before, after, mono;
	int64_t printk_us, trace_us;
};

static struct sample samples[MAX_SAMPLES];

static int write_str(const char *path, int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0) {
		fprintf(stderr, "clockcheck: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* One sample: the bracket and its three events. */
static int take(int i, int kmsg, int marker, const char *marker_path)
{
	struct sample *s = &samples[i];
	char line[64];

	snprintf(line, sizeof(line), TAG " i=%d\n", i);
	s->before = boot_ns();
	kill(getpid(), SIGUSR2);
	if (write_str("/dev/kmsg", kmsg, line) ||
	    (marker >= 0 && write_str(marker_path, marker, line)))
		return -1;
	s->mono = mono_ns();
	s->after = boot_ns();
	return 0;
}

/* "6,1234,5678901,-;bootprobe-clock: i=3": the printk time of sample 3. */
static void read_kmsg(int fd, int n)
{
	char rec[1024];
	const char *msg;
	uint64_t us;
	ssize_t len;
	int i;

	while ((len = read(fd, rec, sizeof(rec) - 1)) > 0) {
		rec[len] = '\0';
		if (kmsg__parse(rec, &us, &msg) &&
		    sscanf(msg, TAG " i=%d", &i) == 1 && i >= 0 && i < n)
			samples[i].printk_us = us;
	}
}

/* "  clockcheck-81 [000] ..... 12.345678: tracing_mark_write: bootprobe-clock: i=3" */
static void read_trace(const char *path, int n)
{
	struct traceline t;
	char line[512];
	FILE *f = fopen(path, "re");
	int i;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (traceline__parse(line, &t) &&
		    !strcmp(t.event, "tracing_mark_write") &&
		    sscanf(t.rest, TAG " i=%d", &i) == 1 && i >= 0 && i < n)
			samples[i].trace_us = t.ts_ns / 1000;
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *tracefs = argc == 3 ? argv[2] : "/sys/kernel/tracing";
	char marker_path[256], trace_path[256];
	struct timespec gap = { 0, 50 * 1000 * 1000 };
	int n, i, kmsg_w, kmsg_r, marker;
	char *end;

	n = argc >= 2 ? (int)strtol(argv[1], &end, 10) : 0;
	if (argc < 2 || argc > 3 || *end || n <= 0 || n > MAX_SAMPLES) {
		fprintf(stderr, "usage: clockcheck N [TRACEFS]   (1 <= N <= %d samples)\n",
			MAX_SAMPLES);
		return 2;
	}
	snprintf(marker_path, sizeof(marker_path), "%s/trace_marker", tracefs);
	snprintf(trace_path, sizeof(trace_path), "%s/trace", tracefs);
	signal(SIGUSR2, SIG_IGN);
	kmsg_w = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	kmsg_r = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_w < 0 || kmsg_r < 0) {
		fprintf(stderr, "clockcheck: /dev/kmsg: %s\n", strerror(errno));
		return 1;
	}
	lseek(kmsg_r, 0, SEEK_END);	/* only the records from here on */
	marker = open(marker_path, O_WRONLY | O_CLOEXEC);
	if (marker < 0)
		fprintf(stderr, "clockcheck: %s: %s (no trace times)\n",
			marker_path, strerror(errno));
	for (i = 0; i < n; i++) {
		samples[i].printk_us = samples[i].trace_us = -1;
		if (take(i, kmsg_w, marker, marker_path))
			return 1;
		nanosleep(&gap, NULL);
	}
	read_kmsg(kmsg_r, n);
	read_trace(trace_path, n);
	for (i = 0; i < n; i++)
		printf("clock i=%d pid=%d boot_before_ns=%" PRIu64 " boot_after_ns=%"
		       PRIu64 " mono_ns=%" PRIu64 " printk_us=%" PRId64
		       " trace_us=%" PRId64 "\n", i, (int)getpid(),
		       samples[i].before, samples[i].after, samples[i].mono,
		       samples[i].printk_us, samples[i].trace_us);
	return 0;
}
