// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the scenario-file parser. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "scenario.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char path[64];
	static int fd = -1;
	struct scenario sc;
	char err[512];

	if (fd < 0) {
		fd = memfd_create("scenario", 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	scenario__init(&sc);
	if (!scenario__load(&sc, path, err, sizeof(err)))
		for (int i = 0; i < sc.nr_modes; i++)
			free(mode__kernel_args(&sc, &sc.modes[i], i + 1));
	scenario__free(&sc);
	return 0;
}
