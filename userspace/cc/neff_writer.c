// SPDX-License-Identifier: GPL-2.0
/*
 * neff_writer.c - writes synthetic NEFFs (Documentation/compiler.rst) so tests
 * need no file from outside: the 1024-byte header with the MD5 of the
 * data region (plain or word-reversed, libcrypto EVP), then the members
 * as a gzip'd tar (libarchive); .npy members with v1-3 headers.
 */
#include <archive.h>
#include <archive_entry.h>
#include <endian.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nscc_internal.h"

struct wmember {
	char *name;
	void *data;
	size_t len;
};

struct nscc_neff_writer {
	struct wmember *m;
	size_t count, cap;
};

struct nscc_neff_writer *nscc_neff_writer_new(void)
{
	return calloc(1, sizeof(struct nscc_neff_writer));
}

void nscc_neff_writer_free(struct nscc_neff_writer *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->count; i++) {
		free(w->m[i].name);
		free(w->m[i].data);
	}
	free(w->m);
	free(w);
}

static struct wmember *find(struct nscc_neff_writer *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->count; i++)
		if (!strcmp(w->m[i].name, name))
			return &w->m[i];
	return NULL;
}

int nscc_neff_writer_add(struct nscc_neff_writer *w, const char *name,
			 const void *data, size_t len)
{
	struct wmember *m = find(w, name);
	void *copy = malloc(len ? len : 1);

	if (!copy)
		return -ENOMEM;
	if (len)
		memcpy(copy, data, len);
	if (!m) {
		if (w->count == w->cap) {
			size_t ncap = w->cap ? w->cap * 2 : 16;
			struct wmember *nm = realloc(w->m, ncap * sizeof(*nm));

			if (!nm) {
				free(copy);
				return -ENOMEM;
			}
			w->m = nm;
			w->cap = ncap;
		}
		m = &w->m[w->count];
		m->name = strdup(name);
		if (!m->name) {
			free(copy);
			return -ENOMEM;
		}
		m->data = NULL;
		w->count++;
	}
	free(m->data);
	m->data = copy;
	m->len = len;
	return 0;
}

int nscc_neff_writer_add_str(struct nscc_neff_writer *w, const char *name,
			     const char *text)
{
	return nscc_neff_writer_add(w, name, text, strlen(text));
}

int nscc_neff_writer_remove(struct nscc_neff_writer *w, const char *name)
{
	struct wmember *m = find(w, name);

	if (!m)
		return -ENOENT;
	free(m->name);
	free(m->data);
	*m = w->m[--w->count];
	return 0;
}

int nscc_neff_writer_add_npy(struct nscc_neff_writer *w, const char *name,
			     int version, const char *descr,
			     const uint64_t *shape, uint32_t ndims,
			     const void *data, size_t len)
{
	char dict[1024];
	size_t n, pre = version == 1 ? 10 : 12, hl, total;
	uint8_t *buf;
	uint32_t i;
	int ret;

	if (version < 1 || version > 3)
		return -EINVAL;
	n = snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (",
		     descr);
	for (i = 0; i < ndims && n < sizeof(dict) - 64; i++)
		n += snprintf(dict + n, sizeof(dict) - n, "%llu,%s",
			      (unsigned long long)shape[i],
			      i + 1 < ndims ? " " : "");
	n += snprintf(dict + n, sizeof(dict) - n, "), }");
	/* pad with spaces and a newline so the data starts 64-aligned */
	hl = (pre + n + 1 + 63) / 64 * 64 - pre;
	total = pre + hl + len;
	buf = malloc(total);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, "\x93NUMPY", 6);
	buf[6] = (uint8_t)version;
	buf[7] = 0;
	if (version == 1) {
		buf[8] = hl & 0xff;
		buf[9] = hl >> 8;
	} else {
		uint32_t le = htole32((uint32_t)hl);

		memcpy(buf + 8, &le, 4);
	}
	memcpy(buf + pre, dict, n);
	memset(buf + pre + n, ' ', hl - n - 1);
	buf[pre + hl - 1] = '\n';
	if (len)
		memcpy(buf + pre + hl, data, len);
	ret = nscc_neff_writer_add(w, name, buf, total);
	free(buf);
	return ret;
}

struct membuf {
	uint8_t *p;
	size_t len, cap;
	int oom;
};

