// SPDX-License-Identifier: GPL-2.0
/*
 * Work that must grow no faster than the input, counted, not timed: the
 * hash index (keymap.h), the time-sorted groups a boot's look-ups go
 * through (bootindex.h, each answer checked against a scan of the records),
 * and the matching of signals to their delivery and their target's exit
 * (boot.c), whose steps are counted on a stream made to be the worst case
 * for a scan: 20011 SIGKILLs to one task, each exit before them first.
 */
#include "check.h"
#include "bootindex.h"
#include "keymap.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 20011	/* a prime: no count here comes out right by accident */

static void test_keymap(void)
{
	struct keymap m = { 0 };
	char key[32];
	int wrong = 0;

	for (int i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "driver-%d", i);
		wrong += keymap__put_str(&m, key, i) != i;
	}
	for (int i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "driver-%d", i);
		wrong += keymap__put_str(&m, key, -5) != i || keymap__get_str(&m, key) != i;
	}
	CHECK(m.n == N && !wrong, "keymap: %d names put, each found under its own value, none "
	      "replaced (%d wrong)", N, wrong);
	CHECK(keymap__get_str(&m, "driver-") < 0 && keymap__get_str(&m, "driver-20011") < 0 &&
	      keymap__get(&m, "driver-1", 8) < 0, "keymap: a name not put is not found (a "
	      "prefix, one past the last, the bytes without their NUL)");
	CHECK(2 * m.n <= m.cap, "keymap: at most half full (%zu of %zu slots)", m.n, m.cap);
	keymap__free(&m);
}

/* Records for the tindex check: a key (0..5, 6 = left out) and a time each. */
struct rec {
	int key;
	int64_t t;
};

static size_t rec_key(const void *ctx, int i, char *buf, size_t cap)
{
	const struct rec *r = ctx;

	return r[i].key == 6 ? 0 : key_pid(buf, cap, r[i].key);
}

static int64_t rec_time(const void *ctx, int i)
{
	return ((const struct rec *)ctx)[i].t;
}

/* The answers by a scan, as the look-ups were written before the index. */
static int scan_first_from(const struct rec *r, int n, int key, int64_t ts)
{
	for (int i = 0; i < n; i++)
		if (r[i].key == key && r[i].t >= ts)
			return i;
	return -1;
}

static int scan_latest_before(const struct rec *r, int n, int key, int64_t ts, bool incl)
{
	int best = -1;

	for (int i = 0; i < n; i++)
		if (r[i].key == key && (r[i].t < ts || (incl && r[i].t == ts)) &&
		    (best < 0 || r[i].t > r[best].t))
			best = i;
	return best;
}

static int scan_earliest_from(const struct rec *r, int n, int key, int64_t ts)
{
	int best = -1;

	for (int i = 0; i < n; i++)
		if (r[i].key == key && r[i].t >= ts && (best < 0 || r[i].t < r[best].t))
			best = i;
	return best;
}

static void test_tindex(void)
{
	enum { RECS = 997 };
	struct rec *r = xcalloc(RECS, sizeof(*r));
	struct tindex x;
	int wrong = 0, asked = 0;
	char key[8];

	srand(23);
	for (int i = 0; i < RECS; i++)
		r[i] = (struct rec){ rand() % 7, rand() % 50 };
	tindex__build(&x, RECS, r, rec_key, rec_time);
	for (int k = 0; k < 7; k++)
		for (int64_t ts = -1; ts <= 51; ts++) {
			size_t len = key_pid(key, sizeof(key), k);
			int want = k == 6 ? -1 : scan_first_from(r, RECS, k, ts);

			wrong += tindex__first_from(&x, key, len, ts) != want;
			want = k == 6 ? -1 : scan_latest_before(r, RECS, k, ts, false);
			wrong += tindex__latest_before(&x, key, len, ts, false) != want;
			want = k == 6 ? -1 : scan_latest_before(r, RECS, k, ts, true);
			wrong += tindex__latest_before(&x, key, len, ts, true) != want;
			want = k == 6 ? -1 : scan_earliest_from(r, RECS, k, ts);
			wrong += tindex__earliest_from(&x, key, len, ts) != want;
			asked += 4;
		}
	CHECK(!wrong, "tindex: %d look-ups over %d records in 6 groups give what a scan of the "
	      "records gives (%d differ)", asked, RECS, wrong);
	tindex__free(&x);
	free(r);
}

/* The worst case for a scan: every signal to one task, then records that match none. */
static char *signal_stream(size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	fprintf(f, "{\"type\":\"header\",\"schema\":1}\n");
	for (int i = 0; i < N; i++)
		fprintf(f, "{\"type\":\"signal_generate\",\"ts_ns\":%d,\"sig\":9,\"pid\":3,"
			"\"comm\":\"systemd-udevd\",\"target\":{\"pid\":7,\"comm\":\"w\"}}\n",
			1000000 + i);
	/* Exits of the task before any of them: a scan visits every signal each time. */
	for (int i = 0; i < N; i++)
		fprintf(f, "{\"type\":\"exit\",\"ts_ns\":%d,\"pid\":7,\"exit_code\":0}\n", i);
	/* Deliveries of another signal: none of these matches either. */
	for (int i = 0; i < N; i++)
		fprintf(f, "{\"type\":\"signal_deliver\",\"ts_ns\":%d,\"pid\":7,\"sig\":15,"
			"\"handler\":\"default\"}\n", 2000000 + i);
	/* Then the one delivery and the one exit that end them all. */
	fprintf(f, "{\"type\":\"signal_deliver\",\"ts_ns\":3000000,\"pid\":7,\"sig\":9,"
		"\"handler\":\"default\"}\n");
	fprintf(f, "{\"type\":\"exit\",\"ts_ns\":3000001,\"pid\":7,\"exit_code\":9}\n");
	fprintf(f, "{\"type\":\"trailer\",\"events_written\":1}\n");
	fclose(f);
	return text;
}

static void test_signal_matching(void)
{
	struct boot_data *b = boot_data__new("scale");
	size_t len;
	char *text = signal_stream(&len);
	int delivered = 0, exited = 0;

	boot_data__parse_events(b, text, len, "scale.jsonl");
	for (int i = 0; i < b->nr_kills; i++) {
		delivered += b->kills[i].delivered_ns == 3000000;
		exited += b->kills[i].exit_ns == 3000001 && b->kills[i].exit_code == 9;
	}
	CHECK(b->nr_kills == N && delivered == N && exited == N,
	      "signals: %d SIGKILLs kept, %d delivered and %d ended by the one exit that "
	      "follows them (want %d each)", b->nr_kills, delivered, exited, N);
	/* A scan: 2N records x N signals = 800 million steps; the index: one per signal each. */
	CHECK(b->signal_match_steps <= 2 * (uint64_t)N,
	      "signals: %llu matching steps for %d signals and %d exit and delivery records "
	      "(at most %d: one per signal for its delivery and one for its exit)",
	      (unsigned long long)b->signal_match_steps, N, 2 * N + 2, 2 * N);
	free(text);
	boot_data__free(b);
}

int main(void)
{
	test_keymap();
	test_tindex();
	test_signal_matching();
	CHECK_DONE();
}
