// SPDX-License-Identifier: GPL-2.0
/*
 * neff.c - the NEFF reader (Documentation/compiler.rst): the 1024-byte header,
 * the MD5 integrity check (plain or word-reversed, libcrypto EVP), the
 * feature bits, the gzip'd tar read fully into a member table with
 * libarchive, neff.json -> kelf member -> target and subgraphs.  Also
 * accepts an extracted NEFF directory (members are read on demand).
 */
#include <archive.h>
#include <archive_entry.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nscc_internal.h"
#include "nsim_file.h"

/* The most one read of a member's data asks libarchive for. */
#define NEFF_READ_CHUNK		(1U << 20)

/*
 * @not_regular: NULL for a regular file; else what the tar entry is
 * ("symbolic link", "hard link", ...), kept so a lookup can say so.
 */
struct nscc_member {
	char *name;
	void *data;
	size_t len;
	const char *not_regular;
};

struct nscc_members {
	struct nscc_hash by_name;
	struct nscc_member **arr;
	size_t count, cap;
	char *dir;		/* extracted directory, or NULL */
};

/* nsim_read_file() pads every file for the JSON reader (json_view.h) */
_Static_assert(JV_PADDING <= NSIM_READ_FILE_PAD,
	       "nsim_read_file() pads less than simdjson reads past a document");

int nscc_write_file(const char *path, const void *buf, size_t len)
{
	const char *p = buf;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int ret = n < 0 ? -errno : -EIO;

			close(fd);
			return ret;
		}
		p += n;
		len -= n;
	}
	return close(fd) ? -errno : 0;
}

static const char *strip_dot(const char *name)
{
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	while (name[0] == '/')
		name++;
	return name;
}

static int has_dotdot(const char *name)
{
	const char *p = name;

	while (p) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return 1;
		p = strchr(p, '/');
		if (p)
			p++;
	}
	return 0;
}

/*
 * Add a member; takes @data (malloc'd, NUL one past @len; NULL for an
 * entry that is not a regular file, whose kind @not_regular names).
 */
static int members_add(struct nscc_members *ms, const char *name, void *data,
		       size_t len, const char *not_regular,
		       struct nscc_err *err)
{
	struct nscc_member *mb;

	if (ms->count == ms->cap) {
		size_t ncap = ms->cap ? ms->cap * 2 : 64;
		struct nscc_member **na = realloc(ms->arr, ncap * sizeof(*na));

		if (!na)
			goto nomem;
		ms->arr = na;
		ms->cap = ncap;
	}
	mb = calloc(1, sizeof(*mb));
	if (!mb)
		goto nomem;
	mb->name = strdup(name);
	if (!mb->name) {
		free(mb);
		goto nomem;
	}
	mb->data = data;
	mb->len = len;
	mb->not_regular = not_regular;
	ms->arr[ms->count++] = mb;
	switch (nscc_hash_put_str(&ms->by_name, mb->name, mb, NULL)) {
	case 0:
		return 0;
	case -EEXIST:
		return nscc_errf(err, -EBADMSG,
				 "corrupted NEFF: member '%s' appears twice in the archive",
				 name);
	}
	return nscc_errf(err, -ENOMEM, "out of memory");
nomem:
	free(data);
	return nscc_errf(err, -ENOMEM, "out of memory");
}

static void members_free(struct nscc_members *ms)
{
	size_t i;

	if (!ms)
		return;
	for (i = 0; i < ms->count; i++) {
		free(ms->arr[i]->name);
		free(ms->arr[i]->data);
		free(ms->arr[i]);
	}
	free(ms->arr);
	nscc_hash_fini(&ms->by_name);
	free(ms->dir);
	free(ms);
}

uint64_t nscc_neff_member_limit(void)
{
	const char *s = getenv(NSCC_NEFF_MAX_MEMBER_BYTES_ENV);
	unsigned long long v;
	char *end;

	if (!s || !*s)
		return NSCC_NEFF_MAX_MEMBER_BYTES;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || *s == '-' || !v || v > NSCC_NEFF_MAX_MEMBER_BYTES_CEIL)
		return 0;
	return v;
}

