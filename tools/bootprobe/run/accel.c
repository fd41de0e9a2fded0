// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "accel.h"
#include "clock.h"
#include "qemu.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int kvm_device_usable(char *why, size_t len)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, len, "/dev/kvm: %s", strerror(errno));
		return 0;
	}
	close(fd);
	return 1;
}

/* Poll the probe's console for the kernel banner until the deadline. */
static int wait_for_banner(const char *console, pid_t pid, double deadline_s)
{
	uint64_t end = mono_ns() + (uint64_t)(deadline_s * 1e9);
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	int status;

	while (mono_ns() < end) {
		char *text = read_file(console, NULL);
		int seen = text && strstr(text, "Linux version");

		free(text);
		if (seen)
			return 1;
		if (waitpid(pid, &status, WNOHANG) == pid)
			return 0;
		nanosleep(&tick, NULL);
	}
	return 0;
}

static int kvm_boots(const char *qemu, const char *kernel, const char *initrd,
		     char *why, size_t len)
{
	char dir[] = "/tmp/bootprobe-kvm-probe.XXXXXX";
	struct qemu_config cfg = {
		.qemu = qemu, .kernel = kernel, .initrd = initrd, .accel = "kvm",
		.memory_mb = 256, .kernel_args = "bootprobe.collector=0",
	};
	struct strv argv = { 0 };
	char *console, *events, *log;
	int booted = 0;
	pid_t pid;

	if (!mkdtemp(dir)) {
		snprintf(why, len, "mkdtemp: %s", strerror(errno));
		return 0;
	}
	console = xasprintf("%s/console.log", dir);
	events = xasprintf("%s/events.jsonl", dir);
	log = xasprintf("%s/qemu.log", dir);
	cfg.console_path = console;
	cfg.events_path = events;
	qemu__build_argv(&cfg, &argv);
	pid = qemu__spawn(&argv, log);
	if (pid < 0) {
		snprintf(why, len, "could not start %s: %s", qemu, strerror(-pid));
	} else {
		booted = wait_for_banner(console, pid, KVM_PROBE_DEADLINE_S);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		if (!booted)
			snprintf(why, len, "a KVM guest printed no kernel banner within %d s",
				 KVM_PROBE_DEADLINE_S);
	}
	unlink(console);
	unlink(events);
	unlink(log);
	rmdir(dir);
	free(console);
	free(events);
	free(log);
	strv__free(&argv);
	return booted;
}

int accel__choose(const char *request, const char *qemu, const char *kernel,
		  const char *initrd, struct accel_choice *out)
{
	char why[200] = "";

	if (!strcmp(request, "tcg")) {
		out->accel = "tcg";
		snprintf(out->reason, sizeof(out->reason), "requested");
		return 0;
	}
	if (!strcmp(request, "kvm")) {
		if (!kvm_device_usable(why, sizeof(why))) {
			snprintf(out->reason, sizeof(out->reason), "%s", why);
			return -1;
		}
		out->accel = "kvm";
		snprintf(out->reason, sizeof(out->reason), "requested");
		return 0;
	}
	if (kvm_device_usable(why, sizeof(why)) &&
	    kvm_boots(qemu, kernel, initrd, why, sizeof(why))) {
		out->accel = "kvm";
		snprintf(out->reason, sizeof(out->reason), "auto: a KVM guest booted");
		return 0;
	}
	out->accel = "tcg";
	snprintf(out->reason, sizeof(out->reason), "auto: KVM unusable (%s), using TCG", why);
	return 0;
}
