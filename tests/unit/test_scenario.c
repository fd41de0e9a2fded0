// SPDX-License-Identifier: GPL-2.0
/* Scenario files and mode specs: what they produce and how they fail. */
#include "check.h"
#include "qemu.h"
#include "scenario.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/bootprobe-test-scenario.XXXXXX";

static char *write_tmp(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", tmpdir, name);

	write_file_atomic(path, text, strlen(text));
	return path;
}

/* Load @text as a scenario; the error message, or NULL on success. */
static char *load_err(const char *text, struct scenario *sc)
{
	static char err[512];
	char *path = write_tmp("s.conf", text);
	int rc;

	scenario__init(sc);
	rc = scenario__load(sc, path, err, sizeof(err));
	free(path);
	return rc ? err : NULL;
}

static void good_file(void)
{
	struct scenario sc;
	char *err, *args;

	err = load_err("# a comment\n"
		       "[scenario]\n"
		       "name = storage\n"
		       "devices = 3\n"
		       "boots = 7\n"
		       "timeout = 90\n"
		       "cmdline = slowprobe.probe_ms=4000\n"
		       "\n"
		       "[mode killable]\n"
		       "event_timeout = 3\n"
		       "kill_policy = killable\n"
		       "[mode grace]\n"
		       "event_timeout = 3\n"
		       "timeout_signal = SIGKILL\n"
		       "kill_policy = grace=2000\n"
		       "devices = 1\n"
		       "cmdline = driver_async_probe=*\n", &sc);
	CHECK(!err, "a valid scenario file loads%s%s", err ? ": " : "", err ? err : "");
	CHECK_STR(sc.name, "storage", "[scenario] name is taken");
	CHECK(sc.nr_modes == 2 && sc.boots == 7 && sc.devices == 3 && sc.timeout_s == 90,
	      "modes, boots, devices and timeout are read");
	args = mode__kernel_args(&sc, &sc.modes[1], 1);
	CHECK_STR(args, "slowprobe.probe_ms=4000 driver_async_probe=* udev.event_timeout=3 "
		  "udev.timeout_signal=SIGKILL kthread.sigkill_policy=grace=2000",
		  "a mode's kernel arguments = scenario's + mode's + udev + kill policy");
	free(args);
	CHECK(mode__devices(&sc, &sc.modes[0]) == 3 && mode__devices(&sc, &sc.modes[1]) == 1,
	      "a mode's devices override the scenario's");
	scenario__free(&sc);
}

