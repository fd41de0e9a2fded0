// SPDX-License-Identifier: GPL-2.0
/* Text made inert for every place it is shown (text.h). */
#include "text.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

bool text_cp_inert(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x61c || c == 0x200e ||
	       c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/*
 * The code point of the UTF-8 sequence at @p (@n bytes left), its length in
 * *@len; -1 (length 1) for a byte that starts no valid sequence: a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, cut.
 */
static int32_t utf8_next(const unsigned char *p, size_t n, size_t *len)
{
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t need = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 :
		      (p[0] & 0xf8) == 0xf0 ? 4 : 0;
	uint32_t c;

	*len = 1;
	if (need == 1)
		return p[0];
	if (!need || need > n)
		return -1;
	c = p[0] & (0x7f >> need);
	for (size_t i = 1; i < need; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min[need] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*len = need;
	return (int32_t)c;
}

static bool kept(int32_t c, bool keep_lines)
{
	return c >= 0 && (!text_cp_inert((uint32_t)c) ||
			  (keep_lines && (c == '\n' || c == '\r' || c == '\t')));
}

char *text_clean(const char *s, size_t len, bool keep_lines, size_t *changed)
{
	/* At worst each byte becomes U+FFFD, three bytes. */
	char *out = xmalloc(len * 3 + 1), *o = out;
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, k;

	for (size_t i = 0; i < len; i += k) {
		int32_t c = utf8_next(p + i, len - i, &k);

		if (kept(c, keep_lines)) {
			memcpy(o, p + i, k);
			o += k;
			continue;
		}
		n++;
		if (c < 0) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
		} else {
			*o++ = '?';
		}
	}
	*o = '\0';
	if (changed)
		*changed = n;
	return out;
}

bool text_is_clean(const char *s, size_t len, bool keep_lines)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;

	for (size_t i = 0; i < len; i += k)
		if (!kept(utf8_next(p + i, len - i, &k), keep_lines))
			return false;
	return true;
}

char *term_str(const char *s)
{
	return text_clean(s, strlen(s), false, NULL);
}

void term_puts(const char *s, FILE *f)
{
	char *t = term_str(s);

	fputs(t, f);
	free(t);
}
