// SPDX-License-Identifier: GPL-2.0
/* The checker itself: a condition is evaluated once, whatever it does. */
#include "check.h"

int main(void)
{
	int i = 0;

	CHECK(i++ == 0, "a condition with a side effect holds on its one evaluation");
	CHECK(i == 1, "the condition was evaluated exactly once (%d times)", i);
	CHECK_DONE();
}
