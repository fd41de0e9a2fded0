// SPDX-License-Identifier: GPL-2.0
/* The event port's file to the boot's events.jsonl (port.h). */
#define _GNU_SOURCE
#include "port.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void port__line(void *ctx, const char *s, size_t n)
{
	FILE *f = ctx;

	fwrite(s, 1, n, f);
	fputc('\n', f);
}

/* @buf's frames as JSON Lines into @events; 0 or -errno. */
static int port__decode(const char *buf, size_t len, const char *events,
			struct port_stats *ps)
{
	char *text = NULL;
	size_t tlen = 0;
	FILE *f = open_memstream(&text, &tlen);
	int err;

	if (!f)
		return -errno;
	err = frame__decode(buf, len, port__line, f, &ps->fs);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (!err)
		err = write_file_atomic(events, text, tlen);
	free(text);
	return err;
}

int port__to_events(const char *dir, struct port_stats *ps)
{
	char *port = xasprintf("%s/%s", dir, PORT_FILE);
	char *events = xasprintf("%s/events.jsonl", dir);
	size_t len = 0;
	char *buf;
	int err = 0;

	memset(ps, 0, sizeof(*ps));
	buf = read_file(port, &len);
	if (!buf) {
		err = errno == ENOENT ? 0 : -errno;
		goto out;
	}
	ps->binary = frame__is_stream(buf, len);
	if (!ps->binary)
		err = rename(port, events) ? -errno : 0;
	else if (!(err = port__decode(buf, len, events, ps)) && !port_stats__damaged(ps))
		unlink(port);
	free(buf);
out:
	free(events);
	free(port);
	return err;
}
