/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * internal.h - helpers shared by the files of libneuronsim (not installed).
 */
#ifndef NEURONSIM_LIB_INTERNAL_H
#define NEURONSIM_LIB_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "libneuronsim.h"

#define NSIM_EXPORT __attribute__((visibility("default")))

/* does the caller's option struct (of its own size) reach @field? */
#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(typeof(*(opts)), field) + \
	 sizeof((opts)->field))
#define OPTS_GET(opts, field, def) \
	(OPTS_HAS(opts, field) ? (opts)->field : (def))
#define OPTS_SET(opts, field, val) \
	do { if (OPTS_HAS(opts, field)) (opts)->field = (val); } while (0)

/*
 * An option struct is valid when it is NULL, or its sz is at least the
 * sz member and every byte beyond what this library knows is zero.
 */
static inline int nsim_opts_check(const void *opts, size_t known)
{
	const unsigned char *p = opts;
	size_t sz, i;

	if (!opts)
		return 0;
	sz = *(const size_t *)opts;
	if (sz < sizeof(size_t))
		return -EINVAL;
	for (i = known; i < sz; i++)
		if (p[i])
			return -E2BIG;
	return 0;
}

/* 0, -EINVAL (sz smaller than the sz member) or -E2BIG (unknown tail) */
#define OPTS_CHECK(opts) nsim_opts_check(opts, sizeof(*(opts)))

#endif /* NEURONSIM_LIB_INTERNAL_H */
