// SPDX-License-Identifier: GPL-2.0
/* The kernel log's records and the printk clock's offset (kmsg.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "kmsg.h"

#define MAX_SAMPLES 8

bool kmsg__parse(const char *rec, uint64_t *ts_us, const char **msg)
{
	unsigned long long us;
	const char *semi = strchr(rec, ';');
	int n = 0;

	if (!semi || sscanf(rec, "%*u,%*u,%llu%n", &us, &n) != 1 || n <= 0 ||
	    (rec[n] != ',' && rec[n] != ';'))
		return false;
	*ts_us = us;
	*msg = semi + 1;
	return true;
}

/* The printk time (ns) of our line "@tag @i", read from @fd; 0 if not found. */
static uint64_t read_back(int fd, const char *tag, int i)
{
	char rec[1024], want[96];
	const char *msg;
	uint64_t us;
	ssize_t len;

	snprintf(want, sizeof(want), "%s %d\n", tag, i);
	while ((len = read(fd, rec, sizeof(rec) - 1)) > 0) {
		rec[len] = '\0';
		if (kmsg__parse(rec, &us, &msg) && !strncmp(msg, want, strlen(want)))
			return us * 1000;
	}
	return 0;
}

int kmsg__offset(const char *tag, int n, struct kmsg_offset *o)
{
	int w = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	int r = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	uint64_t before, after, p;
	char line[96];
	int err = 0, i;

	memset(o, 0, sizeof(*o));
	if (w < 0 || r < 0) {
		err = -errno;
		goto out;
	}
	lseek(r, 0, SEEK_END);		/* only what we write from here on */
	for (i = 0; i < n && i < MAX_SAMPLES; i++) {
		snprintf(line, sizeof(line), "%s %d\n", tag, i);
		before = boot_ns();
		if (write(w, line, strlen(line)) < 0) {
			err = -errno;
			goto out;
		}
		after = boot_ns();
		p = read_back(r, tag, i);
		if (!p)
			continue;
		/*
		 * The stamp was taken between before and after, and printed
		 * truncated to the us: the offset is in [p - after,
		 * p + 1000 - before].  Keep the narrowest.
		 */
		if (!o->samples++ || (int64_t)(after - before + 1000) / 2 < o->error_ns) {
			o->error_ns = (after - before + 1000) / 2;
			o->offset_ns = (int64_t)p + 500 - (int64_t)(before + after) / 2;
		}
	}
	if (!o->samples)
		err = -ENOENT;
out:
	if (w >= 0)
		close(w);
	if (r >= 0)
		close(r);
	return err;
}
