// SPDX-License-Identifier: GPL-2.0
/* Outcome detection on console logs recorded from real boots (tests/data/console). */
#include "check.h"
#include "outcome.h"
#include "util.h"

#include <stdlib.h>

static char *load(const char *name)
{
	char *path = xasprintf("tests/data/console/%s", name);
	char *text = read_file(path, NULL);

	if (!text)
		printf("# cannot read %s\n", path);
	free(path);
	return text;
}

int main(void)
{
	struct qemu_exit clean = { .exited = true, .status = 0 };
	struct qemu_exit failed = { .exited = true, .status = 1 };
	struct qemu_exit killed = { .timed_out = true, .status = 9 };
	struct qemu_exit stopped = { .interrupted = true, .status = 9 };
	char *ok = load("ok.log"), *panic = load("panic.log");
	char *hang = load("hang.log"), *early = load("qemu-died-early.log");

	CHECK(ok && panic && hang && early, "recorded console logs load");
	CHECK(outcome__classify(ok, &clean) == OUTCOME_OK,
	      "a boot with the completion marker and a clean QEMU exit is ok");
	CHECK(outcome__classify(ok, &failed) == OUTCOME_QEMU_ERROR,
	      "the marker with a failing QEMU exit status is a qemu-error");
	CHECK(outcome__classify(panic, &clean) == OUTCOME_PANIC,
	      "a recorded kernel panic (QEMU exits 0 after it) is a panic");
	CHECK(outcome__classify(panic, &killed) == OUTCOME_PANIC,
	      "a panic that hung until the timeout is still a panic");
	CHECK(outcome__classify(hang, &killed) == OUTCOME_TIMEOUT,
	      "a recorded hang killed at its deadline is a timeout");
	CHECK(outcome__classify(hang, &clean) == OUTCOME_QEMU_ERROR,
	      "QEMU exiting before the marker is a qemu-error");
	CHECK(outcome__classify(early, &failed) == OUTCOME_QEMU_ERROR,
	      "a console cut short with QEMU failing is a qemu-error");
	CHECK(outcome__classify(NULL, &failed) == OUTCOME_QEMU_ERROR,
	      "a missing console log is a qemu-error, not a crash");
	CHECK(outcome__classify(ok, &stopped) == OUTCOME_INTERRUPTED,
	      "a boot killed because the runner stops is interrupted");
	CHECK_STR(outcome__name(OUTCOME_QEMU_ERROR), "qemu-error", "outcome names match the docs");
	free(ok);
	free(panic);
	free(hang);
	free(early);
	CHECK_DONE();
}
