// SPDX-License-Identifier: GPL-2.0
/*
 * The binary event stream read back (probetrace --binary, frame.h): the
 * samples come out as the JSON records the collector would have written,
 * and a damaged stream (bytes between frames, a sample of a bad size, a
 * newline in a JSON frame, a cut last frame) is counted, never crashes.
 * Then the runner's side (port.h): JSON Lines on the port are kept as they
 * came, frames are decoded, a damaged stream's port file is kept.
 */
#include "check.h"
#include "frame.h"
#include "port.h"
#include "record.h"
#include "util.h"

#include <json-c/json.h>
#include <linux/types.h>
#include <stdlib.h>
#include <unistd.h>

#include "probetrace.h"

static char tmpdir[] = "/tmp/bootprobe-test-frames.XXXXXX";

struct lines {
	int n;
	char *v[16];
};

static void collect(void *ctx, const char *s, size_t n)
{
	struct lines *l = ctx;

	if (l->n < 16)
		l->v[l->n++] = xasprintf("%.*s", (int)n, s);
}

static void lines__free(struct lines *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	l->n = 0;
}

/* A stream in memory, frame by frame. */
struct stream {
	char buf[16384];
	size_t len;
};

static void put(struct stream *s, const void *p, size_t n)
{
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

static void put_frame(struct stream *s, enum pt_frame_kind kind, const void *p, size_t n)
{
	struct pt_frame f = frame__header(kind, n);

	put(s, &f, sizeof(f));
	put(s, p, n);
}

static void put_json(struct stream *s, const char *line)
{
	put_frame(s, PT_FRAME_JSON, line, strlen(line));
}

static struct pt_probe probe_sample(void)
{
	struct pt_probe e = {
		.hdr = { .type = PT_PROBE, .ts_ns = 5000000000ULL, .pid = 38, .tgid = 38,
			 .comm = "(udev-worker)" },
		.start_ns = 3000000000ULL, .dev = 0xffff888000438000ULL, .ret = -4,
		.driver = "slowprobe", .device = "0000:00:03.0", .bus = "pci",
		.owner = "slowprobe",
		.origin = { .kind = PT_ORIGIN_MODULE_LOAD, .pid = 38,
			    .comm = "(udev-worker)", .module = "slowprobe" },
	};
	return e;
}

static struct pt_signal signal_sample(void)
{
	struct pt_signal e = {
		.hdr = { .type = PT_SIGNAL_GENERATE, .ts_ns = 6000000000ULL, .pid = 30,
			 .tgid = 30, .comm = "systemd-udevd" },
		.sig = 9, .target_pid = 38, .target_tgid = 38, .target_comm = "(udev-worker)",
	};
	return e;
}

/* record.c's own JSON for a sample: what the collector writes as JSON Lines. */
static char *as_json(const void *sample, size_t size)
{
	json_object *o = record__from_event(sample, size, NULL);
	char *s = xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							 JSON_C_TO_STRING_NOSLASHESCAPE));

	json_object_put(o);
	return s;
}

static const char header[] = "{\"type\":\"header\",\"schema\":1,\"tool\":\"probetrace\"}";
static const char trailer[] = "{\"type\":\"trailer\",\"events_written\":2}";

