// SPDX-License-Identifier: GPL-2.0
/*
 * The report as a document (doc.h): calls gather a block's spans; a block
 * is handed whole to report.md's writer and report.html's when the next
 * one starts, so that each sees the same blocks and escapes for itself.
 */
#define _GNU_SOURCE
#include "charts.h"
#include "doc.h"
#include "doc_writer.h"
#include "util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct doc {
	struct out_file md_out, html_out;
	struct md_writer md;
	struct html_writer html;
	struct doc_block cur;
	bool open;		/* cur holds a block not yet written */
};

struct doc *doc__open(int dirfd, const char *dir)
{
	struct doc *d = xcalloc(1, sizeof(*d));

	d->md.f = out_file__open_at(&d->md_out, dirfd, dir, "report.md");
	d->html.f = out_file__open_at(&d->html_out, dirfd, dir, "report.html");
	d->html.dirfd = dirfd;
	html_writer__begin(&d->html);
	return d;
}

/* The current block to both writers, then forgotten. */
static void doc__flush(struct doc *d)
{
	if (!d->open)
		return;
	md_writer__block(&d->md, &d->cur);
	html_writer__block(&d->html, &d->cur);
	for (size_t i = 0; i < d->cur.n; i++)
		free(d->cur.spans[i].text);
	free(d->cur.spans);
	memset(&d->cur, 0, sizeof(d->cur));
	d->open = false;
}

int doc__close(struct doc *d, const char *who)
{
	int err;

	doc__flush(d);
	md_writer__end(&d->md);
	html_writer__end(&d->html);
	err = out_file__commit(&d->md_out, who);
	err |= out_file__commit(&d->html_out, who);
	free(d);
	return err;
}

static void doc__begin(struct doc *d, enum doc_block_kind kind, int level)
{
	doc__flush(d);
	d->cur.kind = kind;
	d->cur.level = level;
	d->open = true;
}

/* A span of the current block; @text is taken over (NULL for a cell). */
static void doc__push(struct doc *d, enum doc_span_kind kind, char *text)
{
	struct doc_span *s;

	/* Nothing to show: the writers never see an empty span of text. */
	if (text && !*text && (kind == DOC_TEXT || kind == DOC_NAME)) {
		free(text);
		return;
	}
	s = ARRAY_PUSH(d->cur.spans, d->cur.n);
	s->kind = kind;
	s->text = text;
}

void doc__heading(struct doc *d, int level)
{
	doc__begin(d, DOC_HEADING, level);
}

void doc__para(struct doc *d)
{
	doc__begin(d, DOC_PARA, 0);
}

void doc__item(struct doc *d, int depth)
{
	doc__begin(d, DOC_ITEM, depth);
}

void doc__table(struct doc *d)
{
	doc__begin(d, DOC_HEAD, 0);
}

void doc__row(struct doc *d)
{
	doc__begin(d, DOC_ROW, 0);
}

void doc__cell(struct doc *d)
{
	doc__push(d, DOC_CELL, NULL);
}

void doc__code_block(struct doc *d, const char *text)
{
	doc__begin(d, DOC_PRE, 0);
	doc__push(d, DOC_CODE, xstrdup(text));
}

void doc__chart(struct doc *d, const char *name)
{
	for (int i = 0; chart_names[i]; i++)
		if (!strcmp(name, chart_names[i])) {
			doc__begin(d, DOC_CHART, 0);
			doc__push(d, DOC_NAME, xstrdup(name));
			return;
		}
}

void doc__details(struct doc *d)
{
	doc__begin(d, DOC_DETAILS, 0);
}

/* Whether @c may stand beside a word of printf's: a letter, digit, '_' or '.'. */
static bool word_byte(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/*
 * The program's own words with a number printf wrote as nan or inf (a
 * median of nothing, a ratio over zero): each such number, its sign too,
 * becomes "-", as fmt() shows no number.  No report prints inf or nan.
 */
static void no_nonfinite(char *s)
{
	for (char *p = s; *p; p++) {
		char *w = p + (*p == '-' || *p == '+');
		size_t n;

		if ((strncmp(w, "nan", 3) && strncmp(w, "inf", 3)) || (p > s && word_byte(p[-1])))
			continue;
		n = w - p + 3;
		if (word_byte(p[n]) && strncmp(p + n, "inity", 5))
			continue;
		if (!strncmp(p + n, "inity", 5))
			n += 5;
		*p = '-';
		memmove(p + 1, p + n, strlen(p + n) + 1);
	}
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	no_nonfinite(s);
	return s;
}

void doc__text(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	doc__push(d, DOC_TEXT, vformat(fmt, ap));
	va_end(ap);
}

void doc__name(struct doc *d, const char *s)
{
	doc__push(d, DOC_NAME, xstrdup(s));
}

void doc__bold(struct doc *d, const char *s)
{
	doc__push(d, DOC_BOLD, xstrdup(s));
}

void doc__em(struct doc *d, const char *s)
{
	doc__push(d, DOC_EM, xstrdup(s));
}

void doc__code(struct doc *d, const char *s)
{
	doc__push(d, DOC_CODE, xstrdup(s));
}

void doc__cellf(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	doc__cell(d);
	va_start(ap, fmt);
	doc__push(d, DOC_TEXT, vformat(fmt, ap));
	va_end(ap);
}

void doc__cell_name(struct doc *d, const char *s)
{
	doc__cell(d);
	doc__name(d, s);
}
