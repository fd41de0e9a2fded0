// SPDX-License-Identifier: GPL-2.0
#include "commands.h"

#include <stdio.h>

int usage_error(const char *cmd, const char *msg, const char *arg)
{
	fprintf(stderr, "bootprobe %s: %s%s%s (see bootprobe %s --help)\n", cmd, msg,
		arg ? " " : "", arg ? arg : "", cmd);
	return 2;
}
