/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny TAP-like checker: one line per check, "ok - what it proves" or
 * "not ok - what : where", counted by tests/run.sh.
 */
#ifndef BOOTPROBE_CHECK_H
#define BOOTPROBE_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failed;

/* @cond is evaluated once: a check with side effects counts what it printed. */
#define CHECK(cond, ...)						\
	do {								\
		int ok_ = !!(cond);					\
		printf(ok_ ? "ok - " : "not ok - ");			\
		check_failed += !ok_;					\
		printf(__VA_ARGS__);					\
		if (!ok_)						\
			printf(" : %s:%d: %s", __FILE__, __LINE__, #cond); \
		printf("\n");						\
	} while (0)

#define CHECK_STR(got, want, ...)					\
	do {								\
		const char *g_ = (got), *w_ = (want);			\
		int same_ = g_ && w_ ? !strcmp(g_, w_) : g_ == w_;	\
		CHECK(same_, __VA_ARGS__);				\
		if (!same_)						\
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", \
			       w_ ? w_ : "(null)");			\
	} while (0)

#define CHECK_DONE() return check_failed ? 1 : 0

#endif