/* What a tar entry that is not a regular file is, for the refusal. */
static const char *entry_kind(struct archive_entry *e)
{
	if (archive_entry_hardlink(e))
		return "hard link";
	switch (archive_entry_filetype(e)) {
	case AE_IFREG:
		return NULL;
	case AE_IFLNK:
		return "symbolic link";
	case AE_IFDIR:
		return "directory";
	case AE_IFCHR:
		return "character device";
	case AE_IFBLK:
		return "block device";
	case AE_IFIFO:
		return "FIFO";
	case AE_IFSOCK:
		return "socket";
	}
	return "special file";
}

static int over_limit(uint64_t limit, const char *name, struct nscc_err *err)
{
	return nscc_errf(err, -EFBIG, "NEFF members hold over %llu bytes (at member '%s')",
			 (unsigned long long)limit, name);
}

/*
 * The data of the current entry, @size bytes as its header says, but
 * never more than @budget: reads are at most NEFF_READ_CHUNK bytes
 * and each is counted, so the entry is refused as soon as it holds
 * @budget + 1 bytes.  *@out is malloc'd, NUL one past *@len.
 */
static int read_entry_data(struct archive *a, const char *name, size_t size,
			   uint64_t budget, uint64_t limit, char **out,
			   size_t *len, struct nscc_err *err)
{
	size_t cap = size + 2, got = 0;	/* room to see the end, and a NUL */
	char *data = malloc(cap + JV_PADDING);

	if (!data)
		return nscc_errf(err, -ENOMEM, "out of memory");
	for (;;) {
		size_t want;
		la_ssize_t n;

		if (got > budget) {
			free(data);
			return over_limit(limit, name, err);
		}
		if (got + 2 > cap) {	/* more than the header said */
			size_t ncap = cap * 2 > budget + 2 ? budget + 2 : cap * 2;
			char *nd = realloc(data, ncap + JV_PADDING);

			if (!nd) {
				free(data);
				return nscc_errf(err, -ENOMEM, "out of memory");
			}
			data = nd;
			cap = ncap;
		}
		want = cap - 1 - got;
		if (want > NEFF_READ_CHUNK)
			want = NEFF_READ_CHUNK;
		n = archive_read_data(a, data + got, want);
		if (n == 0)
			break;
		if (n < 0) {
			free(data);
			return nscc_errf(err, -EBADMSG, "corrupted NEFF: member '%s': %s",
					 name, archive_error_string(a));
		}
		got += n;
	}
	/* the NUL and simdjson's padding: parsed in place (nscc_neff_json()) */
	memset(data + got, 0, JV_PADDING);
	*out = data;
	*len = got;
	return 0;
}

/*
 * Read every member of the gzip'd tar at @buf into @ms: regular files
 * with their bytes, other entries as their kind.  The tar stream may
 * decompress to at most nscc_neff_member_limit() bytes (headers, data
 * and padding; Documentation/security.rst): an entry whose header size
 * does not fit in what is left is refused before its data is read.
 */
static int read_archive(struct nscc_members *ms, const void *buf, size_t len,
			struct nscc_err *err)
{
	uint64_t limit = nscc_neff_member_limit();
	struct archive *a;
	struct archive_entry *e;
	int r, ret = 0;

