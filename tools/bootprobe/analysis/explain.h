/* SPDX-License-Identifier: GPL-2.0 */
/* Why a probe was killed: `bootprobe explain` of one boot, as text or JSON. */
#ifndef BOOTPROBE_EXPLAIN_H
#define BOOTPROBE_EXPLAIN_H

#include <stdio.h>

#include "boot.h"

struct json_object;

void boot__explain(const struct boot_data *b, FILE *out);
struct json_object *boot__explain_json(const struct boot_data *b);
/* Signals other than SIGKILL that explain follows (udev.timeout_signal's). */
int boot__other_signals(const struct boot_data *b);

#endif
