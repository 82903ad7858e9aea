/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_text.h - a JSON string for text that may not be UTF-8, shared by
 * the neuronsim and neuronsim-cc commands.
 *
 * Names in a KBIN plan or a NEFF are bytes, not necessarily UTF-8, and
 * jansson refuses invalid UTF-8 (json_string() returns NULL, and a
 * json_pack() with such a string drops the whole object).  json_text()
 * keeps such a string visible: every byte from 0x80 up becomes the four
 * characters "\xNN".
 */
#ifndef _NEURONSIM_JSON_TEXT_H
#define _NEURONSIM_JSON_TEXT_H

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline json_t *json_text(const char *s)
{
	json_t *j = json_string(s);
	char *e, *o;

	if (j)
		return j;
	e = malloc(strlen(s) * 4 + 1);
	if (!e)
		return NULL;
	for (o = e; *s; s++) {
		if ((unsigned char)*s < 0x80)
			*o++ = *s;
		else
			o += sprintf(o, "\\x%02x", (unsigned char)*s);
	}
	*o = 0;
	j = json_string(e);
	free(e);
	return j;
}

#endif /* _NEURONSIM_JSON_TEXT_H */
