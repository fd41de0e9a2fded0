/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The binary event stream (probetrace --binary): each ring buffer sample as
 * the BPF programs wrote it (struct pt_hdr first, bpf/probetrace.h), or a
 * record the collector had to build itself as one JSON line, each behind a
 * frame header.  The guest then formats nothing on its hot path; whoever
 * reads the stream (probetrace --input, bootprobe run) turns it into the
 * JSON Lines of docs/events.md with the same record.c.
 *
 * The stream is untrusted: a frame with a bad header is skipped byte by
 * byte up to the next magic, a sample of a bad size is refused, a frame cut
 * short at the end is counted; nothing is dropped without a count.
 */
#ifndef PROBETRACE_FRAME_H
#define PROBETRACE_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PT_FRAME_MAGIC	0x46425450u	/* "PTBF", little-endian */
/*
 * Payload bytes.  A sample is < 4 KiB; the largest JSON record is an
 * attachment: PT_ATTACH_MAX_BYTES of text, escaped (at most 6 bytes a byte).
 */
#define PT_FRAME_MAX	(8u << 20)

enum pt_frame_kind {
	PT_FRAME_SAMPLE = 1,	/* a ring buffer sample, as it came */
	PT_FRAME_JSON,		/* one JSON record, without its newline */
};

struct pt_frame {
	uint32_t magic;		/* PT_FRAME_MAGIC */
	uint16_t kind;		/* enum pt_frame_kind */
	uint16_t reserved;	/* 0 */
	uint32_t len;		/* payload bytes after this header */
};

struct frame_stats {
	uint64_t frames;	/* whole frames read */
	uint64_t samples;	/* of them, samples decoded */
	uint64_t json;		/* of them, JSON lines */
	uint64_t refused;	/* frames whose payload was refused */
	uint64_t skipped_bytes;	/* bytes between frames that were no frame */
	uint64_t cut_bytes;	/* a last frame cut short */
};

/* True if @buf (@len bytes) starts with a frame header: a binary stream. */
bool frame__is_stream(const void *buf, size_t len);

/*
 * Every frame of @buf, as one JSON line each (no newline, not
 * NUL-terminated) to @line; records are formatted by record.c without
 * kallsyms (an address the kernel did not print stays hex).  @st is
 * filled; returns 0, or -ENOMEM.
 */
int frame__decode(const void *buf, size_t len,
		  void (*line)(void *ctx, const char *s, size_t n), void *ctx,
		  struct frame_stats *st);

/* A frame header for @len payload bytes of @kind. */
static inline struct pt_frame frame__header(enum pt_frame_kind kind, size_t len)
{
	struct pt_frame f = {
		.magic = PT_FRAME_MAGIC, .kind = kind, .len = (uint32_t)len,
	};
	return f;
}

#endif
