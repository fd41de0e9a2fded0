/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event port's bytes as QEMU wrote them (events.port) become the boot's
 * events.jsonl: a binary stream (probetrace --binary) is decoded by
 * probetrace's own decoder (frame.h), JSON Lines are kept as they came.
 */
#ifndef BOOTPROBE_PORT_H
#define BOOTPROBE_PORT_H

#include <stdbool.h>

#include "frame.h"

/* QEMU's file for the port, in the boot folder. */
#define PORT_FILE	"events.port"

struct port_stats {
	bool binary;		/* the port carried frames */
	struct frame_stats fs;	/* what the decoder read, refused, skipped */
};

/*
 * @dir/events.port to @dir/events.jsonl; the port file is removed once
 * decoded whole, kept beside when any frame was refused, skipped or cut.
 * 0 (also when the guest wrote nothing), or -errno.
 */
int port__to_events(const char *dir, struct port_stats *ps);

/* Something of the stream was lost in decoding. */
static inline bool port_stats__damaged(const struct port_stats *ps)
{
	return ps->fs.refused || ps->fs.skipped_bytes || ps->fs.cut_bytes;
}

#endif