	if (!limit)
		return nscc_errf(err, -EINVAL, "%s '%s' is not a byte count 1..%llu",
				 NSCC_NEFF_MAX_MEMBER_BYTES_ENV,
				 getenv(NSCC_NEFF_MAX_MEMBER_BYTES_ENV),
				 (unsigned long long)NSCC_NEFF_MAX_MEMBER_BYTES_CEIL);
	a = archive_read_new();
	if (!a)
		return nscc_errf(err, -ENOMEM, "out of memory");
	archive_read_support_filter_gzip(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_memory(a, buf, len) != ARCHIVE_OK) {
		ret = nscc_errf(err, -EBADMSG, "corrupted NEFF: data region is not a gzip'd tar: %s",
				archive_error_string(a));
		goto out;
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = strip_dot(archive_entry_pathname(e) ?: "");
		const char *kind = entry_kind(e);
		/* tar bytes so far, this entry's header included */
		la_int64_t pos = archive_filter_bytes(a, 0);
		la_int64_t size = archive_entry_size(e);
		uint64_t budget;
		char *data = NULL, *dname;
		size_t got = 0;

		if (pos < 0 || (uint64_t)pos > limit) {
			ret = over_limit(limit, name, err);
			goto out;
		}
		budget = limit - (uint64_t)pos;
		if (size < 0)
			size = 0;
		if ((uint64_t)size > budget) {
			ret = over_limit(limit, name, err);
			goto out;
		}
		if (!*name)
			continue;
		if (kind) {
			/* kept so a lookup can say what it is ("sg00/" as "sg00") */
			size_t n = strlen(name);

			while (n && name[n - 1] == '/')
				n--;
			dname = strndup(name, n);
			if (!dname) {
				ret = nscc_errf(err, -ENOMEM, "out of memory");
				goto out;
			}
			ret = n ? members_add(ms, dname, NULL, 0, kind, err) : 0;
			free(dname);
			if (ret)
				goto out;
			continue;
		}
		ret = read_entry_data(a, name, (size_t)size, budget, limit, &data,
				      &got, err);
		if (ret)
			goto out;
		ret = members_add(ms, name, data, got, NULL, err);
		if (ret)
			goto out;
	}
	if (r != ARCHIVE_EOF)
		ret = nscc_errf(err, -EBADMSG, "corrupted NEFF: bad tar archive: %s",
				archive_error_string(a));
out:
	archive_read_free(a);
	return ret;
}

int nscc_neff_has_member(struct nscc_neff *neff, const char *name)
{
	const void *d;
	size_t l;

	return nscc_neff_member(neff, name, &d, &l, NULL) == 0;
}

int nscc_neff_member(struct nscc_neff *neff, const char *name,
		     const void **data, size_t *len, struct nscc_err *err)
{
	struct nscc_members *ms = neff->members;
	struct nscc_member *mb;
	char *path;
	void *buf;
	size_t blen;
	int ret;

	name = strip_dot(name);
	if (has_dotdot(name))
		return nscc_errf(err, -EINVAL, "member name '%s' has a '..' component",
				 name);
	mb = nscc_hash_get_str(&ms->by_name, name);
	if (!mb && ms->dir) {
		if (asprintf(&path, "%s/%s", ms->dir, name) < 0)
			return nscc_errf(err, -ENOMEM, "out of memory");
		ret = nsim_read_file(path, &buf, &blen);
		free(path);
		if (ret == -ENOENT || ret == -EISDIR || ret == -ENOTDIR)
			goto missing;
		if (ret == -EINVAL)
			return nscc_errf(err, ret, "member '%s' is not a regular file",
					 name);
		if (ret)
			return nscc_errf(err, ret, "member '%s': %s", name,
					 strerror(-ret));
		ret = members_add(ms, name, buf, blen, NULL, err);
		if (ret)
			return ret;
		mb = ms->arr[ms->count - 1];
	}
	if (!mb)
		goto missing;
	if (mb->not_regular)
		return nscc_errf(err, -EINVAL, "member '%s' is a %s; NEFF members must be regular files",
				 name, mb->not_regular);
	*data = mb->data;
	*len = mb->len;
	return 0;
missing:
	return nscc_errf(err, -ENOENT, "member '%s' is missing from the NEFF",
			 name);
}

