// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * names.c - libneuronsim: names of mr_type, memory regions and checker
 * reason codes, UDMA descriptor flags, the text of a resolve failure (the
 * tables and texts live once, in kmod/plan: kbin_names.h, kbin_dma.h and
 * the kind table kbin_kind.h), and
 * VAR[+OFFSET[:SIZE]] parsing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kbin_dma.h"
#include "kbin_kind.h"
#include "kbin_names.h"

NSIM_EXPORT const char *neuronsim_mr_type_str(__u32 mr_type)
{
	return kbin_mr_type_str(mr_type);
}

NSIM_EXPORT const char *neuronsim_mem_region(__u32 mr_type)
{
	switch (kbin_kind(mr_type)->storage) {
	case KBIN_STORAGE_SBUF:
		return "sbuf";
	case KBIN_STORAGE_PSUM:
		return "psum";
	case KBIN_STORAGE_SCRATCHPAD:
		return "scratchpad";
	case KBIN_STORAGE_NONE:
	case KBIN_STORAGE_INDEX:
		return "none";
	default:
		return "hbm";
	}
}

NSIM_EXPORT __u32 neuronsim_udma_len(__u32 len_ctrl)
{
	__u32 n = len_ctrl & UDMA_DESC_LEN_MASK;

	return n ? n : UDMA_DESC_LEN_MAX;
}

NSIM_EXPORT char *neuronsim_udma_flags_str(__u32 len_ctrl, char *buf,
					   size_t len)
{
	return kbin_udma_flags_str(len_ctrl, buf, len);
}

NSIM_EXPORT const char *neuronsim_reason_str(__u32 reason)
{
	return kbin_reason_str(reason);
}

_Static_assert(NEURONSIM_RESOLVE_STRERROR_MAX == KBIN_RESOLVE_TEXT_MAX,
	       "the library's and the plan layer's bound are one");

NSIM_EXPORT char *neuronsim_resolve_strerror(int err, const char *name,
					     __u32 mr_type, __u64 var_size,
					     __u64 offset, __u64 size,
					     char *buf, size_t len)
{
	return kbin_resolve_strerror(buf, len, err, name, mr_type, var_size,
				     offset, size);
}

NSIM_EXPORT const char *neuronsim_field_str(__u32 field)
{
	return kbin_field_str(field);
}

NSIM_EXPORT int neuronsim_parse_u64(const char *s, __u64 *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (!s || !out || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s)
		return -EINVAL;
	switch (*end) {
	case 'K':
	case 'k':
		shift = 10;
		end++;
		break;
	case 'M':
	case 'm':
		shift = 20;
		end++;
		break;
	case 'G':
	case 'g':
		shift = 30;
		end++;
		break;
	}
	if (*end)
		return -EINVAL;
	if (shift && v > (~0ULL >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

static int ref_err(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/* "123" fully, into a __u32 */
static int parse_u32_dec(const char *s, size_t n, __u32 *out)
{
	unsigned long long v = 0;
	size_t i;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		v = v * 10 + (s[i] - '0');
		if (v > 0xffffffffULL)
			return -ERANGE;
	}
	*out = v;
	return 0;
}

/* parse "OFFSET[:SIZE]" fully */
static int parse_off_size(const char *s, struct neuronsim_var_ref *ref,
			  char *err, size_t errlen)
{
	char buf[64];
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	int ret;

	if (n >= sizeof(buf))
		return ref_err(err, errlen, -ERANGE, "offset '%.*s' is too long",
			       (int)n, s);
	memcpy(buf, s, n);
	buf[n] = '\0';
	ret = neuronsim_parse_u64(buf, &ref->offset);
	if (ret)
		return ref_err(err, errlen, ret, "offset '%s' is %s", buf,
			       ret == -ERANGE ? "over 64 bits" :
			       "not a number (decimal, 0x hex, K/M/G)");
	ref->has_offset = 1;
	if (!colon)
		return 0;
	ret = neuronsim_parse_u64(colon + 1, &ref->size);
	if (ret)
		return ref_err(err, errlen, ret, "size '%s' is %s", colon + 1,
			       ret == -ERANGE ? "over 64 bits" :
			       "not a number (decimal, 0x hex, K/M/G)");
	ref->has_size = 1;
	if (ref->offset + ref->size < ref->offset)
		return ref_err(err, errlen, -ERANGE,
			       "offset %llu + size %llu overflows 64 bits",
			       (unsigned long long)ref->offset,
			       (unsigned long long)ref->size);
	return 0;
}

NSIM_EXPORT int neuronsim_var_ref_parse(const char *s,
					struct neuronsim_var_ref *ref,
					char *err, size_t errlen)
{
	const char *var, *plus, *end;
	size_t n;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (!ref)
		return -EINVAL;
	memset(ref, 0, sizeof(*ref));
	if (!s || !*s)
		return ref_err(err, errlen, -EINVAL, "empty variable reference");

	/* a trailing "+OFFSET[:SIZE]" that parses; else it is part of a name */
	end = s + strlen(s);
	plus = strrchr(s, '+');
	if (plus && plus > s) {
		struct neuronsim_var_ref tmp;
		char e2[128];

		memset(&tmp, 0, sizeof(tmp));
		ret = parse_off_size(plus + 1, &tmp, e2, sizeof(e2));
		if (!ret) {
			ref->offset = tmp.offset;
			ref->size = tmp.size;
			ref->has_offset = 1;
			ref->has_size = tmp.has_size;
			end = plus;
		} else if (ret == -ERANGE ||
			   isdigit((unsigned char)plus[1])) {
			/* looks numeric: report it rather than eat it */
			return ref_err(err, errlen, ret, "'%s': %s", s, e2);
		}
	}

	var = s;
	if (end - var > 2 && !strncmp(var, "sg", 2) &&
	    isdigit((unsigned char)var[2])) {
		const char *slash = memchr(var, '/', end - var);
		__u32 sg;

		if (slash && !parse_u32_dec(var + 2, slash - var - 2, &sg)) {
			ref->has_subgraph = 1;
			ref->subgraph = sg;
			var = slash + 1;
		}
	}
	n = end - var;
	if (!n)
		return ref_err(err, errlen, -EINVAL, "'%s': empty variable name",
			       s);
	if (var[0] == '#') {
		ret = parse_u32_dec(var + 1, n - 1, &ref->var_id);
		if (ret)
			return ref_err(err, errlen, ret,
				       "'%s': var_id '%.*s' is %s", s,
				       (int)(n - 1), var + 1,
				       ret == -ERANGE ? "over 32 bits" :
				       "not a decimal number");
		ref->by_id = 1;
		return 0;
	}
	if (n >= NEURONSIM_VAR_NAME_MAX)
		return ref_err(err, errlen, -ENAMETOOLONG,
			       "variable name of %zu bytes is longer than %u",
			       n, NEURONSIM_VAR_NAME_MAX - 1);
	memcpy(ref->name, var, n);
	ref->name[n] = '\0';
	return 0;
}
