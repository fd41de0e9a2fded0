/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text from a guest or a results folder (names, command lines, console
 * lines, folder names) made inert, once where it is read and again by one
 * helper per place it is shown: a terminal (term_*), JSON (valid UTF-8, by
 * jsonio), Markdown and HTML (the report's writers, which escape on top).
 */
#ifndef BOOTPROBE_TEXT_H
#define BOOTPROBE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Whether the code point @c must never reach a display: C0 controls, DEL,
 * C1 controls (U+0080..U+009F: a terminal reads U+009B as CSI) and the
 * bidirectional controls that reorder what is shown (U+061C, U+200E,
 * U+200F, U+202A..U+202E, U+2066..U+2069).
 */
bool text_cp_inert(uint32_t c);
/*
 * @len bytes of @s as valid UTF-8, a new string: a byte that starts no
 * valid sequence becomes U+FFFD, an inert code point '?' (line breaks, carriage
 * returns and tabs stay when @keep_lines).  *@changed (if not NULL) counts them.
 */
char *text_clean(const char *s, size_t len, bool keep_lines, size_t *changed);
/* Whether @s would come out of text_clean() as it is. */
bool text_is_clean(const char *s, size_t len, bool keep_lines);
/* @s for a terminal: text_clean() without line breaks; the caller frees. */
char *term_str(const char *s);
/* fputs() of term_str(@s). */
void term_puts(const char *s, FILE *f);

#endif