/* @padded: JV_PADDING readable bytes follow the text (jv_parse_padded()) */
static int json_parse(const void *buf, size_t len, int padded,
		      const char *what, struct jv_doc **out,
		      struct nscc_err *err)
{
	struct jv_error je;
	int ret = padded ? jv_parse_padded(buf, len, out, &je) :
			   jv_parse(buf, len, out, &je);

	if (ret == -ENOMEM)
		return nscc_errf(err, ret, "out of memory");
	if (ret && !je.line)	/* one jansson takes, simdjson cannot */
		return nscc_errf(err, ret, "%s: bad JSON at byte %zu: %s", what,
				 je.position, je.text);
	if (ret)
		return nscc_errf(err, ret, "%s: bad JSON at line %d column %d: %s",
				 what, je.line, je.column, je.text);
	return 0;
}

int nscc_neff_json(struct nscc_neff *neff, const char *name,
		   struct jv_doc **out, struct nscc_err *err)
{
	const void *d;
	size_t l;
	int ret = nscc_neff_member(neff, name, &d, &l, err);

	/* every member's bytes are padded (read_entry_data(), nsim_read_file()) */
	return ret ? ret : json_parse(d, l, 1, name, out, err);
}

int nscc_json_parse(const void *buf, size_t len, const char *what,
		    struct jv_doc **out, struct nscc_err *err)
{
	return json_parse(buf, len, 0, what, out, err);
}

