/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attachments: small text files a boot leaves for the host (what
 * systemd-analyze said), sent in the stream as "attachment" records just
 * before the trailer, so they travel on the same port as the events.
 */
#ifndef PROBETRACE_ATTACH_H
#define PROBETRACE_ATTACH_H

#include <stdint.h>

struct output;

#define PT_ATTACH_MAX_BYTES	(1024 * 1024)	/* per file (a kernel log); the rest is cut */
/*
 * Files per boot: finish's own (systemd-analyze's three views, uname -r,
 * the command line, the machine, the boot id, the kernel log) and, with
 * bootprobe.gather=1, bootprobe-gather's folder (13 files at most).
 */
#define PT_ATTACH_MAX_FILES	32
#define PT_ATTACH_MAX_NAME	63	/* bytes; the host keeps names of 63 */

struct attach_stats {
	uint64_t sent;		/* attachment records written */
	uint64_t skipped;	/* not a regular file, a bad name, unreadable, too many */
	uint64_t truncated;	/* sent cut at PT_ATTACH_MAX_BYTES (also in the record) */
};

/*
 * Send every regular file of the folder open at @dirfd whose name is
 * [a-z0-9._-]{1,63}, in name order, as one attachment record each.  The
 * folder is opened when the collector starts, not here: by the end of the
 * boot it may be reached by another path (initramfs-tools moves /run into
 * the real root).  0, or -errno if it cannot be read.
 */
int attach__send_dir(int dirfd, struct output *out, struct attach_stats *st);

#endif
