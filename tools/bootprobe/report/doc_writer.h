/* SPDX-License-Identifier: GPL-2.0 */
/* The writers behind doc.h: a whole block at a time, report.md's and report.html's. */
#ifndef BOOTPROBE_DOC_WRITER_H
#define BOOTPROBE_DOC_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum doc_block_kind {
	DOC_HEADING,	/* level 1..3 */
	DOC_PARA,
	DOC_ITEM,	/* level: the depth */
	DOC_HEAD,	/* a table's header row */
	DOC_ROW,	/* one of its rows */
	DOC_PRE,	/* one span: the text */
	DOC_CHART,	/* one span: a name of chart_names */
	DOC_DETAILS,
};

enum doc_span_kind {
	DOC_TEXT,	/* the program's words */
	DOC_NAME,	/* not ours: escaped as data */
	DOC_BOLD,
	DOC_EM,
	DOC_CODE,
	DOC_CELL,	/* a row's next cell starts (no text) */
};

struct doc_span {
	enum doc_span_kind kind;
	char *text;
};

struct doc_block {
	enum doc_block_kind kind;
	int level;
	struct doc_span *spans;
	size_t n;
};

/* report.md */
struct md_writer {
	FILE *f;
	bool started;
	enum doc_block_kind prev;
};

void md_writer__block(struct md_writer *w, const struct doc_block *b);
void md_writer__end(struct md_writer *w);

/* report.html */
struct html_writer {
	FILE *f;
	int dirfd;		/* charts/NAME.svg are read beneath it */
	bool in_table;
	bool details;		/* past DOC_DETAILS: each level-2 section folds */
	bool in_details;	/* a <details> is open */
};

void html_writer__begin(struct html_writer *w);
void html_writer__block(struct html_writer *w, const struct doc_block *b);
void html_writer__end(struct html_writer *w);

#endif
