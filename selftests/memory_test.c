// SPDX-License-Identifier: GPL-2.0
/*
 * memory_test - "will it fit" against the device: the bytes neuronsim-cc
 * plan --memory says a LOAD charges each NeuronCore per device-memory
 * category, computed on the host, are what the sysfs counters show
 * after the LOAD (Documentation/compiler.rst, "Will it fit").
 *
 * The host step (scripts/plan-memory.sh, from scripts/neff-plans.sh and
 * selftests/mk/bir.mk) wrote, next to each DIR/NAME.kbin, the command's
 * JSON for one or two first cores: DIR/NAME.mem.CORE.json.
 *
 *   memory_test DIR...   (the device: $NSIM_DEV, as every test)
 *
 * For each JSON whose generation is the device's: sysfs
 * neuron_coreM/stats/memory_usage/device_mem/<category>/present of the
 * NeuronCores the load takes and device_mem/present of every NeuronCore
 * are read; the plan is loaded from the JSON's first core (which must
 * succeed: the JSON says it fits); each of them must have grown by
 * exactly the JSON's figure (0 for a core the load does not take); after
 * UNLOAD each must be back where it was.  One TAP line per JSON; every difference is a "#"
 * line naming the plan, the NeuronCore and the category.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "kselftest.h"
#include "plans.h"
#include "nsim_file.h"

/* the Neuron driver's device-memory categories, in its order (sysfs.rst) */
static const char *const cats[] = {
	"model_code", "tensors", "constants", "model_shared_scratchpad",
	"runtime_memory", "driver_memory", "collectives",
	"nonshared_scratchpad", "notifications", "dma_rings", "uncategorized",
};
#define NCATS	(sizeof(cats) / sizeof(cats[0]))
/* the per-core total, device_mem/present, after the categories */
#define NCOLS	(NCATS + 1)

static long long counters[NEURONSIM_MAX_CORES][NCOLS];

/*
 * The device_mem counters of every NeuronCore into @v: each category of
 * the cores @load marks, device_mem/present of every core (a core the
 * load does not take must keep its total; a LOAD only adds, so no
 * category of it can move then).  Reading fewer files keeps the test
 * short in the TCG VM.  0, or -1 (with a message).
 */
static int read_counters(unsigned int ncores, const char *load,
			 long long (*v)[NCOLS])
{
	int dev = nsim_dev_index() < 0 ? 0 : nsim_dev_index();
	char path[256];
	unsigned int c, k;

	for (c = 0; c < ncores; c++) {
		for (k = load[c] ? 0 : NCATS; k < NCOLS; k++) {
			snprintf(path, sizeof(path),
				 "/sys/class/neuronsim/neuronsim%d/neuron_core%u/stats/memory_usage/device_mem/%s%spresent",
				 dev, c, k < NCATS ? cats[k] : "",
				 k < NCATS ? "/" : "");
			v[c][k] = read_number(path);
			if (v[c][k] < 0) {
				ksft_print_msg("%s: unreadable\n", path);
				return -1;
			}
		}
	}
	return 0;
}

/* the JSON's figure for NeuronCore @core, column @k (0 when it has none) */
static long long planned(json_t *j, unsigned int core, unsigned int k)
{
	json_t *cores = json_object_get(j, "cores"), *c;
	size_t i;

	json_array_foreach(cores, i, c) {
		if (json_integer_value(json_object_get(c, "core")) != core)
			continue;
		if (k == NCATS)
			return json_integer_value(json_object_get(c, "total"));
		return json_integer_value(json_object_get(json_object_get(c, "device_mem"),
							  cats[k]));
	}
	return 0;
}

/*
 * One JSON: load, compare, unload, compare.  Return: 1 when it ran
 * (passed or failed), 0 when it is another generation's.
 */