uint32_t nscc_target_gen(const char *t)
{
	const struct kbin_gen *g = kbin_gen_target_by_name(t);

	return g ? g->gen : 0;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static void hex16(char out[33], const uint8_t *b)
{
	int i;

	for (i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/* Header, MD5, feature bits: the checks before anything is unpacked. */
static int parse_header(struct nscc_neff_header *h, const uint8_t *buf,
			size_t len, struct nscc_err *err)
{
	uint8_t md[EVP_MAX_MD_SIZE], rev[16];
	char want[33], got[33];
	unsigned int mdlen = 0, i;
	uint64_t bad;

	if (len < NSCC_NEFF_HEADER_SIZE)
		return nscc_errf(err, -EBADMSG, "corrupted NEFF: %zu bytes, shorter than the %u-byte header",
				 len, NSCC_NEFF_HEADER_SIZE);
	memcpy(h->hash, buf + 0xac, 16);
	if (!EVP_Digest(buf + NSCC_NEFF_HEADER_SIZE, len - NSCC_NEFF_HEADER_SIZE,
			md, &mdlen, EVP_md5(), NULL) || mdlen != 16)
		return nscc_errf(err, -ENOMEM, "MD5 (libcrypto EVP) failed");
	for (i = 0; i < 16; i++)
		rev[i] = md[(i & ~3U) + 3 - (i & 3)];
	if (!memcmp(h->hash, md, 16)) {
		h->md5_word_reversed = 0;
	} else if (!memcmp(h->hash, rev, 16)) {
		h->md5_word_reversed = 1;
	} else {
		hex16(want, h->hash);
		hex16(got, md);
		return nscc_errf(err, -EBADMSG, "corrupted NEFF: MD5 of the %zu-byte data region is %s, the header hash is %s (neither plain nor word-reversed)",
				 len - NSCC_NEFF_HEADER_SIZE, got, want);
	}
	h->feature_bits = rd64(buf + 0x220);
	bad = h->feature_bits & ~NSCC_NEFF_FEATURES_SUPPORTED;
	if (bad) {
		char bits[400] = "";
		size_t o = 0;

		for (i = 0; i < 64 && o < sizeof(bits) - 8; i++)
			if (bad & (1ULL << i))
				o += snprintf(bits + o, sizeof(bits) - o, "%s%u",
					      o ? ", " : "", i);
		return nscc_errf(err, -EOPNOTSUPP, "unsupported NEFF feature bits 0x%llx (bit%s %s); this version supports 0x%llx",
				 (unsigned long long)bad,
				 (bad & (bad - 1)) ? "s" : "", bits,
				 (unsigned long long)NSCC_NEFF_FEATURES_SUPPORTED);
	}
	h->format_version = rd64(buf + 0x0);
	h->header_size = rd64(buf + 0x8);
	h->data_size = rd64(buf + 0x10);
	h->num_tpb = rd32(buf + 0xa8);
	memcpy(h->uuid, buf + 0xcc, 16);
	memcpy(h->name, buf + 0xdc, 256);
	h->name[256] = 0;
	h->requested_tpb_count = rd32(buf + 0x1dc);
	h->tpb_per_node = rd32(buf + 0x1e0);
	h->lnc_size = rd32(buf + 0x228);
	if (h->header_size != NSCC_NEFF_HEADER_SIZE)
		return nscc_errf(err, -EBADMSG, "corrupted NEFF: header_size %llu, expected %u",
				 (unsigned long long)h->header_size,
				 NSCC_NEFF_HEADER_SIZE);
	if (h->data_size != len - NSCC_NEFF_HEADER_SIZE)
		return nscc_errf(err, -EBADMSG, "corrupted NEFF: header data_size %llu, the data region holds %zu bytes",
				 (unsigned long long)h->data_size,
				 len - NSCC_NEFF_HEADER_SIZE);
	return 0;
}

static const char *json_str(struct jv o, const char *key)
{
	return jv_str(jv_get(o, key));
}

/*
 * neff.json's NSCC_NEFF_MARKER_KEY (neuronsim's own; a real NEFF has none):
 * "compute" says the engine programs are in neuronsim's compute encoding
 * (KBIN_PROG_F_COMPUTE, Documentation/compute.rst), so the plan gets the
 * compute checks; anything else is refused, never taken as opaque.
 */
static int prog_marker(struct nscc_neff *neff, struct jv root,
		       struct nscc_err *err)
{
	struct jv mk = jv_get(root, NSCC_NEFF_MARKER_KEY);
	const char *s = jv_str(mk);

	neff->prog_flags = 0;
	if (jv_is_none(mk))
		return 0;
	if (!s)
		return nscc_errf(err, -EINVAL, "neff.json: field '%s' is not a string",
				 NSCC_NEFF_MARKER_KEY);
	if (strcmp(s, NSCC_NEFF_MARKER_COMPUTE))
		return nscc_errf(err, -EINVAL, "neff.json: field '%s' is '%.64s', not \"%s\"",
				 NSCC_NEFF_MARKER_KEY, s, NSCC_NEFF_MARKER_COMPUTE);
	neff->prog_flags = KBIN_PROG_F_COMPUTE;
	return 0;
}

/*
 * neff.json -> kelf member (the node whose attrs.func_name is __kelf) and
 * the program marker.
 */
static int find_kelf(struct nscc_neff *neff, struct nscc_err *err)
{
	struct jv_doc *nj;
	struct jv nodes, node;
	struct jv_iter it;
	const char *kelf = NULL;
	size_t i;
	int ret;

	ret = nscc_neff_json(neff, "neff.json", &nj, err);
	if (ret)
		return ret;
	nodes = jv_get(jv_root(nj), "nodes");
	if (!jv_is_array(nodes)) {
		jv_free(nj);
		return nscc_errf(err, -EINVAL, "neff.json: field 'nodes' is missing or not an array");
	}
	for (jv_iter_init(&it, nodes), i = 0; jv_next(&it, NULL, NULL, &node);
	     i++) {
		struct jv attrs = jv_get(node, "attrs");
		const char *fn = json_str(attrs, "func_name");

		if (fn && !strcmp(fn, "__kelf")) {
			kelf = json_str(attrs, "kelf");
			if (!kelf) {
				jv_free(nj);
				return nscc_errf(err, -EINVAL, "neff.json: nodes[%zu]: attrs.kelf is missing or not a string",
						 i);
			}
			break;
		}
	}
	if (!kelf) {
		jv_free(nj);
		return nscc_errf(err, -EINVAL, "neff.json: no node has attrs.func_name \"__kelf\"");
	}
	ret = prog_marker(neff, jv_root(nj), err);
	if (ret) {
		jv_free(nj);
		return ret;
	}
	neff->kelf_member = strdup(strip_dot(kelf));
	jv_free(nj);
	return neff->kelf_member ? 0 : nscc_errf(err, -ENOMEM, "out of memory");
}

/* kelf -> target generation and graphs[] {name, definition}. */
static int parse_kelf(struct nscc_neff *neff, struct nscc_err *err)
{
	const char *km = neff->kelf_member, *t;
	struct jv_doc *kd;
	struct jv k, graphs, g;
	struct jv_iter it;
	const void *dd;
	size_t i, dl;
	int ret;

	ret = nscc_neff_json(neff, km, &kd, err);
	if (ret) {
		if (ret == -ENOENT)
			nscc_err_prefix(err, "neff.json names kelf '%s'", km);
		return ret;
	}
	k = jv_root(kd);
	t = json_str(k, "target");
	if (!t) {
		ret = nscc_errf(err, -EINVAL, "%s: field 'target' is missing or not a string", km);
		goto out;
	}
	neff->target = strdup(t);
	neff->target_gen = nscc_target_gen(t);
	if (!neff->target_gen) {
		char names[KBIN_GEN_LIST_MAX];

		ret = nscc_errf(err, -EINVAL, "%s: target '%s' is not known (%s)", km, t,
				kbin_gen_list(names, sizeof(names), KBIN_GEN_LIST_ALIASES));
		goto out;
	}
	graphs = jv_get(k, "graphs");
	if (!jv_is_array(graphs) || !jv_size(graphs) ||
	    jv_size(graphs) > KBIN_MAX_SUBGRAPHS) {
		ret = nscc_errf(err, -EINVAL, "%s: field 'graphs' must be an array of 1..%u subgraphs",
				km, KBIN_MAX_SUBGRAPHS);
		goto out;
	}
	neff->sgs = calloc(jv_size(graphs), sizeof(*neff->sgs));
	if (!neff->sgs) {
		ret = nscc_errf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (jv_iter_init(&it, graphs), i = 0; jv_next(&it, NULL, NULL, &g);
	     i++) {
		const char *name = json_str(g, "name");
		const char *def = json_str(g, "definition");

		if (!name || !def) {
			ret = nscc_errf(err, -EINVAL, "%s: graphs[%zu]: field '%s' is missing or not a string",
					km, i, name ? "definition" : "name");
			goto out;
		}
		neff->sgs[i].name = strdup(name);
		neff->sgs[i].definition = strdup(strip_dot(def));
		neff->num_sgs++;
		if (!neff->sgs[i].name || !neff->sgs[i].definition) {
			ret = nscc_errf(err, -ENOMEM, "out of memory");
			goto out;
		}
		/* missing, a link, ...: the member's own refusal, placed */
		ret = nscc_neff_member(neff, neff->sgs[i].definition, &dd, &dl,
				       err);
		if (ret) {
			nscc_err_prefix(err, "%s: graphs[%zu] '%s'", km, i, name);
			goto out;
		}
	}
out:
	jv_free(kd);
	return ret;
}

static int neff_new(struct nscc_neff **out, struct nscc_err *err)
{
	struct nscc_neff *neff = calloc(1, sizeof(*neff));

	if (neff)
		neff->members = calloc(1, sizeof(*neff->members));
	if (!neff || !neff->members) {
		free(neff);
		return nscc_errf(err, -ENOMEM, "out of memory");
	}
	nscc_hash_init(&neff->members->by_name);
	*out = neff;
	return 0;
}

static int neff_finish_open(struct nscc_neff *neff, struct nscc_neff **out,
			    struct nscc_err *err)
{
	int ret = find_kelf(neff, err);

	if (!ret)
		ret = parse_kelf(neff, err);
	if (ret) {
		nscc_neff_free(neff);
		return ret;
	}
	*out = neff;
	return 0;
}

int nscc_neff_open_mem(const void *buf, size_t len, struct nscc_neff **out,
		       struct nscc_err *err)
{
	struct nscc_neff *neff;
	int ret;

	*out = NULL;
	ret = neff_new(&neff, err);
	if (ret)
		return ret;
	neff->has_header = 1;
	ret = parse_header(&neff->hdr, buf, len, err);
	if (!ret)
		ret = read_archive(neff->members,
				   (const uint8_t *)buf + NSCC_NEFF_HEADER_SIZE,
				   len - NSCC_NEFF_HEADER_SIZE, err);
	if (ret) {
		nscc_neff_free(neff);
		return ret;
	}
	return neff_finish_open(neff, out, err);
}

int nscc_neff_open(const char *path, struct nscc_neff **out,
		   struct nscc_err *err)
{
	struct nscc_neff *neff;
	struct stat st;
	void *buf;
	size_t len;
	int ret;

	*out = NULL;
	if (stat(path, &st))
		return nscc_errf(err, -errno, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		ret = neff_new(&neff, err);
		if (ret)
			return ret;
		neff->members->dir = strdup(path);
		if (!neff->members->dir) {
			nscc_neff_free(neff);
			return nscc_errf(err, -ENOMEM, "out of memory");
		}
		return neff_finish_open(neff, out, err);
	}
	if (!S_ISREG(st.st_mode))
		return nscc_errf(err, -EINVAL, "not a regular file or a directory");
	ret = nsim_read_file(path, &buf, &len);
	if (ret)
		return nscc_errf(err, ret, "%s", strerror(-ret));
	ret = nscc_neff_open_mem(buf, len, out, err);
	free(buf);
	return ret;
}

void nscc_neff_free(struct nscc_neff *neff)
{
	uint32_t i;

	if (!neff)
		return;
	for (i = 0; i < neff->num_sgs; i++) {
		free(neff->sgs[i].name);
		free(neff->sgs[i].definition);
	}
	free(neff->sgs);
	free(neff->kelf_member);
	free(neff->target);
	members_free(neff->members);
	free(neff);
}

int nscc_npy_data(const void *buf, size_t len, size_t *off, char *descr,
		  struct nscc_err *err)
{
	const uint8_t *p = buf;
	uint64_t hl, start;
	const char *d, *e;

	if (descr)
		descr[0] = 0;
	if (len < 10 || memcmp(p, "\x93NUMPY", 6))
		return nscc_errf(err, -EINVAL, "not a .npy file (no \\x93NUMPY magic)");
	if (p[6] == 1) {
		hl = p[8] | (p[9] << 8);
		start = 10;
	} else if (p[6] == 2 || p[6] == 3) {
		if (len < 12)
			return nscc_errf(err, -EINVAL, ".npy version %u header is truncated",
					 p[6]);
		hl = rd32(p + 8);
		start = 12;
	} else {
		return nscc_errf(err, -EINVAL, ".npy version %u.%u is not supported (1..3)",
				 p[6], p[7]);
	}
	if (start + hl > len)
		return nscc_errf(err, -EINVAL, ".npy header length %llu runs past the %zu-byte file",
				 (unsigned long long)hl, len);
	*off = start + hl;
	if (descr) {
		/* 'descr': '<f4' inside the header dict */
		d = memmem(p + start, hl, "'descr':", 8);
		if (d) {
			d = memchr(d + 8, '\'', (const char *)p + start + hl - (d + 8));
			e = d ? memchr(d + 1, '\'', (const char *)p + start + hl - (d + 1)) : NULL;
			if (d && e && e - d - 1 < 16) {
				memcpy(descr, d + 1, e - d - 1);
				descr[e - d - 1] = 0;
			}
		}
	}
	return 0;
}
