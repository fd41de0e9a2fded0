// SPDX-License-Identifier: GPL-2.0
/*
 * report.html: the document's blocks as HTML, every text escaped, the
 * charts' SVG inline, each level-2 section after DOC_DETAILS folded.
 */
#define _GNU_SOURCE
#include "doc_writer.h"
#include "fsat.h"
#include "text.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/*
 * @text as HTML text: control, C1 and bidi codes as '?' (but for line
 * breaks in a @block), what is not UTF-8 as U+FFFD (text_clean()).
 */
static void html_text(FILE *f, const char *text, bool block)
{
	char *clean = text_clean(text, strlen(text), block, NULL);

	for (const char *s = clean; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\t': case '\r': fputc('?', f); break;
		default: fputc(*s, f);
		}
	}
	free(clean);
}

static void html_spans(FILE *f, const struct doc_span *s, size_t n)
{
	static const char *const tag[] = {
		[DOC_BOLD] = "b", [DOC_EM] = "em", [DOC_CODE] = "code",
	};

	for (size_t i = 0; i < n; i++) {
		bool tagged = s[i].kind == DOC_BOLD || s[i].kind == DOC_EM || s[i].kind == DOC_CODE;

		if (s[i].kind == DOC_CELL)
			continue;
		if (tagged)
			fprintf(f, "<%s>", tag[s[i].kind]);
		html_text(f, s[i].text, false);
		if (tagged)
			fprintf(f, "</%s>", tag[s[i].kind]);
	}
}

/*
 * The chart @name (doc__chart took only a name of chart_names, and only of
 * a chart this report drew) as its SVG inline: gnuplot wrote the file,
 * escaping the text in it.
 */
static void html_chart(FILE *f, int dirfd, const char *name)
{
	char *path = xasprintf("charts/%s.svg", name);
	char *svg = read_file_beneath(dirfd, path, NULL), *start = svg ? strstr(svg, "<svg") : NULL;

	fputs(start ? start : "<p>(chart missing)</p>", f);
	free(svg);
	free(path);
}

/* Past a number at @c (a sign, digits, a fraction, an exponent), or NULL if none is there. */
static const char *skip_number(const char *c)
{
	if (*c == '+' || *c == '-')
		c++;
	else if (!strncmp(c, "−", strlen("−")))
		c += strlen("−");
	if (!isdigit((unsigned char)*c))
		return NULL;
	while (isdigit((unsigned char)*c))
		c++;
	if (*c == '.' && isdigit((unsigned char)c[1]))
		for (c++; isdigit((unsigned char)*c); c++)
			;
	if ((*c == 'e' || *c == 'E') && (isdigit((unsigned char)c[1]) ||
	    ((c[1] == '+' || c[1] == '-') && isdigit((unsigned char)c[2]))))
		for (c += 2; isdigit((unsigned char)*c); c++)
			;
	return c;
}

/* Past @word at @c if it is there ("s" not the start of a longer word); else NULL. */
static const char *skip_word(const char *c, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(c, word, n) ||
	    (isalpha((unsigned char)word[n - 1]) && isalnum((unsigned char)c[n])))
		return NULL;
	return c + n;
}

/* Past one of @words at @c, or NULL. */
static const char *skip_any(const char *c, const char *const *words)
{
	const char *e;

	for (; *words; words++)
		if ((e = skip_word(c, *words)))
			return e;
	return NULL;
}

/*
 * A table cell that is a number as a whole, right-aligned in report.html:
 * numbers, each with a unit or not, joined by a range or a ratio ("12.5",
 * "+3.1 %", "0.95 .. 1.02", "-0.2 – +0.4", "3/5"), then words in
 * parentheses ("0.2 (exact)"); "-" for none.  A cell that only starts
 * with digits is a name: a driver 8139cp, a PCI address 0000:00:13.0.
 */
static bool cell_numeric(const char *c)
{
	static const char *const units[] = { "%", "s", "ms", "µs", "us", "ns", "MiB", "KiB",
					     "GiB", "x", "×", NULL };
	static const char *const joins[] = { " – ", " .. ", "..", " / ", "/", " ± ", NULL };
	const char *e;

	c += strspn(c, " ");
	for (;;) {
		/* "-" alone: none ("- – -": a range of none) */
		if (*c == '-' && !isdigit((unsigned char)c[1]))
			c++;
		else if (!(c = skip_number(c)))
			return false;
		if (*c == ' ' && (e = skip_any(c + 1, units)))
			c = e;
		if (!(e = skip_any(c, joins)))
			break;
		c = e;
	}
	/* Words in parentheses, each after a blank, to the end. */
	while (!strncmp(c, " (", 2)) {
		int depth = 0;

		for (c++; *c; c++) {
			depth += (*c == '(') - (*c == ')');
			if (!depth) {
				c++;
				break;
			}
		}
		if (depth)
			return false;
	}
	c += strspn(c, " ");
	return !*c;
}

