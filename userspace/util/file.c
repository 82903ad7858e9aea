// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * file.c - the one whole-file reader (nsim_file.h), in the lowest
 * userspace library (libnsutil.a), which the compiler's libraries, the
 * plan reader, libneuronsim (bundled) and the commands all link.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsim_file.h"

int nsim_read_file(const char *path, void **buf, size_t *len)
{
	struct stat st;
	size_t n, got = 0;
	char *p;
	int fd, err;

	if (!path || !buf || !len)
		return -EINVAL;
	/* O_NONBLOCK: a FIFO must not block the open; it is refused below */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto err_close;
	}
	if (!S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		goto err_close;
	}
	if ((unsigned long long)st.st_size > NSIM_READ_FILE_MAX ||
	    (unsigned long long)st.st_size > SIZE_MAX - NSIM_READ_FILE_PAD) {
		err = -EFBIG;
		goto err_close;
	}
	n = (size_t)st.st_size;
	p = malloc(n + NSIM_READ_FILE_PAD);
	if (!p) {
		err = -ENOMEM;
		goto err_close;
	}
	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			goto err_free;
		}
		if (r == 0) {
			err = -EIO;
			goto err_free;
		}
		got += (size_t)r;
	}
	memset(p + n, 0, NSIM_READ_FILE_PAD);
	close(fd);
	*buf = p;
	*len = n;
	return 0;

err_free:
	free(p);
err_close:
	close(fd);
	return err;
}
