// SPDX-License-Identifier: GPL-2.0
/*
 * neuronsim - command-line client of /dev/neuronsim.
 *
 *   neuronsim info      the simulated device's geometry and address map
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/neuronsim.h>

static int cmd_info(void)
{
	struct neuronsim_info info;
	unsigned int i;
	int fd;

	fd = open("/dev/" NEURONSIM_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "neuronsim: /dev/%s: %s\n", NEURONSIM_DEVICE_NAME,
			strerror(errno));
		return 1;
	}
	if (ioctl(fd, NEURONSIM_IOC_GET_INFO, &info)) {
		fprintf(stderr, "neuronsim: GET_INFO: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	printf("device      %s (generation %u), ABI %u\n", info.arch_name,
	       info.arch_gen, info.abi_version);
	printf("NeuronCores %u, SBUF %u x %u bytes each, PSUM %llu bytes each\n",
	       info.num_cores, info.sbuf_partitions, info.sbuf_partition_size,
	       (unsigned long long)info.psum_size);
	for (i = 0; i < info.num_cores; i++)
		printf("  sbuf%-3u   0x%011llx  window %llu MiB\n", i,
		       (unsigned long long)(info.sbuf_base + i * info.sbuf_window_size),
		       (unsigned long long)info.sbuf_window_size >> 20);
	for (i = 0; i < info.num_hbm_channels; i++)
		printf("  hbm%-4u   0x%011llx  %llu GiB\n", i,
		       (unsigned long long)info.hbm_base[i],
		       (unsigned long long)info.hbm_channel_size >> 30);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "info"))
		return cmd_info();
	fprintf(stderr, "usage: neuronsim info\n");
	return 2;
}
