/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nrt/nrt_version.h - the version of neuronsim's libnrt-compatible runtime
 * (Documentation/nrt.rst).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RT_VERSION_DETAIL_LEN 128
#define GIT_HASH_LEN 64

/**
 * struct nrt_version - what nrt_get_version() fills in.
 * @rt_major: NRT_MAJOR_VERSION of the API the library implements.
 * @rt_minor: NRT_MINOR_VERSION.
 * @rt_patch: neuronsim's own release, as a number.
 * @rt_maintenance: 0.
 * @rt_detail: "neuronsim <release>", NUL-terminated.
 * @git_hash: the commit the library was built from, or "" (NUL-terminated).
 */
typedef struct nrt_version {
	uint64_t rt_major;
	uint64_t rt_minor;
	uint64_t rt_patch;
	uint64_t rt_maintenance;
	char rt_detail[RT_VERSION_DETAIL_LEN];
	char git_hash[GIT_HASH_LEN];
} nrt_version_t;

/**
 * nrt_get_version() - the library's version; may be called before
 *	nrt_init().
 * @ver: out: the version.
 * @size: bytes at @ver the caller's struct has; fields past it are not
 *	written (an older caller's smaller struct is fine).
 *
 * Return: NRT_SUCCESS, NRT_INVALID for a NULL @ver.
 */
NRT_STATUS nrt_get_version(nrt_version_t *ver, size_t size);

#ifdef __cplusplus
}
#endif
