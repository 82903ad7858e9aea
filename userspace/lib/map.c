// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * map.c - libneuronsim: an SVG picture of where every variable of a model
 * sits in device memory.  One band per region in use (an HBM channel, a
 * NeuronCore's SBUF window, the scratchpad), scaled to the span the
 * model's variables cover; one rectangle per variable coloured by mr_type,
 * with a <title> child that browsers show on hover.  Overlapping variables
 * (MR_PTR and MR_REMOTE share their target's address) go to extra lanes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kbin_kind.h"

#define MAP_MARGIN	16
#define MAP_LABEL_H	18
#define MAP_LANE_H	16
#define MAP_MAX_LANES	16
#define MAP_BAND_GAP	14

/* a palette: kind i gets colour i; kinds past its end the grey of 0 */
static const char *const map_palette[] = {
	"#999999", "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#86bcb6",
};

static const char *map_colour(__u32 mr_type)
{
	return mr_type < sizeof(map_palette) / sizeof(map_palette[0]) ?
	       map_palette[mr_type] : map_palette[0];
}

enum map_kind { MAP_HBM, MAP_SBUF, MAP_SCRATCHPAD, MAP_OTHER };

struct map_band {
	enum map_kind kind;
	__u32 index;		/* channel or core */
	__u64 lo, hi;		/* span covered by its vars */
	size_t nvars;
	__u32 lanes;
};

struct map_item {
	const struct neuronsim_map_var *v;
	int band;
	__u32 lane;
};

static void map_band_of(const struct neuronsim_info *info,
			const struct neuronsim_map_var *v,
			enum map_kind *kind, __u32 *index)
{
	__u32 i;

	*index = 0;
	if (kbin_kind(v->mr_type)->storage == KBIN_STORAGE_SCRATCHPAD) {
		*kind = MAP_SCRATCHPAD;
		return;
	}
	for (i = 0; i < info->num_hbm_channels && i < NEURONSIM_MAX_HBM_CHANNELS; i++) {
		if (info->hbm_base[i] && v->address >= info->hbm_base[i] &&
		    v->address - info->hbm_base[i] < info->hbm_channel_size) {
			*kind = MAP_HBM;
			*index = i;
			return;
		}
	}
	if (info->sbuf_window_size && v->address >= info->sbuf_base &&
	    (v->address - info->sbuf_base) / info->sbuf_window_size <
	    info->num_cores) {
		*kind = MAP_SBUF;
		*index = (v->address - info->sbuf_base) / info->sbuf_window_size;
		return;
	}
	*kind = MAP_OTHER;
}

/* XML text: escape markup, drop bytes XML 1.0 forbids, keep bytes >= 0x80
 * as character references so any name yields a well-formed document */
static void map_xml(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	for (; *p; p++) {
		switch (*p) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			if (*p < 0x20 && *p != '\t')
				fputc('?', out);
			else if (*p >= 0x80)
				fprintf(out, "&#x%02x;", *p);
			else
				fputc(*p, out);
		}
	}
}

static const char *map_band_name(const struct map_band *b, char *buf,
				 size_t len)
{
	switch (b->kind) {
	case MAP_HBM:
		snprintf(buf, len, "HBM channel %u", b->index);
		break;
	case MAP_SBUF:
		snprintf(buf, len, "SBUF NeuronCore %u", b->index);
		break;
	case MAP_SCRATCHPAD:
		snprintf(buf, len, "scratchpad");
		break;
	default:
		snprintf(buf, len, "other");
	}
	return buf;
}

static int map_cmp_item(const void *a, const void *b)
{
	const struct map_item *x = a, *y = b;

	if (x->band != y->band)
		return x->band < y->band ? -1 : 1;
	if (x->v->address != y->v->address)
		return x->v->address < y->v->address ? -1 : 1;
	return 0;
}

NSIM_EXPORT int neuronsim_map_svg(FILE *out, const struct neuronsim_info *info,
				  const struct neuronsim_map_var *vars,
				  size_t n, const struct neuronsim_map_opts *opts)
{
	struct map_band bands[NEURONSIM_MAX_HBM_CHANNELS + NEURONSIM_MAX_CORES + 2];
	__u64 lane_end[MAP_MAX_LANES];
	struct map_item *items;
	size_t nitems = 0, nbands = 0, unstaged = 0, i, j;
	unsigned int width, plot_w, y, height;
	const char *title;
	char name[64];
	int err;

	if (!out || !info || (!vars && n))
		return -EINVAL;
	err = OPTS_CHECK(opts);
	if (err)
		return err;
	width = OPTS_GET(opts, width, 0);
	if (!width)
		width = 960;
	if (width < 320)
		width = 320;
	title = OPTS_GET(opts, title, NULL);
	plot_w = width - 2 * MAP_MARGIN;

	items = calloc(n ? n : 1, sizeof(*items));
	if (!items)
		return -ENOMEM;

	/* assign each staged var to a band */
	for (i = 0; i < n; i++) {
		const struct neuronsim_map_var *v = &vars[i];
		enum map_kind kind;
		__u32 index;
		__u64 end;

		if (!v->staged) {
			unstaged++;
			continue;
		}
		map_band_of(info, v, &kind, &index);
		for (j = 0; j < nbands; j++)
			if (bands[j].kind == kind && bands[j].index == index)
				break;
		if (j == nbands) {
			if (nbands == sizeof(bands) / sizeof(bands[0]))
				j = nbands - 1;	/* cannot happen: merge */
			else
				nbands++;
			bands[j] = (struct map_band){
				.kind = kind, .index = index,
				.lo = v->address, .hi = v->address,
			};
		}
		end = v->address + (v->size ? v->size : 1);
		if (end < v->address)
			end = ~0ULL;
		if (v->address < bands[j].lo)
			bands[j].lo = v->address;
		if (end > bands[j].hi)
			bands[j].hi = end;
		bands[j].nvars++;
		items[nitems].v = v;
		items[nitems].band = j;
		nitems++;
	}
	qsort(items, nitems, sizeof(*items), map_cmp_item);

	/* lanes: first lane whose last end is <= this start */
	for (i = 0; i < nitems; i++) {
		struct map_band *b = &bands[items[i].band];
		__u32 l;

		if (i == 0 || items[i - 1].band != items[i].band)
			memset(lane_end, 0, sizeof(lane_end));
		for (l = 0; l < MAP_MAX_LANES - 1; l++)
			if (lane_end[l] <= items[i].v->address)
				break;
		items[i].lane = l;
		lane_end[l] = items[i].v->address + items[i].v->size;
		if (l + 1 > b->lanes)
			b->lanes = l + 1;
	}

	height = MAP_MARGIN + 28;
	for (j = 0; j < nbands; j++)
		height += MAP_LABEL_H + bands[j].lanes * MAP_LANE_H + MAP_BAND_GAP;
	height += 24 * ((KBIN_MR_TYPE_MAX + 3) / 4) + MAP_MARGIN + 20;

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n",
		width, height, width, height);
	fputs("<title>", out);
	map_xml(out, title ? title : "neuronsim memory map");
	fputs("</title>\n<style>text{font-family:monospace;font-size:12px}"
	      " rect.var{stroke:#222;stroke-width:0.3}</style>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n",
		width, height);
	fprintf(out, "<text x=\"%u\" y=\"%u\" font-weight=\"bold\">", MAP_MARGIN,
		MAP_MARGIN + 6);
	map_xml(out, title ? title : "neuronsim memory map");
	fprintf(out, " (%s, %zu variables, %zu without storage)</text>\n",
		info->arch_name[0] ? info->arch_name : "?", n, unstaged);

	y = MAP_MARGIN + 28;
	for (j = 0; j < nbands; j++) {
		struct map_band *b = &bands[j];
		__u64 span = b->hi - b->lo ? b->hi - b->lo : 1;
		unsigned int bh = b->lanes * MAP_LANE_H;

		fprintf(out, "<g class=\"band\">\n<text x=\"%u\" y=\"%u\">%s: 0x%" PRIx64
			" .. 0x%" PRIx64 " (%zu variables)</text>\n",
			MAP_MARGIN, y + 12, map_band_name(b, name, sizeof(name)),
			(uint64_t)b->lo, (uint64_t)b->hi, b->nvars);
		y += MAP_LABEL_H;
		fprintf(out, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" "
			"fill=\"#f3f3f3\" stroke=\"#888\"/>\n",
			MAP_MARGIN, y, plot_w, bh);
		for (i = 0; i < nitems; i++) {
			const struct neuronsim_map_var *v = items[i].v;
			double x0, w;

			if (items[i].band != (int)j)
				continue;
			x0 = (double)(v->address - b->lo) / (double)span * plot_w;
			w = (double)(v->size ? v->size : 1) / (double)span * plot_w;
			if (w < 1.0)
				w = 1.0;
			if (x0 + w > plot_w)
				w = plot_w - x0 > 1.0 ? plot_w - x0 : 1.0;
			fprintf(out, "<rect class=\"var\" x=\"%.2f\" y=\"%u\" width=\"%.2f\" "
				"height=\"%u\" fill=\"%s\"><title>",
				MAP_MARGIN + x0, y + items[i].lane * MAP_LANE_H + 1, w,
				MAP_LANE_H - 2,
				map_colour(v->mr_type));
			fprintf(out, "sg%u/", v->subgraph);
			map_xml(out, v->name);
			fprintf(out, " #%u %s size %" PRIu64 " at 0x%" PRIx64
				"</title></rect>\n", v->var_id,
				neuronsim_mr_type_str(v->mr_type), (uint64_t)v->size,
				(uint64_t)v->address);
		}
		fputs("</g>\n", out);
		y += bh + MAP_BAND_GAP;
	}

	/* legend: one swatch per mr_type */
	y += 6;
	for (i = 1; i <= KBIN_MR_TYPE_MAX; i++) {
		unsigned int col = (i - 1) % 4, row = (i - 1) / 4;
		unsigned int lx = MAP_MARGIN + col * (plot_w / 4);
		unsigned int ly = y + row * 24;

		fprintf(out, "<rect x=\"%u\" y=\"%u\" width=\"14\" height=\"14\" fill=\"%s\"/>"
			"<text x=\"%u\" y=\"%u\">%s (%s)</text>\n", lx, ly,
			map_colour(i), lx + 20, ly + 12, neuronsim_mr_type_str(i),
			neuronsim_mem_region(i));
	}
	fputs("</svg>\n", out);
	free(items);
	fflush(out);
	return ferror(out) ? -EIO : 0;
}
