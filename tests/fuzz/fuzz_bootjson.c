// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a boot folder's boot.json, read as `bootprobe report`
 * and `explain` read it (boot_data__parse_boot_json(), which
 * boot_data__load() calls), then the analysis of a small recorded boot that
 * its mode, outcome, command line and wall time feed.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "explain.h"
#include "boot.h"

/* A killed probe: enough for the kill chain and the drivers at risk. */
static const char events[] =
	"{\"type\":\"header\",\"schema\":1}\n"
	"{\"type\":\"signal_generate\",\"ts_ns\":8226440602,\"pid\":139,\"comm\":\"systemd-udevd\","
	"\"sig\":9,\"result\":\"delivered\",\"target\":{\"pid\":152,\"comm\":\"(udev-worker)\"},"
	"\"target_state\":{\"module_load\":{\"name\":\"slowprobe\",\"for_ns\":3994477113},"
	"\"probe\":{\"driver\":\"slowprobe\",\"device\":\"0000:00:03.0\",\"for_ns\":3935112897}}}\n"
	"{\"type\":\"kthread_end\",\"ts_ns\":8313231406,\"pid\":152,\"comm\":\"(udev-worker)\","
	"\"caller\":\"slowprobe_probe+0x1ce [slowprobe]\",\"fatal_signal\":true,\"wait_ns\":75081,"
	"\"ret\":-4,\"probe_device\":\"0000:00:03.0\"}\n"
	"{\"type\":\"probe\",\"ts_ns\":8316051173,\"pid\":152,\"comm\":\"(udev-worker)\","
	"\"driver\":\"slowprobe\",\"device\":\"0000:00:03.0\",\"bus\":\"pci\",\"owner\":\"slowprobe\","
	"\"async\":false,\"start_ns\":4291327705,\"end_ns\":8316051173,\"ret\":4,\"probe_error\":-4,"
	"\"origin\":{\"kind\":\"module_load\",\"pid\":152,\"module\":\"slowprobe\"}}\n"
	"{\"type\":\"module_load\",\"ts_ns\":8333022076,\"pid\":152,\"name\":\"slowprobe\","
	"\"start_ns\":4231963489,\"end_ns\":8333022076,\"ret\":0}\n"
	"{\"type\":\"trailer\",\"events_written\":4,\"events_dropped\":0,\"bpf_drops\":0}\n";

static const char console[] =
	"[    3.170000] bootprobe: init start at 3.17 s\n"
	"[    3.620000] bootprobe: coldplug start at 3.62 s\n"
	"[    8.230000] systemd-udevd[139]: 0000:00:03.0: Worker [152] processing SEQNUM=1201 killed\n"
	"[   13.440000] bootprobe: coldplug done at 13.44 s\n"
	"[   13.500000] bootprobe: 0 of 1 expected devices probed at 13.50 s\n"
	"[   13.510000] bootprobe: device 0000:00:03.0 driver=none\n"
	"[   13.880000] bootprobe: BOOT-COMPLETE at 13.88 s\n";

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 1), err[512];
	struct boot_data *b = boot_data__new("fuzz");
	struct boot_metrics m;
	FILE *null = fopen("/dev/null", "w");

	memcpy(text, data, size);
	text[size] = '\0';
	if (!boot_data__parse_boot_json(b, text, size, "fuzz/boot.json", err, sizeof(err))) {
		struct json_object *o;

		boot_data__parse_console(b, console, "fuzz/console.log");
		boot_data__parse_events(b, events, strlen(events), "fuzz/events.jsonl");
		boot__metrics(b, &m);
		boot_data__boot_time(b);
		if (null)
			boot__explain(b, null);
		o = boot__explain_json(b);
		json_object_to_json_string(o);
		json_object_put(o);
	}
	if (null)
		fclose(null);
	boot_data__free(b);
	free(text);
	return 0;
}
