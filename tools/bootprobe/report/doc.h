/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report as a document: headings, paragraphs, list items, tables, code
 * blocks and charts, their text made of spans (plain text, a name, bold,
 * emphasis, code).  Each call goes to report.md's writer and report.html's
 * at once; each escapes for its own language.
 */
#ifndef BOOTPROBE_DOC_H
#define BOOTPROBE_DOC_H

struct doc;

/*
 * A document for report.md and report.html in the folder open at @dirfd
 * (@dir its path, for messages); charts from its charts/, no link followed.
 */
struct doc *doc__open(int dirfd, const char *dir);
/* Write both files; 0, or -1 after "@who: PATH: why".  Frees @d. */
int doc__close(struct doc *d, const char *who);

/* ---- blocks: each ends the one before ---- */
void doc__heading(struct doc *d, int level);
void doc__para(struct doc *d);
/* A list item, @depth 0 at the top, 1 under an item of depth 0. */
void doc__item(struct doc *d, int depth);
/* A table: its header row first (doc__cell), then each doc__row. */
void doc__table(struct doc *d);
void doc__row(struct doc *d);
/* The next cell of the header or row: empty until spans follow. */
void doc__cell(struct doc *d);
void doc__code_block(struct doc *d, const char *text);
/* The chart @name of chart_names, charts/NAME.svg; any other name is left out. */
void doc__chart(struct doc *d, const char *name);
/* From here on every level-2 section is detail (report.html folds each). */
void doc__details(struct doc *d);

/* ---- spans of the current block (a table's: of its current cell) ---- */
/* The program's own words. */
void doc__text(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A name from a guest or a results folder, or any text that is not ours. */
void doc__name(struct doc *d, const char *s);
void doc__bold(struct doc *d, const char *s);
void doc__em(struct doc *d, const char *s);
void doc__code(struct doc *d, const char *s);

/* A cell holding the program's words; one holding a name. */
void doc__cellf(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void doc__cell_name(struct doc *d, const char *s);

#endif