static void bad_files(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "[mode a]\ndely = 3\n", "s.conf:2: unknown key 'dely'" },
		{ "[scenario]\nboots = -1\n[mode a]\n", "s.conf:2: boots '-1'" },
		{ "[mode a]\n[mode a]\n", "s.conf:2: mode 'a' is defined twice" },
		{ "[mode a]\nevent_timeout = soon\n", "s.conf:2: event_timeout 'soon'" },
		{ "[mode a]\nkill_policy = grace=x\n", "s.conf:2: kill_policy 'grace=x'" },
		{ "[mode a]\ntimeout_signal = KILL\n", "s.conf:2: timeout_signal 'KILL'" },
		{ "cmdline = x\n", "s.conf:1: 'cmdline = x' before any" },
		{ "[mode a/b]\n", "s.conf:1: mode 'a/b': invalid name" },
		{ "[modes]\n", "s.conf:1: unknown section [modes]" },
		{ "[scenario]\ndevices = 3\n", "s.conf: no [mode NAME] section" },
		{ "[mode a]\njust words\n", "s.conf:2: expected 'key = value'" },
		/* Values of the fleet, udev and probing keys. */
		{ "[scenario]\nprobe_ms = soon\n[mode a]\n", "s.conf:2: probe_ms 'soon'" },
		{ "[scenario]\nprobe_ms = uniform 3000 1000\n[mode a]\n",
		  "s.conf:2: probe_ms 'uniform 3000 1000'" },
		{ "[scenario]\nprobe_ms = end\n[mode a]\n", "s.conf:2: probe_ms 'end'" },
		{ "[scenario]\ntime_scale = 0\n[mode a]\n", "s.conf:2: time_scale '0'" },
		{ "[scenario]\ncontroller = ahci\n[mode a]\n", "s.conf:2: controller 'ahci'" },
		{ "[scenario]\nnthreads = 9\n[mode a]\n", "s.conf:2: nthreads '9'" },
		{ "[mode a]\nprobing = fast\n", "s.conf:2: probing 'fast'" },
		{ "[mode a]\nrules_event_timeout = -5\n", "s.conf:2: rules_event_timeout '-5'" },
		{ "[mode a]\nevent_timeout = 3\nevent_timeout = 4\n",
		  "s.conf:3: 'event_timeout' is given twice" },
		/* Impossible combinations, named at the line that makes them so. */
		{ "[scenario]\ndevices = 3\nprobe_ms = 1000,2000\n[mode a]\n",
		  "s.conf:3: probe_ms lists 2 values but devices = 3" },
		{ "[scenario]\nprobe_ms = 1000\n[mode a]\n",
		  "s.conf:2: probe_ms is set but no mode has slowprobe devices" },
		{ "[scenario]\ndevices = 2\nprobe_ms = 1000,2000\nkthread_at_ms = 500,2500\n[mode a]\n",
		  "s.conf:4: kthread_at_ms 2500 of device 1 is beyond its probe_ms 2000" },
		{ "[scenario]\ncontroller = mptsas1068\n[mode a]\n",
		  "s.conf:2: controller mptsas1068 needs disks = N" },
		{ "[scenario]\ncontroller = mptsas1068\ndisks = 9\n[mode a]\n",
		  "s.conf:3: disks = 9: mptsas1068 takes at most 8" },
		{ "[scenario]\ndisks = 2\n[mode a]\n", "s.conf:2: disks = 2 needs a controller" },
		{ "[mode a]\nprobing = async-probe\n",
		  "s.conf:1: mode 'a': probing = async-probe but the scenario has no driver" },
		{ "[scenario]\ntime_scale = 0.1\n[mode a]\nevent_timeout = 5\n",
		  "s.conf:3: mode 'a': event_timeout 5 s at time_scale 0.1 is 0.5 s" },
		{ "[scenario]\ncmdline = udev.event_timeout=9\n[mode a]\nevent_timeout = 3\n",
		  "s.conf:4: mode 'a': event_timeout and a cmdline udev.event_timeout=" },
		{ "[scenario]\nbaseline = b\n[mode a]\n", "s.conf:2: baseline 'b': no such mode" },
		/* Sections that may appear once. */
		{ "[scenario]\n[mode a]\n[scenario]\n",
		  "s.conf:3: [scenario] is defined twice (first at line 1)" },
		/* A comment after a value is neither the value's nor dropped. */
		{ "[scenario]\nboots = 5 # five\n[mode a]\n",
		  "s.conf:2: boots: inline comment '# five': comments must be on their own line" },
		{ "[mode a]\ncmdline = a=1 ; b=2\n", "s.conf:2: cmdline: inline comment '; b=2'" },
		{ "[mode a]\nkill_policy = # none\n", "s.conf:2: kill_policy: inline comment '# none'" },
		/* A mode cannot have more devices than a list has values. */
		{ "[scenario]\ndevices = 2\nprobe_ms = 1000,2000\n[mode a]\ndevices = 3\n",
		  "s.conf:5: mode 'a': devices = 3 but probe_ms lists 2 values" },
		{ "[scenario]\ndevices = 2\nprobe_ms = 1000\nkthread_at_ms = 10,end\n[mode a]\n[mode b]\n"
		  "devices = 24\n", "s.conf:7: mode 'b': devices = 24 but kthread_at_ms lists 2 values" },
		/* A nonzero time that the time scale rounds to 0 ms. */
		{ "[scenario]\ntime_scale = 0.1\ndevices = 2\nprobe_ms = 1000,4\n[mode a]\n",
		  "s.conf:4: probe_ms 4 ms at time_scale 0.1 is 0.4 ms, which rounds to 0 ms" },
		{ "[scenario]\ntime_scale = 0.01\ndevices = 1\nprobe_ms = 1000\nkthread_at_ms = 30\n"
		  "[mode a]\n",
		  "s.conf:5: kthread_at_ms 30 ms at time_scale 0.01 is 0.3 ms, which rounds to 0 ms" },
		{ "[scenario]\ntime_scale = 0.1\ndevices = 1\nprobe_ms = uniform 2 100\n[mode a]\n",
		  "s.conf:4: probe_ms 2 ms at time_scale 0.1 is 0.2 ms, which rounds to 0 ms" },
		{ "[scenario]\ntime_scale = 0.1\ndevices = 1\nprobe_ms = normal 100 3\n[mode a]\n",
		  "s.conf:4: probe_ms 3 ms at time_scale 0.1 is 0.3 ms, which rounds to 0 ms" },
		{ "[scenario]\ntime_scale = 0.000001\ndevices = 1\nfw_wait_ms = 5000\n[mode a]\n",
		  "s.conf:4: fw_wait_ms 5000 ms at time_scale 1e-06 is 0.005 ms, which rounds to 0 ms" },
		{ "[scenario]\ntime_scale = 0.1\n[mode a]\nkill_policy = grace=4\n",
		  "s.conf:3: mode 'a': grace 4 ms at time_scale 0.1 is 0.4 ms, which rounds to 0 ms" },
		/* Kernel arguments: printable, quotes balanced. */
		{ "[mode a]\ncmdline = foo=\"bar\n",
		  "s.conf:2: cmdline: unbalanced double quote at byte 5" },
		{ "[scenario]\ncmdline = \"a=1 2\" b=\"2\n[mode a]\n",
		  "s.conf:2: cmdline: unbalanced double quote at byte 11" },
		{ "[mode a]\ncmdline = a\001b\n", "s.conf:2: cmdline: control byte 0x01 at byte 2" },
		{ "[scenario]\ncmdline = a=1 \177\n[mode a]\n",
		  "s.conf:2: cmdline: control byte 0x7f at byte 5" },
	};
	struct scenario sc;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *err = load_err(cases[i].text, &sc);

		CHECK(err && strstr(err, cases[i].want),
		      "bad scenario %zu is refused naming file and line (%s)", i, cases[i].want);
		if (err && !strstr(err, cases[i].want))
			printf("#   got: %s\n", err);
		scenario__free(&sc);
	}
	scenario__init(&sc);
	{
		char err[512];

		CHECK(scenario__load(&sc, "/nonexistent/x.conf", err, sizeof(err)) &&
		      strstr(err, "/nonexistent/x.conf: No such file"),
		      "a missing scenario file is named in the error");
	}
	scenario__free(&sc);
}