static void whole_stream(void)
{
	struct pt_probe p = probe_sample();
	struct pt_signal sg = signal_sample();
	char *want_p = as_json(&p, sizeof(p)), *want_s = as_json(&sg, PT_SIGNAL_SHORT);
	struct stream s = { .len = 0 };
	struct lines l = { 0 };
	struct frame_stats st;

	put_json(&s, header);
	put_frame(&s, PT_FRAME_SAMPLE, &p, sizeof(p));
	/* An odd offset: the decoder must not read a sample in place. */
	put_frame(&s, PT_FRAME_JSON, "{}", 1);
	put_frame(&s, PT_FRAME_SAMPLE, &sg, PT_SIGNAL_SHORT);
	put_json(&s, trailer);
	CHECK(frame__is_stream(s.buf, s.len), "a stream of frames is told from JSON Lines");
	CHECK(!frame__is_stream(header, strlen(header)), "JSON Lines are not taken for frames");
	CHECK(!frame__decode(s.buf, s.len, collect, &l, &st), "a whole stream decodes");
	CHECK(l.n == 5 && st.frames == 5 && st.samples == 2 && st.json == 3,
	      "5 frames, 2 samples and 3 JSON lines (got %d lines, %llu frames)", l.n,
	      (unsigned long long)st.frames);
	CHECK(!st.refused && !st.skipped_bytes && !st.cut_bytes, "nothing refused, skipped or cut");
	if (l.n == 5) {
		CHECK_STR(l.v[0], header, "a JSON frame comes out as it went in");
		CHECK_STR(l.v[1], want_p, "a probe sample comes out as the collector's own JSON");
		CHECK_STR(l.v[2], "{", "a JSON frame's bytes are its payload, no more");
		CHECK_STR(l.v[3], want_s, "a short signal sample comes out as the collector's JSON");
		CHECK(strstr(l.v[1], "\"probe_error\":-4") && strstr(l.v[1], "\"driver\":\"slowprobe\""),
		      "the probe's fields are there: driver, error");
	}
	lines__free(&l);
	free(want_p);
	free(want_s);
}

static void damaged_stream(void)
{
	struct pt_probe p = probe_sample(), bad = probe_sample();
	struct stream s = { .len = 0 };
	struct lines l = { 0 };
	struct frame_stats st;
	struct pt_frame huge = frame__header(PT_FRAME_SAMPLE, PT_FRAME_MAX + 1);
	struct pt_frame long_one = frame__header(PT_FRAME_JSON, PT_FRAME_MAX);

	bad.hdr.type = PT_TYPE_MAX + 7;
	put_json(&s, header);
	put(&s, "garbage", 7);
	put_frame(&s, PT_FRAME_SAMPLE, &p, sizeof(p));
	put_frame(&s, PT_FRAME_SAMPLE, &p, sizeof(p.hdr));	/* too short for a probe */
	put_frame(&s, PT_FRAME_SAMPLE, &bad, sizeof(bad));	/* no such type */
	put_json(&s, "{\"a\":1}\n{\"b\":2}");		/* two lines in one frame */
	put(&s, &huge, sizeof(huge));			/* longer than a frame may be */
	put(&s, &long_one, sizeof(long_one));		/* past the stream's end */
	put_json(&s, trailer);
	put_frame(&s, PT_FRAME_SAMPLE, &p, sizeof(p));
	s.len -= 10;					/* the last frame cut */
	CHECK(!frame__decode(s.buf, s.len, collect, &l, &st), "a damaged stream decodes");
	CHECK(l.n == 3, "what is whole comes out: header, probe, trailer (%d lines)", l.n);
	CHECK(st.skipped_bytes == 7 + 2 * sizeof(huge),
	      "the bytes between frames are counted: 7 of garbage, a header too long and "
	      "one whose frame would run past the end, with the frames after it read "
	      "(%llu)", (unsigned long long)st.skipped_bytes);
	CHECK(st.refused == 3, "a short sample, an unknown type and a two-line JSON frame "
	      "are refused (%llu)", (unsigned long long)st.refused);
	CHECK(st.cut_bytes == sizeof(struct pt_frame) + sizeof(p) - 10,
	      "the last frame cut short is counted in bytes (%llu)",
	      (unsigned long long)st.cut_bytes);
	lines__free(&l);
}

static char *tmp_path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static void write_port(const void *buf, size_t len)
{
	char *path = tmp_path(PORT_FILE);

	write_file_atomic(path, buf, len);
	free(path);
}

static char *read_tmp(const char *name)
{
	char *path = tmp_path(name), *text = read_file(path, NULL);

	free(path);
	return text;
}

static bool tmp_exists(const char *name)
{
	char *path = tmp_path(name);
	bool there = path_exists(path);

	free(path);
	return there;
}

