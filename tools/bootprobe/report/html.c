// SPDX-License-Identifier: GPL-2.0
/*
 * report.html: report.md's content, escaped for HTML, the charts' SVG
 * inline.  It reads the Markdown report.c wrote, line by line.
 */
#define _GNU_SOURCE
#include "charts.h"
#include "html.h"
#include "util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHO "bootprobe report"

static void html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fputc('?', f);
			else
				fputc(*s, f);
		}
	}
}

/* The length of the numeric character reference ("&#124;") at @s, else 0. */
static size_t char_ref_len(const char *s)
{
	size_t digits = s[0] == '&' && s[1] == '#' ? strspn(s + 2, "0123456789") : 0;

	return digits && digits <= 7 && s[2 + digits] == ';' ? digits + 3 : 0;
}

/*
 * Escaped text with markdown's **bold** and `code` turned into tags; outside
 * code, numeric character references (md_str's) are kept, as Markdown does.
 */
static void html_inline(FILE *f, const char *s)
{
	bool bold = false, code = false;
	char one[2] = "";

	for (; *s; s++) {
		size_t ref = code ? 0 : char_ref_len(s);

		if (ref) {
			fwrite(s, 1, ref, f);
			s += ref - 1;
		} else if (!code && s[0] == '*' && s[1] == '*') {
			fputs(bold ? "</b>" : "<b>", f);
			bold = !bold;
			s++;
		} else if (*s == '`') {
			fputs(code ? "</code>" : "<code>", f);
			code = !code;
		} else {
			one[0] = *s;
			html_escape(f, one);
		}
	}
	if (code)
		fputs("</code>", f);
	if (bold)
		fputs("</b>", f);
}

/*
 * An image line of ours, "![NAME](charts/NAME.svg)", as the chart's SVG
 * inline.  Only a name from chart_names is read (gnuplot wrote the file,
 * escaping the text in it); any other image line is shown as text.
 */
static void html_chart(FILE *f, const char *line, const char *dir)
{
	for (int i = 0; chart_names[i]; i++) {
		char *ours = xasprintf("![%s](charts/%s.svg)", chart_names[i], chart_names[i]);
		bool match = !strcmp(line, ours);
		char *path, *svg, *start;

		free(ours);
		if (!match)
			continue;
		path = xasprintf("%s/charts/%s.svg", dir, chart_names[i]);
		svg = read_file(path, NULL);
		start = svg ? strstr(svg, "<svg") : NULL;
		fputs(start ? start : "<p>(chart missing)</p>", f);
		free(svg);
		free(path);
		return;
	}
	fputs("<p>", f);
	html_escape(f, line);
	fputs("</p>\n", f);
}

/*
 * A table cell that reads as a number, right-aligned in report.html: a
 * number first (a sign, "-" alone for none), then units, ratios, "±", "–"
 * ranges and words in parentheses ("0.2 (exact)"), but no word of three
 * letters or more outside them ("3 ok boots" is text).
 */
static bool cell_numeric(const char *c)
{
	int depth = 0, run = 0;

	c += strspn(c, " ");
	if (!strcmp(c, "- ") || !strcmp(c, "-") || !strncmp(c, "- – -", 7))
		return true;
	if (*c == '+' || *c == '-')
		c++;
	else if (!strncmp(c, "−", strlen("−")))
		c += strlen("−");
	if (!isdigit((unsigned char)*c))
		return false;
	for (; *c; c++) {
		depth += (*c == '(') - (*c == ')');
		run = isalpha((unsigned char)*c) ? run + 1 : 0;
		if (run >= 3 && depth <= 0)
			return false;
	}
	return true;
}

/* One table line: a row of cells, the first row of a table its header. */
static void html_row(FILE *f, const char *line, bool header)
{
	const char *c = line + 1, *end;

	fputs("<tr>", f);
	/* '|' in a name is md_str's &#124;: every '|' here is a cell border. */
	for (; (end = strchr(c, '|')); c = end + 1) {
		char *cell = xasprintf("%.*s", (int)(end - c), c);

		fputs(header ? "<th>" : cell_numeric(cell) ? "<td class=n>" : "<td>", f);
		html_inline(f, cell);
		fputs(header ? "</th>" : "</td>", f);
		free(cell);
	}
	fputs("</tr>\n", f);
}

struct html_state {
	bool in_code, in_table;
	bool details;		/* past MD_DETAILS: each "## " section folds */
	bool in_details;	/* a <details> is open */
};

/* A small markdown subset: headings, tables, lists, code blocks, images. */
static void html_line(FILE *f, const char *line, const char *dir, struct html_state *st)
{
	if (!strncmp(line, "```", 3)) {
		fputs(st->in_code ? "</pre>\n" : "<pre>", f);
		st->in_code = !st->in_code;
		return;
	}
	if (st->in_code) {
		html_escape(f, line);
		fputc('\n', f);
		return;
	}
	if (st->in_table && line[0] != '|') {
		fputs("</table></div>\n", f);
		st->in_table = false;
	}
	if (!strcmp(line, MD_DETAILS)) {
		st->details = true;
	} else if (line[0] == '#') {
		int level = (int)strspn(line, "#");
		bool fold = st->details && level == 2;

		if (fold && st->in_details)
			fputs("</details>\n", f);
		if (fold)
			fputs("<details><summary>", f);
		fprintf(f, "<h%d>", level);
		html_inline(f, line + level + 1);
		fprintf(f, "</h%d>%s\n", level, fold ? "</summary>" : "");
		st->in_details |= fold;
	} else if (line[0] == '|') {
		if (strstr(line, "|---"))
			return;
		if (!st->in_table)
			fputs("<div class=t><table>\n", f);
		html_row(f, line, !st->in_table);
		st->in_table = true;
	} else if (!strncmp(line, "![", 2)) {
		html_chart(f, line, dir);
	} else if (*line) {
		size_t indent = strspn(line, " ");
		bool item = !strncmp(line + indent, "- ", 2);

		if (item)
			fprintf(f, "<p class=li style=\"margin-left:%zuem\">&bull; ", 1 + indent / 2);
		else
			fputs("<p>", f);
		html_inline(f, line + indent + (item ? 2 : 0));
		fputs("</p>\n", f);
	}
}

int report_html__write(const char *dir, const char *md)
{
	struct out_file o;
	FILE *f = out_file__open(&o, dir, "report.html");
	char *copy = xstrdup(md), *save = NULL;
	struct html_state st = { 0 };

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
	      "</style></head><body>\n", f);
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		html_line(f, l, dir, &st);
	if (st.in_table)
		fputs("</table></div>\n", f);
	if (st.in_code)
		fputs("</pre>\n", f);
	if (st.in_details)
		fputs("</details>\n", f);
	fputs("</body></html>\n", f);
	free(copy);
	return out_file__commit(&o, WHO);
}
