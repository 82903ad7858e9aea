// SPDX-License-Identifier: GPL-2.0
/* requires: what each pass's first line states; guarantees: the passes run in order number, each once, timed */
/*
 * passmgr.c - the backend pass schedule (Documentation/compiler-passes.rst,
 * "Pass manager"): passes run by order number, each with its placement
 * flag (the bool the compiler constructs the pass with), and each pass's
 * time is logged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bir.h"

static const struct bir_pass schedule[] = {
	{ 39, "runtime_memory_reservation", false, bir_pass_rtmemres },
	{ 40, "sb_allocator", false, bir_pass_sballoc },
	{ 41, "inline_nki_kernel", false, bir_pass_inline_nki },
	{ 42, "coalesce_multichannel_cc_ops", false, bir_pass_coalesce },
	{ 46, "address_rotation_psum", false, bir_pass_psum_rotation },
	{ 48, "inline_bir_kernel", false, bir_pass_inline_bir },
	{ 50, "sb_coloring_allocator", true, bir_pass_sballoc },
	{ 60, "inline_bir_kernel", true, bir_pass_inline_bir },
	{ 61, "inline_nki_kernel", true, bir_pass_inline_nki },
	{ 62, "coalesce_multichannel_cc_ops", true, bir_pass_coalesce },
};

const struct bir_pass *bir_schedule(uint32_t *n)
{
	*n = sizeof(schedule) / sizeof(schedule[0]);
	return schedule;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "NAME" matches every pass of that name; "NAME@ORDER" one of them */
static bool dump_match(const char *want, const struct bir_pass *p)
{
	const char *at = strchr(want, '@');
	size_t n = at ? (size_t)(at - want) : strlen(want);
	char ord[16];

	if (strncmp(want, p->name, n) || p->name[n])
		return false;
	if (!at)
		return true;
	snprintf(ord, sizeof(ord), "%d", p->order);
	return !strcmp(at + 1, ord);
}

static int dump(const struct bir_module *m, FILE *fp)
{
	char *s = bir_module_to_string(m);

	if (!s)
		return -ENOMEM;
	fputs(s, fp);
	free(s);
	return 0;
}

int bir_run_passes(struct bir_module *m, const struct bir_opts *o,
		   struct nscc_err *err)
{
	uint32_t n;
	const struct bir_pass *s = bir_schedule(&n);
	bool known = !o->dump_after;

	for (uint32_t k = 0; k < n; k++)
		if (o->dump_after && dump_match(o->dump_after, &s[k]))
			known = true;
	if (!known) {
		snprintf(err->msg, sizeof(err->msg),
			 "--dump-after: no pass named '%s' (passes: "
			 "runtime_memory_reservation, sb_allocator, "
			 "inline_nki_kernel, coalesce_multichannel_cc_ops, "
			 "address_rotation_psum, inline_bir_kernel, "
			 "sb_coloring_allocator; "
			 "NAME@ORDER picks one placement)",
			 o->dump_after);
		return -ENOENT;
	}
	/* the passes follow deps by reference: each must name an instruction */
	for (uint32_t k = 0; k < m->nfns; k++) {
		int rc = bir_function_check_deps(m->fns[k], err);

		if (rc)
			return rc;
	}
	for (uint32_t k = 0; k < n; k++) {
		double t0 = now();
		int rc = s[k].run(m, o, s[k].flag, err);

		bir_log(o, "pass %d %s: %.6f s", s[k].order, s[k].name,
			now() - t0);
		if (rc) {
			char msg[NSCC_ERR_MAX];

			snprintf(msg, sizeof(msg), "%s", err->msg);
			snprintf(err->msg, sizeof(err->msg), "%s (order %d): %.440s",
				 s[k].name, s[k].order, msg);
			return rc;
		}
		if (o->dump_after && o->dump && dump_match(o->dump_after, &s[k])) {
			fprintf(o->dump, "# after %s (order %d)\n", s[k].name,
				s[k].order);
			if (dump(m, o->dump))
				return -ENOMEM;
		}
	}
	return 0;
}