/* Times are written unscaled and scaled once, into the kernel arguments. */
static void fleet_and_scaling(void)
{
	struct scenario sc;
	char *err, *args;

	err = load_err("[scenario]\n"
		       "time_scale = 0.1\n"
		       "devices = 3\n"
		       "probe_ms = 60000,20000,10000\n"
		       "kthread_at_ms = 55000,end,end\n"
		       "fw_wait_ms = 5000\n"
		       "nthreads = 2\n"
		       "baseline = slow\n"
		       "[mode killable]\n"
		       "event_timeout = 30\n"
		       "kill_policy = grace=30000\n"
		       "[mode lvm]\n"
		       "udev_conf_event_timeout = 25\n"
		       "rules_event_timeout = 180\n"
		       "[mode per-module]\n"
		       "probing = async-probe\n"
		       "devices = 1\n"
		       "[mode every-module]\n"
		       "probing = module-async-probe\n"
		       "[mode slow]\n"
		       "probing = driver-async-probe\n", &sc);
	CHECK(!err, "a fleet scenario loads%s%s", err ? ": " : "", err ? err : "");
	if (err)
		return;
	CHECK_STR(sc.baseline, "slow", "the baseline mode is read");
	args = mode__kernel_args(&sc, &sc.modes[0], 1);
	CHECK_STR(args, "slowprobe.probe_ms=6000,2000,1000 slowprobe.kthread_at_ms=5500,-1,-1 "
		  "slowprobe.nthreads=2 slowprobe.fw_wait_ms=500 bootprobe.expect=3 "
		  "udev.event_timeout=3 kthread.sigkill_policy=grace=3000",
		  "probe, thread, firmware, udev and grace times are scaled by time_scale");
	free(args);
	args = mode__kernel_args(&sc, &sc.modes[1], 1);
	CHECK(strstr(args, "bootprobe.udev_conf_event_timeout=2500ms bootprobe.rules_event_timeout=18") &&
	      !strstr(args, "udev.event_timeout="),
	      "udev.conf and rules timeouts go to /init, fractions in ms (%s)", args);
	free(args);
	args = mode__kernel_args(&sc, &sc.modes[2], 1);
	CHECK(strstr(args, "slowprobe.probe_ms=6000 ") && strstr(args, "bootprobe.expect=1") &&
	      strstr(args, "slowprobe.async_probe=1"),
	      "a mode's devices cut the fleet; async-probe goes to the fleet's driver (%s)", args);
	free(args);
	args = mode__kernel_args(&sc, &sc.modes[3], 1);
	CHECK(strstr(args, " module.async_probe=1") != NULL, "module-async-probe is module.async_probe=1");
	free(args);
	args = mode__kernel_args(&sc, &sc.modes[4], 1);
	CHECK(strstr(args, " driver_async_probe=*") != NULL, "driver-async-probe is driver_async_probe=*");
	free(args);
	sc.time_scale = 0.01;
	err = scenario__validate(&sc, (char[256]){ 0 }, 256) ? "refused" : NULL;
	CHECK(err != NULL, "a time scale that pushes a udev timeout under 1 s is refused on re-validation");
	scenario__free(&sc);
}

