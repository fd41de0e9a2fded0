// SPDX-License-Identifier: GPL-2.0
/*
 * report.md: the document's blocks as Markdown, a blank line between two
 * blocks but for the rows of a table and the items of a list.
 */
#include "doc_writer.h"
#include "text.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/*
 * @s as Markdown text, safe in a paragraph, a heading or a table cell: bytes
 * Markdown would act on (`*[]<>&|~\\ and _ not between two letters or digits)
 * as numeric character references; control, C1 and bidi codes as '?', and
 * what is not UTF-8 as U+FFFD (text_clean()).
 */
static void md_name(FILE *f, const char *text)
{
	char *clean = text_clean(text, strlen(text), false, NULL), *s = clean;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		bool inner = p > (const unsigned char *)s && isalnum(p[-1]) && isalnum(p[1]);

		if (strchr("`*[]<>&|~\\", *p) || (*p == '_' && !inner))
			fprintf(f, "&#%d;", *p);
		else
			fputc(*p, f);
	}
	free(clean);
}

/*
 * @s inside a Markdown code span or code block: a backtick would end it (or
 * a ``` line close the block), so it becomes '; control, C1 and bidi codes
 * become '?' (line breaks too unless @block); in a table @cell a '|' would
 * end the cell even inside the span (GFM splits the row first): "\\|".
 */
static void md_code(FILE *f, const char *text, bool block, bool cell)
{
	char *clean = text_clean(text, strlen(text), block, NULL);

	for (const char *s = clean; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '`')
			fputc('\'', f);
		else if (c == '\t' || c == '\r')
			fputc('?', f);
		else if (c == '|' && cell)
			fputs("\\|", f);
		else
			fputc(c, f);
	}
	free(clean);
}

/* The program's own words as they are, made inert (text_clean()). */
static void md_plain(FILE *f, const char *text)
{
	char *clean = text_clean(text, strlen(text), false, NULL);

	fputs(clean, f);
	free(clean);
}

/* One span; @cell: it is in a table's cell. */
static void md_span(FILE *f, const struct doc_span *s, bool cell)
{
	switch (s->kind) {
	case DOC_TEXT:
		/* The program's own words, a number or a name it formatted: inert too. */
		md_plain(f, s->text);
		break;
	case DOC_NAME:
		md_name(f, s->text);
		break;
	case DOC_BOLD:
	case DOC_EM:
		fputs(s->kind == DOC_BOLD ? "**" : "*", f);
		md_name(f, s->text);
		fputs(s->kind == DOC_BOLD ? "**" : "*", f);
		break;
	case DOC_CODE:
		fputc('`', f);
		md_code(f, s->text, false, cell);
		fputc('`', f);
		break;
	case DOC_CELL:
		break;
	}
}

static void md_spans(FILE *f, const struct doc_block *b)
{
	for (size_t i = 0; i < b->n; i++)
		md_span(f, &b->spans[i], false);
}

/* "| a | b |", an empty cell "| |"; after a header row its "|---|---|". */
static void md_row(FILE *f, const struct doc_block *b)
{
	bool in_cell = false, empty = false;
	int cells = 0;

	fputc('|', f);
	for (size_t i = 0; i < b->n; i++) {
		if (b->spans[i].kind == DOC_CELL) {
			if (in_cell)
				fputs(" |", f);
			in_cell = empty = true;
			cells++;
			continue;
		}
		if (empty)
			fputc(' ', f);
		empty = false;
		md_span(f, &b->spans[i], true);
	}
	fputs(in_cell ? " |\n" : "\n", f);
	if (b->kind != DOC_HEAD)
		return;
	fputc('|', f);
	for (int k = 0; k < cells; k++)
		fputs("---|", f);
	fputc('\n', f);
}

/* A table's rows, a list's items: one after the other, no blank line. */
static bool md_continues(enum doc_block_kind prev, enum doc_block_kind kind)
{
	return (kind == DOC_ROW && (prev == DOC_HEAD || prev == DOC_ROW)) ||
	       (kind == DOC_ITEM && prev == DOC_ITEM);
}

void md_writer__block(struct md_writer *w, const struct doc_block *b)
{
	FILE *f = w->f;

	if (w->started && !md_continues(w->prev, b->kind))
		fputc('\n', f);
	w->started = true;
	w->prev = b->kind;
	switch (b->kind) {
	case DOC_HEADING:
		fprintf(f, "%.*s ", b->level, "######");
		md_spans(f, b);
		fputc('\n', f);
		break;
	case DOC_PARA:
		md_spans(f, b);
		fputc('\n', f);
		break;
	case DOC_ITEM:
		fprintf(f, "%*s- ", 2 * b->level, "");
		md_spans(f, b);
		fputc('\n', f);
		break;
	case DOC_HEAD:
	case DOC_ROW:
		md_row(f, b);
		break;
	case DOC_PRE:
		fputs("```\n", f);
		md_code(f, b->spans[0].text, true, false);
		fputs("```\n", f);
		break;
	case DOC_CHART:
		fprintf(f, "![%s](charts/%s.svg)\n", b->spans[0].text, b->spans[0].text);
		break;
	case DOC_DETAILS:
		/* Markdown shows nothing of it; no name can make this line ('<' is escaped). */
		fputs("<!-- details -->\n", f);
		break;
	}
}

void md_writer__end(struct md_writer *w)
{
	if (w->started)
		fputc('\n', w->f);
}
