/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tl_time.h - the test library's clocks, in seconds as a double: the CPU
 * time of the process (the bound of a test that must stay linear, which
 * the machine's load does not move) and the monotonic clock (a bench's
 * wall time).  Header-only, like tl_rng.h.
 */
#ifndef _NEURONSIM_TL_TIME_H
#define _NEURONSIM_TL_TIME_H

#include <time.h>

/* the CPU time the process has used so far (CLOCK_PROCESS_CPUTIME_ID) */
static inline double tl_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* the monotonic clock (CLOCK_MONOTONIC) */
static inline double tl_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif /* _NEURONSIM_TL_TIME_H */
