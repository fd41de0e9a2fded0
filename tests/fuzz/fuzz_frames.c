// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the binary stream's decoder (frame.c, record.c), then the stream's reader. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "frame.h"

static void to_text(void *ctx, const char *s, size_t n)
{
	fwrite(s, 1, n, ctx);
	fputc('\n', ctx);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct boot_data *b = boot_data__new("fuzz");
	struct frame_stats st;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f) {
		frame__decode(data, size, to_text, f, &st);
		if (!fclose(f))
			boot_data__parse_events(b, text, len, "fuzz.port");
	}
	free(text);
	boot_data__free(b);
	return 0;
}
