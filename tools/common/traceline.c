// SPDX-License-Identifier: GPL-2.0
/* One event line of tracefs's trace or trace_pipe (traceline.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traceline.h"

bool traceline__ts(const char *s, uint64_t *ns)
{
	uint64_t sec, frac = 0;
	int digits = 0;
	char *end;

	sec = strtoull(s, &end, 10);
	if (end == s || *end != '.')
		return false;
	for (s = end + 1; isdigit((unsigned char)*s); s++, digits++)
		if (digits < 9)
			frac = frac * 10 + (*s - '0');
	if (!digits || *s != ':')
		return false;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return true;
}

/* The "[CPU]" field: '[', digits, ']' after a blank. */
static char *find_cpu_field(char *line)
{
	char *p = line, *q;

	while ((p = strchr(p, '['))) {
		q = p + 1;
		while (isdigit((unsigned char)*q))
			q++;
		if (q > p + 1 && *q == ']' && p > line && p[-1] == ' ')
			return p;
		p++;
	}
	return NULL;
}

bool traceline__parse(char *line, struct traceline *t)
{
	char *end = line + strlen(line);
	char *cpu = find_cpu_field(line), *dash, *p, *tok;
	size_t len;

	if (!cpu)
		return false;
	for (p = cpu - 1; p > line && *p == ' '; p--)
		*p = '\0';
	while (*line == ' ')
		line++;
	dash = strrchr(line, '-');
	if (!dash || dash == line)
		return false;
	*dash = '\0';
	t->pid = atoi(dash + 1);
	snprintf(t->comm, sizeof(t->comm), "%s", line);
	p = strchr(cpu, ']') + 1;
	/* Flags (irq-info) may or may not be there: find the timestamp. */
	for (tok = strtok(p, " "); tok; tok = strtok(NULL, " ")) {
		if (traceline__ts(tok, &t->ts_ns))
			break;
	}
	if (!tok)
		return false;
	tok = strtok(NULL, " ");
	if (!tok || (len = strlen(tok)) < 2 || tok[len - 1] != ':')
		return false;
	snprintf(t->event, sizeof(t->event), "%.*s", (int)len - 1, tok);
	t->rest = tok + len < end ? tok + len + 1 : end;
	return true;
}
