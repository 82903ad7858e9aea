/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tl_text.h - the test library's checks of a text a test got back (a
 * log, a dump, a document, a file): the strings it must hold, how often
 * one occurs.  Header-only, like tl_rng.h.  tl_missing() and tl_count()
 * are plain C; EXPECT_HAS() is for kselftest-harness tests (host tests
 * and selftests alike; include this after kselftest_harness.h):
 *
 *	EXPECT_HAS(svg, "HBM channel 0", "SBUF NeuronCore 0");
 *
 * A failure names the string that is missing and prints the text.
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

/*
 * EXPECT_HAS(text, want...) - every string @want is in @text (a
 * NUL-terminated string; NULL fails every one).  One EXPECT per string,
 * so a test reports each string that is missing, by itself.
 */
#define EXPECT_HAS(text, ...) EXPECT_HAS_IN(text, #text, __VA_ARGS__)

/* EXPECT_HAS() whose failures call @text @where (a file's path) */
#define EXPECT_HAS_IN(text, where, ...) do { \
	const char *_tl_text = (text); \
	const char *const _tl_want[] = { __VA_ARGS__ }; \
	size_t _tl_i; \
	for (_tl_i = 0; _tl_i < sizeof(_tl_want) / sizeof(_tl_want[0]); _tl_i++) { \
		EXPECT_NE(NULL, _tl_text ? strstr(_tl_text, _tl_want[_tl_i]) : NULL) \
			TH_LOG("\"%s\" is not in %s:\n%s", _tl_want[_tl_i], \
			       (where), _tl_text ? _tl_text : "(no text)"); \
	} \
} while (0)

#endif /* _NEURONSIM_TL_TEXT_H */