static void port_files(void)
{
	static const char jsonl[] = "{\"type\":\"header\"}\n{\"type\":\"trailer\"}\n";
	struct pt_probe p = probe_sample();
	struct stream s = { .len = 0 };
	struct port_stats ps;
	char *text, *want, *rec = as_json(&p, sizeof(p)), *port = tmp_path(PORT_FILE);

	write_port(jsonl, strlen(jsonl));
	CHECK(!port__to_events(tmpdir, &ps) && !ps.binary, "JSON Lines on the port: not binary");
	text = read_tmp("events.jsonl");
	CHECK_STR(text, jsonl, "JSON Lines are kept as they came");
	CHECK(!tmp_exists(PORT_FILE), "and the port file is gone");
	free(text);

	put_json(&s, header);
	put_frame(&s, PT_FRAME_SAMPLE, &p, sizeof(p));
	write_port(s.buf, s.len);
	CHECK(!port__to_events(tmpdir, &ps) && ps.binary && ps.fs.samples == 1,
	      "frames on the port are decoded");
	text = read_tmp("events.jsonl");
	want = xasprintf("%s\n%s\n", header, rec);
	CHECK_STR(text, want, "events.jsonl holds one line per frame");
	CHECK(!tmp_exists(PORT_FILE), "a stream decoded whole leaves no port file");
	free(text);
	free(want);

	write_port(s.buf, s.len - 3);
	CHECK(!port__to_events(tmpdir, &ps) && port_stats__damaged(&ps) && ps.fs.cut_bytes,
	      "a cut stream is decoded and said to be damaged");
	CHECK(tmp_exists(PORT_FILE), "its port file is kept beside events.jsonl");

	unlink(port);
	CHECK(!port__to_events(tmpdir, &ps) && !ps.binary, "no port file (no collector): nothing to do");
	free(port);
	free(rec);
}

/*
 * A probe made while a module's init ran: the initcall is named as the
 * kernel printed it then (%pS in BPF), never from kallsyms read later,
 * when the module's init text is freed and another module's may lie at
 * the same address (7.3: a usb hub's probe in xhci_pci's init came out as
 * "virtio_blk_init").  A kallsyms file that names the address wrongly
 * stands for that later read: it must not be read at all.
 */
static void initcall_named_then(void)
{
	struct pt_probe p = probe_sample();
	char *path = xasprintf("%s/kallsyms", tmpdir), *js;
	struct symbolizer sym = { .path = path, .fd = -1 };
	FILE *f = fopen(path, "w");
	json_object *o;

	if (f) {
		fprintf(f, "ffffffff81000000 T _stext\nffffffff82000000 T _etext\n"
			   "ffffffffc0a00000 t virtio_blk_init\t[virtio_blk]\n");
		fclose(f);
	}
	p.origin.kind = PT_ORIGIN_INITCALL;
	p.origin.module[0] = '\0';
	p.origin.initcall_fn = 0xffffffffc0a00000ULL;
	snprintf(p.origin.initcall_sym, sizeof(p.origin.initcall_sym),
		 "xhci_pci_init+0x0/0x1000 [xhci_pci]");
	o = record__from_event(&p, sizeof(p), &sym);
	js = xstrdup(o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : "");
	CHECK(strstr(js, "\"initcall\":\"xhci_pci_init+0x0 [xhci_pci]\""),
	      "a module's initcall is named as the kernel printed it during the probe (%s)", js);
	CHECK(sym.loads == 0, "kallsyms is not read for it (%llu reads)",
	      (unsigned long long)sym.loads);
	json_object_put(o);
	symbolizer__free(&sym);
	free(js);
	free(path);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("not ok - a temporary folder is made\n");
		return 1;
	}
	whole_stream();
	damaged_stream();
	port_files();
	initcall_named_then();
	{
		char *cmd = getenv("KEEP") ? xstrdup("true") : xasprintf("rm -rf '%s'", tmpdir);

		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
		free(cmd);
	}
	CHECK_DONE();
}
