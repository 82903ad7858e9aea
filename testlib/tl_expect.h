/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tl_expect.h - the test library's checks of text for kselftest-harness
 * tests (host tests and selftests alike; Documentation/running.rst, "The
 * test library").  Header-only; include it after kselftest_harness.h.
 *
 *	EXPECT_HAS(svg, "HBM channel 0", "SBUF NeuronCore 0");
 *
 * A failure names the string that is missing and prints the text.
 */
#ifndef _NEURONSIM_TL_EXPECT_H
#define _NEURONSIM_TL_EXPECT_H

#include <string.h>

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

#endif /* _NEURONSIM_TL_EXPECT_H */
