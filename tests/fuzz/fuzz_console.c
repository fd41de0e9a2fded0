// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the console and kernel-log reader (a boot's console.log,
 * an imported boot's kernel log) as a boot folder's is read, NUL bytes and
 * all, after a stream whose header sets printk's offset; then what is built
 * on its marks and lines (metrics, explain, boot time).  Each line is also a
 * /dev/kmsg record for kmsg__parse().
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "boot.h"
#include "explain.h"
#include "kmsg.h"

static const char header[] =
	"{\"type\":\"header\",\"schema\":1,\"printk_offset_ns\":37000000}\n"
	"{\"type\":\"probe\",\"ts_ns\":2000000000,\"pid\":152,\"driver\":\"virtio_blk\","
	"\"device\":\"virtio2\",\"start_ns\":1500000000,\"end_ns\":2000000000,\"ret\":0}\n"
	"{\"type\":\"signal_generate\",\"ts_ns\":1800000000,\"sig\":9,\"pid\":100,"
	"\"comm\":\"systemd-udevd\",\"target\":{\"pid\":152,\"comm\":\"(udev-worker)\"}}\n"
	"{\"type\":\"trailer\",\"events_written\":3}\n";

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 1), *line, *end;
	struct boot_data *b = boot_data__new("fuzz");
	struct boot_metrics m;
	FILE *null = fopen("/dev/null", "w");

	memcpy(text, data, size);
	text[size] = '\0';
	/* Every line as a kmsg record, NUL bytes ending it as they would in C. */
	for (line = text, end = text + size; line < end;) {
		char *nl = memchr(line, '\n', end - line), *rec = strndup(line, (nl ? nl : end) - line);
		const char *msg;
		uint64_t us;

		if (rec && kmsg__parse(rec, &us, &msg) && (size_t)(msg - rec) > strlen(rec))
			abort();	/* the message lies inside the record */
		free(rec);
		line = nl ? nl + 1 : end;
	}
	boot_data__parse_events(b, header, sizeof(header) - 1, "fuzz.jsonl");
	boot_data__read_console(b, text, size, "fuzz/console.log");
	boot__metrics(b, &m);
	(void)boot_data__boot_time(b);
	if (null) {
		boot__explain(b, null);
		fclose(null);
	}
	boot_data__free(b);
	free(text);
	return 0;
}