/* What the checks leave alone: zeros written as zeros, '#' inside a word, quoted spaces. */
static void accepted_edges(void)
{
	struct scenario sc;
	char msg[512] = "", *err, *args;

	err = load_err("[scenario]\ntime_scale = 0.1\ndevices = 2\nprobe_ms = 0,5\nkthread_at_ms = 0,end\n"
		       "fw_wait_ms = 0\ncmdline = dyndbg=\"file x.c +p\" tag=a#b\n[mode a]\ndevices = 1\n"
		       "[mode b]\ndevices = 2\n", &sc);
	CHECK(!err, "zeros, 5 ms at scale 0.1 (0.5 rounds to 1), '#' in a word, quoted spaces load%s%s",
	      err ? ": " : "", err ? err : "");
	if (!err) {
		args = mode__kernel_args(&sc, &sc.modes[1], 1);
		CHECK_STR(args, "dyndbg=\"file x.c +p\" tag=a#b slowprobe.probe_ms=0,1 "
			  "slowprobe.kthread_at_ms=0,-1 slowprobe.fw_wait_ms=0 bootprobe.expect=2",
			  "the cmdline is passed as written");
		free(args);
		sc.time_scale = 0.01;
		CHECK(scenario__validate(&sc, msg, sizeof(msg)) &&
		      strstr(msg, "s.conf:4: probe_ms 5 ms at time_scale 0.01 is 0.05 ms, "
			     "which rounds to 0 ms"),
		      "a time scale that rounds a probe time to 0 ms is refused on re-validation (%s)",
		      msg);
	}
	scenario__free(&sc);
}

/* "K=VVVV..." of @len bytes; the caller frees. */
static char *arg_of(size_t len)
{
	char *s = xmalloc(len + 1);

	memset(s, 'v', len);
	memcpy(s, "k=", 2);
	s[len] = '\0';
	return s;
}