static la_ssize_t mb_write(struct archive *a, void *ud, const void *buf,
			   size_t n)
{
	struct membuf *mb = ud;

	(void)a;
	if (mb->len + n > mb->cap) {
		size_t ncap = mb->cap ? mb->cap : 65536;
		uint8_t *np;

		while (ncap < mb->len + n)
			ncap *= 2;
		np = realloc(mb->p, ncap);
		if (!np) {
			mb->oom = 1;
			return -1;
		}
		mb->p = np;
		mb->cap = ncap;
	}
	memcpy(mb->p + mb->len, buf, n);
	mb->len += n;
	return (la_ssize_t)n;
}

static void wr32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static void wr64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

int nscc_neff_writer_finish(struct nscc_neff_writer *w,
			    const struct nscc_neff_opts *opts,
			    void **out, size_t *out_len)
{
	struct nscc_neff_opts def = { 0 };
	struct membuf mb = { 0 };
	struct archive *a;
	uint8_t *h, md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;
	const char *name;
	size_t k;
	int ret = -EIO;

	if (!opts)
		opts = &def;
	/* the header is written into the first 1024 bytes afterwards */
	uint8_t zero[NSCC_NEFF_HEADER_SIZE] = { 0 };

	if (mb_write(NULL, &mb, zero, sizeof(zero)) < 0)
		return -ENOMEM;
	a = archive_write_new();
	if (!a) {
		free(mb.p);
		return -ENOMEM;
	}
	if (archive_write_add_filter_gzip(a) != ARCHIVE_OK ||
	    archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
	    archive_write_open(a, &mb, NULL, mb_write, NULL) != ARCHIVE_OK)
		goto out;
	for (k = 0; k < w->count; k++) {
		struct archive_entry *e = archive_entry_new();

		if (!e)
			goto out;
		archive_entry_set_pathname(e, w->m[k].name);
		archive_entry_set_size(e, (la_int64_t)w->m[k].len);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		if (archive_write_header(a, e) != ARCHIVE_OK ||
		    (w->m[k].len &&
		     archive_write_data(a, w->m[k].data, w->m[k].len) !=
		     (la_ssize_t)w->m[k].len)) {
			archive_entry_free(e);
			goto out;
		}
		archive_entry_free(e);
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		goto out;
	h = mb.p;
	wr64(h + 0x0, 2);
	wr64(h + 0x8, NSCC_NEFF_HEADER_SIZE);
	wr64(h + 0x10, mb.len - NSCC_NEFF_HEADER_SIZE);
	wr64(h + 0x18, opts->lnc_size ? opts->lnc_size : 1);
	wr32(h + 0xa8, 1);
	for (i = 0; i < 16; i++)
		h[0xcc + i] = (uint8_t)(0x5a ^ (i * 17));
	name = opts->name ? opts->name : "file.neff";
	strncpy((char *)h + 0xdc, name, 255);
	wr32(h + 0x1dc, 1);
	wr32(h + 0x1e0, 1);
	wr64(h + 0x220, opts->feature_bits);
	wr32(h + 0x228, opts->lnc_size ? opts->lnc_size : 1);
	if (!EVP_Digest(h + NSCC_NEFF_HEADER_SIZE, mb.len - NSCC_NEFF_HEADER_SIZE,
			md, &mdlen, EVP_md5(), NULL) || mdlen != 16)
		goto out;
	for (i = 0; i < 16; i++)
		h[0xac + i] = opts->md5_word_reversed ?
			      md[(i & ~3U) + 3 - (i & 3)] : md[i];
	*out = mb.p;
	*out_len = mb.len;
	mb.p = NULL;
	ret = 0;
out:
	if (ret && mb.oom)
		ret = -ENOMEM;
	archive_write_free(a);
	free(mb.p);
	return ret;
}

static int mkdirs(char *path)
{
	char *p;

	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = 0;
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return 0;
}

int nscc_neff_writer_write_dir(struct nscc_neff_writer *w, const char *dir)
{
	size_t k;
	int ret;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	for (k = 0; k < w->count; k++) {
		char *path;

		if (asprintf(&path, "%s/%s", dir, w->m[k].name) < 0)
			return -ENOMEM;
		ret = mkdirs(path);
		if (!ret)
			ret = nscc_write_file(path, w->m[k].data, w->m[k].len);
		free(path);
		if (ret)
			return ret;
	}
	return 0;
}
