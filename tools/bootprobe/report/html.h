/* SPDX-License-Identifier: GPL-2.0 */
/* report.html, made from report.md's text (report.c). */
#ifndef BOOTPROBE_HTML_H
#define BOOTPROBE_HTML_H

/*
 * The line after which every "## " section of report.md is detail:
 * report.html folds each into a <details>.  Markdown hides the comment; no
 * name can make this line (md_str escapes '<', code blocks are skipped).
 */
#define MD_DETAILS "<!-- details -->"

/*
 * DIR/report.html from the Markdown @md, the charts DIR/charts/NAME.svg
 * inline; 0, or -1 after a message naming the file.
 */
int report_html__write(const char *dir, const char *md);

#endif