/*
 * x86 keeps 2047 bytes of command line and its NUL; the lab machine's fixed
 * arguments and a space come first.
 */
static void long_cmdlines(void)
{
	const int fixed = (int)strlen(kernel_fixed_args(false));
	char *a = arg_of(1000), *b = arg_of(2047 - fixed - 1 - 1000 - 1), *c, *text, *err;
	struct scenario sc;

	text = xasprintf("[scenario]\ncmdline = %s\n[mode a]\ncmdline = %s\n", a, b);
	err = load_err(text, &sc);
	CHECK(!err, "a kernel command line of exactly 2047 bytes loads%s%s", err ? ": " : "",
	      err ? err : "");
	scenario__free(&sc);
	free(text);
	free(b);

	b = arg_of(2048 - fixed - 1 - 1000 - 1);
	text = xasprintf("[scenario]\ncmdline = %s\n[mode a]\n[mode b]\ncmdline = %s\n", a, b);
	err = load_err(text, &sc);
	CHECK(err && strstr(err, "s.conf:5: mode 'b': makes the kernel command line 2048 bytes, 1 over "
			    "the 2047 bytes x86 takes"),
	      "a mode whose arguments and the scenario's make 2048 bytes is refused at its cmdline (%s)",
	      err ? err : "");
	scenario__free(&sc);
	free(text);
	free(b);

	b = arg_of(2047 - fixed);
	text = xasprintf("[mode a]\ncmdline = %s\n", b);
	err = load_err(text, &sc);
	CHECK(err && strstr(err, "s.conf:2: cmdline: makes the kernel command line 2048 bytes, 1 over "
			    "the 2047 bytes x86 takes"),
	      "a mode's cmdline too long on its own is refused at its line (%s)", err ? err : "");
	scenario__free(&sc);
	free(text);

	c = arg_of(1700);
	text = xasprintf("[scenario]\ndevices = 24\nprobe_ms = 3600000\nkthread_at_ms = 3600000\n"
			 "cmdline = %s\n[mode a]\n", c);
	free(c);
	err = load_err(text, &sc);
	CHECK(err && strstr(err, "s.conf:6: mode 'a': makes the kernel command line") &&
	      strstr(err, "over the 2047 bytes x86 takes"),
	      "the fleet's lists count towards the length (%s)", err ? err : "");
	scenario__free(&sc);
	free(text);

	scenario__init(&sc);
	text = xasprintf("x:%s", b);
	CHECK(scenario__add_mode_spec(&sc, text, (char[512]){ 0 }, 512) == -1,
	      "a NAME:ARGS mode too long on its own is refused");
	free(text);
	scenario__free(&sc);
	free(a);
	free(b);
}

/* Parse "slowprobe.probe_ms=a,b,c" out of @args into @v; the count. */
static int probe_list(const char *args, long *v)
{
	const char *p = strstr(args, "slowprobe.probe_ms=");
	int n = 0;

	if (!p)
		return 0;
	p += strlen("slowprobe.probe_ms=");
	while (n < 24 && sscanf(p, "%ld", &v[n]) == 1) {
		n++;
		p += strcspn(p, ", ");
		if (*p != ',')
			break;
		p++;
	}
	return n;
}

