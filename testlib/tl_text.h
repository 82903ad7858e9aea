/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tl_text.h - the test library's checks of a text a test got back (a
 * log, a dump, a document): the strings it must hold, how often one
 * occurs.  Header-only, like tl_rng.h.
 */
#ifndef _NEURONSIM_TL_TEXT_H
#define _NEURONSIM_TL_TEXT_H

#include <stdio.h>
#include <string.h>

/* how many times @what occurs in @s, the occurrences not overlapping */
static inline int tl_count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/*
 * How many of the strings of @want (NULL-terminated) @text does not
 * hold; each one missing is printed as a "# " line (a TAP comment).
 */
static inline int tl_missing(const char *text, const char *const *want)
{
	int n = 0;

	for (; *want; want++) {
		if (text && strstr(text, *want))
			continue;
		fprintf(stderr, "# missing: \"%s\"\n", *want);
		n++;
	}
	return n;
}

#endif /* _NEURONSIM_TL_TEXT_H */
