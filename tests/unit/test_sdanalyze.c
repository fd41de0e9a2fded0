// SPDX-License-Identifier: GPL-2.0
/* systemd-analyze time's text, read back: every span format it writes. */
#include "check.h"
#include "sdanalyze.h"

#include <math.h>

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void spans(void)
{
	double v = 0;
	const char *end;

	CHECK(sd_timespan__parse("2.345s", &v, &end) && near(v, 2.345), "2.345s is 2.345 s");
	CHECK(sd_timespan__parse("345ms", &v, &end) && near(v, 0.345), "345ms is 0.345 s");
	CHECK(sd_timespan__parse("1min 2.500s (kernel)", &v, &end) && near(v, 62.5) &&
	      !strcmp(end, " (kernel)"), "1min 2.500s is 62.5 s and stops before the label");
	CHECK(sd_timespan__parse("1h 1min 1s", &v, &end) && near(v, 3661), "1h 1min 1s is 3661 s");
	CHECK(!sd_timespan__parse("soon", &v, &end), "a word is no span");
	CHECK(!sd_timespan__parse("12 seconds", &v, &end), "an unknown unit is no span");
}

static void startup_line(void)
{
	struct sd_time t;
	const char *text =
		"Startup finished in 4.912s (kernel) + 11.201s (initrd) + 1min 3.100s (userspace)"
		" = 1min 19.213s \nmulti-user.target reached after 1min 2.900s in userspace.\n";

	CHECK(sd_time__parse(text, &t), "a systemd-analyze time text parses");
	CHECK(near(t.kernel_s, 4.912) && near(t.initrd_s, 11.201) && near(t.userspace_s, 63.1),
	      "kernel, initrd and userspace are read (%g %g %g)", t.kernel_s, t.initrd_s,
	      t.userspace_s);
	CHECK(near(t.total_s, 79.213), "the total after '=' is read (%g)", t.total_s);
	CHECK(isnan(t.firmware_s) && isnan(t.loader_s), "parts it did not print stay NAN");
	CHECK_STR(t.target, "multi-user.target", "the target is named");
	CHECK(near(t.target_s, 62.9), "the target's time is read (%g)", t.target_s);
}

static void not_finished(void)
{
	struct sd_time t;

	CHECK(!sd_time__parse("Bootup is not yet finished (org.freedesktop.systemd1.Manager."
			      "FinishTimestampMonotonic=0).\n", &t) && isnan(t.total_s),
	      "an unfinished boot gives no times");
	CHECK(!sd_time__parse(NULL, &t), "no text gives no times");
}

static void blame(void)
{
	const char *text = "7.752s dev-vda.device\n"
			   "1min 4.406s systemd-journald.service\n"
			   "  476ms sys-subsystem-net-devices-eth0.device\n"
			   "3.729s dev-vda1.device\n";
	char unit[96];

	CHECK(near(sd_blame__unit(text, "dev-vda.device"), 7.752), "a unit's blame time is read");
	CHECK(near(sd_blame__unit(text, "systemd-journald.service"), 64.406),
	      "a span in minutes and seconds is read whole");
	CHECK(near(sd_blame__unit(text, "sys-subsystem-net-devices-eth0.device"), 0.476),
	      "a line indented by blame's alignment is read");
	CHECK(isnan(sd_blame__unit(text, "dev-vd.device")), "a unit is matched whole, not by prefix");
	CHECK(sd_device_unit("block", "nvme0n1", unit, sizeof(unit)) &&
	      !strcmp(unit, "dev-nvme0n1.device"), "a disk's unit is dev-NAME.device");
	CHECK(sd_device_unit("net", "eth0", unit, sizeof(unit)) &&
	      !strcmp(unit, "sys-subsystem-net-devices-eth0.device"),
	      "an interface's unit is sys-subsystem-net-devices-NAME.device");
	CHECK(!sd_device_unit("block", "dm-0", unit, sizeof(unit)),
	      "a name systemd would escape is not looked up");
}

/* The tree of critical-chain, as systemd 252 printed it on a Debian 13 guest. */
static void chain(void)
{
	const char *text =
		"The time when unit became active or started is printed after the \"@\" character.\n"
		"The time the unit took to start is printed after the \"+\" character.\n"
		"\n"
		"multi-user.target @24.023s\n"
		"\xe2\x94\x94\xe2\x94\x80getty.target @23.999s\n"
		"  \xe2\x94\x94\xe2\x94\x80serial-getty@ttyS0.service @23.986s\n"
		"    \xe2\x94\x94\xe2\x94\x80" "dev-ttyS0.device @23.697s\n"
		"      \xe2\x94\x94\xe2\x94\x80systemd-journald.service @5.741s +2.789s\n"
		"        \xe2\x94\x94\xe2\x94\x80" "bad\x01" "unit @1s\n"
		"        \xe2\x94\x94\xe2\x94\x80no-time.service\n";
	struct sd_chain_unit u[8];
	int n = sd_chain__parse(text, u, 8);

	CHECK(n == 5, "critical-chain: 5 unit lines, the explanation, a control byte and a line "
	      "without @ skipped (%d)", n);
	CHECK(n >= 1 && !strcmp(u[0].unit, "multi-user.target") && u[0].depth == 0 &&
	      near(u[0].at_s, 24.023) && isnan(u[0].took_s), "the target at the top, depth 0");
	CHECK(n >= 4 && !strcmp(u[3].unit, "dev-ttyS0.device") && u[3].depth == 3 &&
	      near(u[3].at_s, 23.697), "a device unit three levels down, with its @ time");
	CHECK(n >= 5 && near(u[4].took_s, 2.789), "a +time is read");
	CHECK(sd_chain__parse(text, u, 2) == 2, "at most the units asked for");
	CHECK(sd_chain__parse("", u, 8) == 0, "no text, no units");
}

int main(void)
{
	chain();
	blame();
	spans();
	startup_line();
	not_finished();
	CHECK_DONE();
}
