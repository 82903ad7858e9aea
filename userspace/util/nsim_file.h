/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * nsim_file.h - the one whole-file reader of userspace (file.c): the
 * compiler, libneuronsim, the commands and the tests read every input
 * file (NEFF, def.json, a plan, a payload) through it, with one policy.
 */
#ifndef NEURONSIM_FILE_H
#define NEURONSIM_FILE_H

#include <stddef.h>

/* the largest file nsim_read_file() reads: 4 GiB */
#define NSIM_READ_FILE_MAX	(4ULL << 30)
/*
 * zero bytes nsim_read_file() puts after the file's: the NUL of a text
 * and the padding simdjson reads past a JSON document (JV_PADDING)
 */
#define NSIM_READ_FILE_PAD	64

/**
 * nsim_read_file() - read a whole regular file into memory.
 * @path: file name.
 * @buf: out: malloc()'d bytes, the file's followed by NSIM_READ_FILE_PAD
 *	zero bytes; the caller frees it.  Untouched on failure.
 * @len: out: the file's length in bytes (0 for an empty file).
 *
 * The policy of every reader of a whole file: the open never blocks
 * (O_NONBLOCK: a FIFO is refused, not waited for); only a regular file
 * is read, at most NSIM_READ_FILE_MAX bytes.
 *
 * Return: 0; -EINVAL for a NULL argument; the -errno of open(), fstat()
 * or read(); -EISDIR for a directory, -EINVAL for any other file that is
 * not a regular file; -EFBIG for a file larger than NSIM_READ_FILE_MAX;
 * -ENOMEM; -EIO when the file shrank while it was read.
 */
int nsim_read_file(const char *path, void **buf, size_t *len);

#endif /* NEURONSIM_FILE_H */