/* Distributions: drawn per boot, the same boot index for every mode. */
static void distributions(void)
{
	long a[24], b[24], c[24];
	bool in_range = true, same = true, differs = false;
	struct scenario sc;
	char *err, *x, *y;

	err = load_err("[scenario]\ndevices = 8\nseed = 7\nprobe_ms = uniform 1000 3000\n"
		       "kthread_at_ms = normal 1500 400\n[mode one]\n[mode two]\nevent_timeout = 9\n",
		       &sc);
	CHECK(!err, "a scenario with distributions loads%s%s", err ? ": " : "", err ? err : "");
	if (err)
		return;
	for (long i = 1; i <= 20; i++) {
		x = mode__kernel_args(&sc, &sc.modes[0], i);
		y = mode__kernel_args(&sc, &sc.modes[1], i);
		CHECK(probe_list(x, a) == 8 && probe_list(y, b) == 8, "boot %ld draws 8 probe times", i);
		for (int d = 0; d < 8; d++) {
			in_range &= a[d] >= 1000 && a[d] <= 3000;
			same &= a[d] == b[d];
			if (i > 1)
				differs |= a[d] != c[d];
			c[d] = a[d];
		}
		free(x);
		free(y);
	}
	CHECK(in_range, "uniform 1000 3000 draws stay in [1000, 3000]");
	CHECK(same, "boot i of every mode gets the same draws");
	CHECK(differs, "different boots get different draws");
	sc.seed = 8;
	x = mode__kernel_args(&sc, &sc.modes[0], 20);
	probe_list(x, b);
	CHECK(memcmp(a, b, 8 * sizeof(long)) != 0, "another seed gives other draws");
	free(x);
	scenario__free(&sc);
}

static void storage(void)
{
	struct scenario sc;
	char *err, *args;

	err = load_err("[scenario]\ncontroller = mptsas1068\ndisks = 8\n"
		       "[mode async]\nprobing = async-probe\n", &sc);
	CHECK(!err, "a real-driver scenario loads%s%s", err ? ": " : "", err ? err : "");
	if (err)
		return;
	args = mode__kernel_args(&sc, &sc.modes[0], 1);
	CHECK_STR(args, "bootprobe.disks=8 mptsas.async_probe=1",
		  "the controller's driver gets async_probe=1 and /init waits for its disks");
	free(args);
	CHECK(controller__max_disks("virtio-scsi") >= 32 && !controller__max_disks("ide"),
	      "virtio-scsi takes 32 disks; unknown models none");
	scenario__free(&sc);
}

static void mode_specs(void)
{
	struct scenario sc;
	char err[256];
	char *args;

	scenario__init(&sc);
	CHECK(!scenario__add_mode_spec(&sc, "async", err, sizeof(err)) &&
	      !strcmp(sc.modes[0].cmdline, "driver_async_probe=*"),
	      "built-in mode async is driver_async_probe=*");
	CHECK(!scenario__add_mode_spec(&sc, "slow:udev.event_timeout=3 foo.bar=1", err, sizeof(err)),
	      "NAME:ARGS defines a mode");
	args = mode__kernel_args(&sc, &sc.modes[1], 1);
	CHECK_STR(args, "udev.event_timeout=3 foo.bar=1", "a NAME:ARGS mode passes its arguments");
	free(args);
	CHECK(scenario__add_mode_spec(&sc, "turbo", err, sizeof(err)) &&
	      strstr(err, "mode 'turbo': not a built-in mode"), "an unknown mode name is refused");
	CHECK(scenario__add_mode_spec(&sc, "async", err, sizeof(err)) &&
	      strstr(err, "defined twice"), "a mode given twice is refused");
	CHECK(scenario__add_mode_spec(&sc, "../x:a", err, sizeof(err)) &&
	      strstr(err, "invalid name"), "a mode name that could escape the results folder is refused");
	CHECK(scenario__add_mode_spec(&sc, "q:foo=\"bar", err, sizeof(err)) &&
	      strstr(err, "mode 'q': unbalanced double quote at byte 5"),
	      "a NAME:ARGS mode goes through the cmdline checks (%s)", err);
	CHECK(scenario__add_mode_spec(&sc, "c:a=1\tb=2", err, sizeof(err)) &&
	      strstr(err, "mode 'c': control byte 0x09 at byte 4"),
	      "a control byte in NAME:ARGS is refused");
	scenario__free(&sc);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	good_file();
	bad_files();
	mode_specs();
	fleet_and_scaling();
	distributions();
	storage();
	accepted_edges();
	long_cmdlines();
	{
		char *conf = xasprintf("%s/s.conf", tmpdir);

		unlink(conf);
		free(conf);
	}
	rmdir(tmpdir);
	CHECK_DONE();
}
