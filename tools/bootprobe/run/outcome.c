// SPDX-License-Identifier: GPL-2.0
#include "outcome.h"

#include <string.h>

/*
 * A panic wins over everything: with panic=-1 and -no-reboot QEMU exits 0
 * right after it, and a hung panic is then killed at the timeout.  A boot
 * is ok only if the marker is there and QEMU ended on its own, cleanly.
 */
enum outcome outcome__classify(const char *console, const struct qemu_exit *qe)
{
	const char *text = console ? console : "";

	if (strstr(text, PANIC_MARKER))
		return OUTCOME_PANIC;
	if (qe->interrupted)
		return OUTCOME_INTERRUPTED;
	if (qe->timed_out)
		return OUTCOME_TIMEOUT;
	if (qe->exited && qe->status == 0 && strstr(text, BOOT_COMPLETE_MARKER))
		return OUTCOME_OK;
	return OUTCOME_QEMU_ERROR;
}
