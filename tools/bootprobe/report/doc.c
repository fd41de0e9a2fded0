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

static char *vformat(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		abort();
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
