// SPDX-License-Identifier: GPL-2.0
/*
 * identity.c - what the Neuron tools read about the host and its devices
 * that a simulated device does not have: the EC2 instance (neuron-monitor's
 * instance_info and the Prometheus instance labels) and each device's PCI
 * address, CPU affinity and NUMA node (neuron-ls).  Every simulated value
 * is here, once, and in Documentation/userspace.rst ("Simulated values");
 * "ls" and "monitor" both read it.
 *
 * The topology is not here: which devices a device is connected to is
 * the module's (sysfs connected_devices, Documentation/sysfs.rst), read
 * as the driver's tools read it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "main.h"
#include "kbin_gen.h"

/* the simulated instance: fixed, so a dashboard's labels never change */
static const struct nsim_instance nsim_instance_fixed = {
	.name = "neuronsim",
	.id = "i-0000000000000000",
	.availability_zone = "sim-1a",
	.availability_zone_id = "sim1-az1",
	.region = "sim-1",
	.ami_id = "ami-0000000000000000",
	.subnet_id = "subnet-0000000000000000",
};

/**
 * nsim_instance_get() - the simulated EC2 instance.
 * @s: a snapshot; its first device's generation names the instance type
 *	(struct kbin_gen.instance_type), "" when it has no device.
 * @out: filled in; the strings are static.
 */
void nsim_instance_get(const struct snap *s, struct nsim_instance *out)
{
	const struct kbin_gen *g = s->ndev ? kbin_gen_by_number(s->dev[0].d.arch_gen) : NULL;

	*out = nsim_instance_fixed;
	out->type = g && g->instance_type ? g->instance_type : "";
}

/* one line of a file, without its newline; -errno */
static int read_line(const char *path, char *buf, size_t cap)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

/**
 * nsim_dev_ident_get() - a device's simulated PCI identity and its
 *	connections.
 * @d: the device, from a snapshot.
 * @out: filled in.  @out->nconnected is -1 when the module has no
 *	connected_devices file (an older module): neuron-ls's null.
 */
void nsim_dev_ident_get(const struct snap_dev *d, struct nsim_dev_ident *out)
{
	char path[256], line[256], *p, *end;

	memset(out, 0, sizeof(*out));
	/* bus 0x10 + index, as a trn instance numbers its devices' buses */
	snprintf(out->bdf, sizeof(out->bdf), "%02x:00.0", 0x10 + d->d.device);
	/* a simulated device is as near to every online CPU as to any */
	if (read_line("/sys/devices/system/cpu/online", out->cpu_affinity,
		      sizeof(out->cpu_affinity)) || !out->cpu_affinity[0])
		snprintf(out->cpu_affinity, sizeof(out->cpu_affinity), "0");
	snprintf(out->numa_node, sizeof(out->numa_node), "0");
	out->memory_size = d->d.hbm_channel_size * d->d.num_hbm_channels;
	out->nconnected = -1;
	if (neuronsim_sysfs_path(d->d.device, path, sizeof(path)))
		return;
	strncat(path, "/connected_devices", sizeof(path) - strlen(path) - 1);
	if (read_line(path, line, sizeof(line)))
		return;
	out->nconnected = 0;
	for (p = line; *p && out->nconnected < (int)NEURONSIM_MAX_DEVICES; p = end) {
		unsigned long v;

		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		v = strtoul(p, &end, 10);
		if (end == p)
			break;
		out->connected[out->nconnected++] = (__u32)v;
	}
}

/**
 * nsim_runtime_version() - the runtime version neuron-ls shows for a
 *	process holding NeuronCores: the release of neuronsim's libnrt.
 *
 * Return: a static string.
 */
const char *nsim_runtime_version(void)
{
	return NEURONSIM_RELEASE;
}