/* The @n spans of a cell as one number?  Bold, emphasis or code make it text. */
static bool spans_numeric(const struct doc_span *s, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	bool plain = true, numeric;

	for (size_t i = 0; i < n; i++) {
		plain &= s[i].kind == DOC_TEXT || s[i].kind == DOC_NAME;
		fputs(s[i].text, m);
	}
	fclose(m);
	numeric = plain && cell_numeric(text);
	free(text);
	return numeric;
}

static void html_cell(FILE *f, const struct doc_span *s, size_t n, bool header)
{
	fputs(header ? "<th> " : spans_numeric(s, n) ? "<td class=n> " : "<td> ", f);
	html_spans(f, s, n);
	fputs(header ? (n ? " </th>" : "</th>") : (n ? " </td>" : "</td>"), f);
}

/* A table's header row or one of its rows, the table opened by its first. */
static void html_row(struct html_writer *w, const struct doc_block *b)
{
	size_t i = 0, end;

	if (!w->in_table)
		fputs("<div class=t><table>\n", w->f);
	w->in_table = true;
	fputs("<tr>", w->f);
	for (; i < b->n; i = end) {
		for (end = i + 1; end < b->n && b->spans[end].kind != DOC_CELL; end++)
			;
		if (b->spans[i].kind == DOC_CELL)
			html_cell(w->f, b->spans + i + 1, end - i - 1, b->kind == DOC_HEAD);
	}
	fputs("</tr>\n", w->f);
}

static void html_heading(struct html_writer *w, const struct doc_block *b)
{
	bool fold = w->details && b->level == 2;

	if (fold && w->in_details)
		fputs("</details>\n", w->f);
	if (fold)
		fputs("<details><summary>", w->f);
	fprintf(w->f, "<h%d>", b->level);
	html_spans(w->f, b->spans, b->n);
	fprintf(w->f, "</h%d>%s\n", b->level, fold ? "</summary>" : "");
	w->in_details |= fold;
}

static void html_pre(FILE *f, const char *text)
{
	size_t len = strlen(text);

	fputs("<pre>", f);
	html_text(f, text, true);
	fputs(len && text[len - 1] != '\n' ? "\n</pre>\n" : "</pre>\n", f);
}

void html_writer__begin(struct html_writer *w)
{
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>bootprobe report</title>\n"
	      "<style>body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em}"
	      "div.t{overflow-x:auto}table{border-collapse:collapse;margin:1em 0}"
	      "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}"
	      "td.n{text-align:right;white-space:nowrap}th{background:#eee}"
	      "code{white-space:pre-wrap;word-break:break-all}"
	      "pre{background:#f6f6f6;padding:1em;overflow-x:auto;white-space:pre-wrap}"
	      "p.li{margin:0.2em 0 0.2em 1em}svg{max-width:100%;height:auto}"
	      "summary{cursor:pointer}summary h2{display:inline}details{margin:1em 0}"
	      "</style></head><body>\n", w->f);
}

void html_writer__block(struct html_writer *w, const struct doc_block *b)
{
	FILE *f = w->f;

	if (w->in_table && b->kind != DOC_ROW) {
		fputs("</table></div>\n", f);
		w->in_table = false;
	}
	switch (b->kind) {
	case DOC_HEADING:
		html_heading(w, b);
		break;
	case DOC_PARA:
		fputs("<p>", f);
		html_spans(f, b->spans, b->n);
		fputs("</p>\n", f);
		break;
	case DOC_ITEM:
		fprintf(f, "<p class=li style=\"margin-left:%dem\">&bull; ", 1 + b->level);
		html_spans(f, b->spans, b->n);
		fputs("</p>\n", f);
		break;
	case DOC_HEAD:
	case DOC_ROW:
		html_row(w, b);
		break;
	case DOC_PRE:
		html_pre(f, b->spans[0].text);
		break;
	case DOC_CHART:
		html_chart(f, w->dirfd, b->spans[0].text);
		break;
	case DOC_DETAILS:
		w->details = true;
		break;
	}
}

void html_writer__end(struct html_writer *w)
{
	if (w->in_table)
		fputs("</table></div>\n", w->f);
	if (w->in_details)
		fputs("</details>\n", w->f);
	fputs("</body></html>\n", w->f);
}