static int test_json(int fd, const struct neuronsim_info *info,
		     const char *dir, const char *name)
{
	long long after[NEURONSIM_MAX_CORES][NCOLS];
	char load[NEURONSIM_MAX_CORES];
	unsigned int fails = 0, c, k, first;
	char path[512], kbin[512], log[1024], label[600];
	struct neuronsim_load lr;
	struct plan p = { 0 };
	json_error_t jerr;
	json_t *j;
	uint32_t id;
	long long want, bytes = 0;
	struct timespec t0, t1;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	j = json_load_file(path, 0, &jerr);
	if (!j) {
		ksft_test_result_fail("memory %s: %s\n", name, jerr.text);
		return 1;
	}
	if (json_integer_value(json_object_get(j, "arch_gen")) != info->arch_gen) {
		json_decref(j);
		return 0;
	}
	first = (unsigned int)json_integer_value(json_object_get(j, "first_core"));
	memset(load, 0, sizeof(load));
	for (c = first; c < info->num_cores &&
	     c < first + json_array_size(json_object_get(j, "cores")); c++)
		load[c] = 1;
	snprintf(label, sizeof(label), "%s", name);
	snprintf(kbin, sizeof(kbin), "%s/%.*s.kbin", dir,
		 (int)(strstr(name, ".mem.") - name), name);
	if (!json_is_true(json_object_get(j, "fits")) ||
	    nsim_read_file(kbin, &p.buf, &p.len)) {
		ksft_test_result_fail("memory %s: %s\n", label,
				      p.buf ? "plan --memory says it does not fit" :
				      "the plan is unreadable");
		goto out;
	}
	if (read_counters(info->num_cores, load, counters)) {
		ksft_test_result_fail("memory %s: sysfs\n", label);
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = nsim_load(fd, &p, first, &id, &lr, log, sizeof(log));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ret) {
		ksft_test_result_fail("memory %s: LOAD from NeuronCore %u: %s: %.300s\n",
				      label, first, strerror(-ret), log);
		goto out;
	}
	if (read_counters(info->num_cores, load, after))
		fails++;
	for (c = 0; !fails && c < info->num_cores; c++) {
		for (k = load[c] ? 0 : NCATS; k < NCOLS; k++) {
			want = planned(j, c, k);
			if (after[c][k] - counters[c][k] == want)
				continue;
			plan_fail(label, &fails,
				  "NeuronCore %u %s: sysfs grew by %lld bytes, plan --memory says %lld",
				  c, k < NCATS ? cats[k] : "device_mem/present",
				  after[c][k] - counters[c][k], want);
		}
		bytes += after[c][NCATS] - counters[c][NCATS];
	}
	ret = nsim_unload(fd, id);
	if (ret)
		plan_fail(label, &fails, "UNLOAD: %s", strerror(-ret));
	if (read_counters(info->num_cores, load, after))
		fails++;
	for (c = 0; c < info->num_cores; c++)
		for (k = load[c] ? 0 : NCATS; k < NCOLS; k++)
			if (after[c][k] != counters[c][k])
				plan_fail(label, &fails,
					  "NeuronCore %u %s: %lld after UNLOAD, %lld before LOAD",
					  c, k < NCATS ? cats[k] : "device_mem/present",
					  after[c][k], counters[c][k]);
	ksft_test_result(!fails, "memory %s: NeuronCores %u-%u: sysfs grew by %lld bytes; every core and category against plan --memory, and after UNLOAD against before (load %ld ms)\n",
			 label, first,
			 first + (unsigned int)json_array_size(json_object_get(j, "cores")) - 1,
			 bytes, (long)((t1.tv_sec - t0.tv_sec) * 1000 +
				       (t1.tv_nsec - t0.tv_nsec) / 1000000));
out:
	plan_free(&p);
	json_decref(j);
	return 1;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	struct neuronsim_info info;
	unsigned int ran = 0;
	int fd, i;

	ksft_print_header();
	fd = nsim_open();
	if (fd < 0 || nsim_get_info(fd, &info)) {
		ksft_set_plan(1);
		ksft_test_result_fail("memory: the device: %s\n", strerror(errno));
		return ksft_exit_fail();
	}
	if (info.num_cores > NEURONSIM_MAX_CORES)
		return ksft_exit_fail_msg("%u NeuronCores\n", info.num_cores);
	for (i = 1; i < argc; i++) {
		char **names = NULL;
		size_t n = 0, k;
		struct dirent *de;
		DIR *d = opendir(argv[i]);

		while (d && (de = readdir(d))) {
			char **g;

			if (!strstr(de->d_name, ".mem.") ||
			    !strstr(de->d_name, ".json"))
				continue;
			g = realloc(names, (n + 1) * sizeof(*names));
			if (!g)
				break;
			names = g;
			names[n] = strdup(de->d_name);
			if (names[n])
				n++;
		}
		if (d)
			closedir(d);
		qsort(names, n, sizeof(*names), cmp_names);
		for (k = 0; k < n; k++) {
			ran += test_json(fd, &info, argv[i], names[k]);
			free(names[k]);
		}
		free(names);
	}
	close(fd);
	if (!ran)
		return ksft_exit_skip("memory: no plan --memory JSON for %s (generation %u) in the directories given\n",
				      info.arch_name, info.arch_gen);
	ksft_set_plan(ran);
	return ksft_get_fail_cnt() ? ksft_exit_fail() : ksft_exit_pass();
}
