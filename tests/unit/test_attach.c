// SPDX-License-Identifier: GPL-2.0
/*
 * The collector's attachments (--attach-dir) in binary output, the port's
 * format: a kernel log of a few hundred KiB arrives whole, decoded by the
 * host's frame reader, and one the output cannot carry is counted as
 * skipped, never as sent.  (A 200 KiB file was once dropped silently: a
 * JSON frame held at most 64 KiB and the failed write was not looked at.)
 */
#include "check.h"
#include "attach.h"
#include "frame.h"
#include "output.h"
#include "util.h"

#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/bootprobe-test-attach.XXXXXX";

struct found {
	int records;
	size_t dmesg_bytes;	/* the text of dmesg.txt as decoded */
	int dmesg_truncated;
};

static void on_line(void *ctx, const char *s, size_t n)
{
	struct found *f = ctx;
	char *line = xasprintf("%.*s", (int)n, s);
	json_object *o = json_tokener_parse(line);
	json_object *name, *text, *cut;

	free(line);
	f->records++;
	if (o && json_object_object_get_ex(o, "name", &name) &&
	    !strcmp(json_object_get_string(name), "dmesg.txt") &&
	    json_object_object_get_ex(o, "text", &text)) {
		f->dmesg_bytes = json_object_get_string_len(text);
		f->dmesg_truncated = json_object_object_get_ex(o, "truncated", &cut) &&
				     json_object_get_boolean(cut);
	}
	json_object_put(o);
}

/* A file of @bytes bytes of kernel-log-like lines in @dir/@name. */
static void write_log(const char *dir, const char *name, size_t bytes)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	size_t n = 0;

	for (int i = 0; f && n < bytes; i++)
		n += fprintf(f, "[%5d.%06d] probe of 0000:00:%02x.0 returned 0 after %d usecs\n",
			     i / 1000, i % 1000000, i % 32, i * 7);
	if (f)
		fclose(f);
	if (f && truncate(path, bytes))
		perror(path);
	free(path);
}

/* Send @dir's files as the collector does, binary, and decode them back. */
static void send_and_decode(const char *dir, struct attach_stats *st, struct found *got,
			    struct frame_stats *fs)
{
	char *path = xasprintf("%s/port", tmpdir);
	struct output out;
	char *buf;
	size_t len = 0;
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY);

	memset(st, 0, sizeof(*st));
	memset(got, 0, sizeof(*got));
	output__open(&out, path, 0);
	out.binary = true;
	attach__send_dir(dirfd, &out, st);
	output__close(&out);
	close(dirfd);
	buf = read_file(path, &len);
	frame__decode(buf, len, on_line, got, fs);
	free(buf);
	free(path);
}

int main(void)
{
	struct attach_stats st;
	struct frame_stats fs;
	struct found got;
	char *dir;

	if (!mkdtemp(tmpdir))
		return 1;
	dir = xasprintf("%s/attach", tmpdir);
	mkdir(dir, 0700);
	write_log(dir, "dmesg.txt", 200 * 1024);
	write_log(dir, "uname-r.txt", 21);

	send_and_decode(dir, &st, &got, &fs);
	CHECK(st.sent == 2 && st.skipped == 0, "both files sent (%llu sent, %llu skipped)",
	      (unsigned long long)st.sent, (unsigned long long)st.skipped);
	CHECK(got.records == 2 && fs.refused == 0 && fs.cut_bytes == 0,
	      "both decoded on the host, none refused (%d records)", got.records);
	CHECK(got.dmesg_bytes == 200 * 1024 && !got.dmesg_truncated,
	      "a 200 KiB kernel log arrives whole (%zu bytes)", got.dmesg_bytes);

	/* Past the collector's limit: cut there, and said so. */
	write_log(dir, "dmesg.txt", PT_ATTACH_MAX_BYTES + 4096);
	send_and_decode(dir, &st, &got, &fs);
	CHECK(got.dmesg_bytes == PT_ATTACH_MAX_BYTES && got.dmesg_truncated,
	      "a log past %d bytes is cut there and marked truncated (%zu bytes)",
	      PT_ATTACH_MAX_BYTES, got.dmesg_bytes);
	CHECK(st.sent + st.skipped == 2, "every file is counted as sent or skipped");
	CHECK(st.truncated == 1, "the cut file is counted as truncated (%llu)",
	      (unsigned long long)st.truncated);

	/*
	 * finish's files and a gathered folder's (bootprobe.gather=1): 21,
	 * more than the 16 the collector once sent; 40 are cut at the limit.
	 */
	for (int i = 0; i < 40; i++) {
		char name[32];

		snprintf(name, sizeof(name), "gather.file-%02d.txt", i);
		write_log(dir, name, 100);
	}
	send_and_decode(dir, &st, &got, &fs);
	CHECK(st.sent == PT_ATTACH_MAX_FILES && st.sent >= 21 &&
	      st.skipped == 42 - PT_ATTACH_MAX_FILES,
	      "of 42 files %d are sent, the rest counted as skipped (%llu sent, %llu skipped)",
	      PT_ATTACH_MAX_FILES, (unsigned long long)st.sent, (unsigned long long)st.skipped);

	free(dir);
	CHECK_DONE();
}
