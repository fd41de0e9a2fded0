// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "qemu.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * @s as a value in a QEMU option list ("file=VALUE,if=none"): a comma
 * would start the next option, so it is doubled.  The caller frees.
 */
static char *qemu_opt_value(const char *s)
{
	char *out = xmalloc(strlen(s) * 2 + 1), *o = out;

	for (; *s; s++) {
		*o++ = *s;
		if (*s == ',')
			*o++ = ',';
	}
	*o = '\0';
	return out;
}

/* @fmt with one %s, filled with @path escaped for an option list. */
static void push_opt_path(struct strv *argv, const char *fmt, const char *path)
{
	char *v = qemu_opt_value(path);

	strv__pushf(argv, fmt, v);
	free(v);
}

static void push_dev(struct strv *argv, const char *dev)
{
	strv__push(argv, "-device");
	strv__push(argv, dev);
}

/* A 64 MB null-co block device (reads zeros, no file) named @node. */
static void push_null_disk(struct strv *argv, const char *node)
{
	strv__push(argv, "-blockdev");
	strv__pushf(argv, "driver=null-co,node-name=%s,size=%d,read-zeroes=on", node, 64 << 20);
}

/*
 * A SCSI host adapter with its disks: null-co block devices that read as
 * zeros, so no image files are needed and the partition scan finds nothing.
 */
static void push_storage(const struct qemu_config *cfg, struct strv *argv)
{
	bool sas = !strcmp(cfg->controller, "mptsas1068");

	strv__push(argv, "-device");
	strv__push(argv, sas ? "mptsas1068,id=hba" : "virtio-scsi-pci,id=hba");
	for (long i = 0; i < cfg->disks; i++) {
		char node[32];

		snprintf(node, sizeof(node), "disk%ld", i);
		push_null_disk(argv, node);
		/*
		 * mptsas ignores an end device whose SAS address is 0, and QEMU's
		 * SAS1068 reports the disk's wwn (default 0) as that address.
		 */
		strv__push(argv, "-device");
		if (sas)
			strv__pushf(argv, "scsi-hd,drive=disk%ld,bus=hba.0,scsi-id=%ld,lun=0,"
				    "wwn=0x%llx", i, i, 0x5000000000000010ULL + i);
		else
			strv__pushf(argv, "scsi-hd,drive=disk%ld,bus=hba.0,scsi-id=%ld,lun=0", i, i);
	}
}

/*
 * The real-world machine: q35 with the devices of a typical PC and VM, so
 * that udev's coldplug loads dozens of real drivers.  The root disk is
 * opened with snapshot=on: every boot starts from the same image and
 * writes nothing back (unless root_writable: then what a boot writes, its
 * /var/log/bootprobe, stays for the next).  The network cards sit on a hub
 * with no uplink.
 */
static void push_realistic_devices(const struct qemu_config *cfg, struct strv *argv)
{
	static const char *const plain[] = {
		"virtio-rng-pci", "virtio-balloon-pci", "virtio-keyboard-pci",
		"e1000e,netdev=net1", "e1000,netdev=net2", "rtl8139,netdev=net3",
		"qemu-xhci,id=xhci", "usb-kbd,bus=xhci.0", "usb-tablet,bus=xhci.0",
		"usb-storage,bus=xhci.0,drive=usbdisk", "ich9-usb-ehci1,id=ehci",
		"intel-hda,id=hda", "hda-duplex,bus=hda.0,audiodev=snd0", "AC97,audiodev=snd0",
		"ES1370,audiodev=snd0", "bochs-display", "i6300esb", "pvpanic-pci",
		"sdhci-pci", "sd-card,drive=sdcard", "virtio-scsi-pci,id=vscsi",
		"scsi-hd,drive=scsidisk,bus=vscsi.0", "ide-hd,drive=satadisk,bus=ide.0",
		"nvme,serial=bootprobe0,drive=nvmedisk", "lsi53c895a,id=lsi",
		"scsi-hd,drive=lsidisk,bus=lsi.0", "pci-serial", "virtio-net-pci,netdev=net0",
	};
	static const char *const disks[] = {
		"usbdisk", "sdcard", "scsidisk", "satadisk", "nvmedisk", "lsidisk",
	};

	strv__push(argv, "-drive");
	push_opt_path(argv, cfg->root_writable ? "file=%s,if=none,id=root,format=raw" :
		      "file=%s,if=none,id=root,format=raw,snapshot=on", cfg->root_image);
	push_dev(argv, "virtio-blk-pci,drive=root");
	for (size_t i = 0; i < sizeof(disks) / sizeof(disks[0]); i++)
		push_null_disk(argv, disks[i]);
	for (int i = 0; i < 4; i++) {
		strv__push(argv, "-netdev");
		strv__pushf(argv, "hubport,id=net%d,hubid=0", i);
	}
	strv__push(argv, "-audiodev");
	strv__push(argv, "none,id=snd0");
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		push_dev(argv, plain[i]);
}

/* The models qemu_devices may name, and how each is attached. */
enum extra_kind { EXTRA_SCSI, EXTRA_NIC, EXTRA_NVME, EXTRA_BLK, EXTRA_AHCI };
static const struct {
	const char *model;
	enum extra_kind kind;
} extra_models[] = {
	{ "megasas", EXTRA_SCSI }, { "megasas-gen2", EXTRA_SCSI }, { "pvscsi", EXTRA_SCSI },
	{ "mptsas1068", EXTRA_SCSI }, { "lsi53c810", EXTRA_SCSI }, { "am53c974", EXTRA_SCSI },
	{ "virtio-scsi-pci", EXTRA_SCSI },
	{ "vmxnet3", EXTRA_NIC }, { "pcnet", EXTRA_NIC }, { "ne2k_pci", EXTRA_NIC },
	{ "i82559er", EXTRA_NIC }, { "rtl8139", EXTRA_NIC }, { "e1000", EXTRA_NIC },
	{ "e1000e", EXTRA_NIC }, { "virtio-net-pci", EXTRA_NIC },
	{ "nvme", EXTRA_NVME }, { "virtio-blk-pci", EXTRA_BLK }, { "ich9-ahci", EXTRA_AHCI },
};

static int extra_model(const char *model)
{
	for (size_t i = 0; i < sizeof(extra_models) / sizeof(extra_models[0]); i++)
		if (!strcmp(extra_models[i].model, model))
			return (int)i;
	return -1;
}

bool qemu__extra_device_known(const char *model)
{
	return extra_model(model) >= 0;
}

const char *qemu__extra_device_names(void)
{
	return "megasas, megasas-gen2, pvscsi, mptsas1068, lsi53c810, am53c974, "
	       "virtio-scsi-pci, vmxnet3, pcnet, ne2k_pci, i82559er, rtl8139, e1000, "
	       "e1000e, virtio-net-pci, nvme, virtio-blk-pci, ich9-ahci";
}

/*
 * The models a scenario added: a host adapter or controller with one null
 * disk, a network card on the machine's hub, a disk with its null disk.
 * Ids are xN, so they never meet the machine's own.
 */
static void push_extra_devices(const struct qemu_config *cfg, struct strv *argv)
{
	for (int i = 0; i < cfg->nr_extra_devices; i++) {
		const char *model = cfg->extra_devices[i];
		int k = extra_model(model);
		char disk[16];

		if (k < 0)
			continue;	/* the scenario checked them */
		snprintf(disk, sizeof(disk), "xdisk%d", i);
		switch (extra_models[k].kind) {
		case EXTRA_SCSI:
			push_null_disk(argv, disk);
			strv__push(argv, "-device");
			strv__pushf(argv, "%s,id=x%d", model, i);
			strv__push(argv, "-device");
			strv__pushf(argv, "scsi-hd,drive=%s,bus=x%d.0", disk, i);
			break;
		case EXTRA_NIC:
			strv__push(argv, "-netdev");
			strv__pushf(argv, "hubport,id=xnet%d,hubid=0", i);
			strv__push(argv, "-device");
			strv__pushf(argv, "%s,netdev=xnet%d", model, i);
			break;
		case EXTRA_NVME:
			push_null_disk(argv, disk);
			strv__push(argv, "-device");
			strv__pushf(argv, "nvme,serial=bootprobex%d,drive=%s", i, disk);
			break;
		case EXTRA_BLK:
			push_null_disk(argv, disk);
			strv__push(argv, "-device");
			strv__pushf(argv, "virtio-blk-pci,drive=%s", disk);
			break;
		case EXTRA_AHCI:
			push_null_disk(argv, disk);
			strv__push(argv, "-device");
			strv__pushf(argv, "ich9-ahci,id=x%d", i);
			strv__push(argv, "-device");
			strv__pushf(argv, "ide-hd,drive=%s,bus=x%d.0", disk, i);
			break;
		}
	}
}

char *qemu__kernel_cmdline(const struct qemu_config *cfg)
{
	return xasprintf("%s%s%s", kernel_fixed_args(cfg->root_image != NULL),
			 cfg->kernel_args && *cfg->kernel_args ? " " : "",
			 cfg->kernel_args ? cfg->kernel_args : "");
}

void qemu__build_argv(const struct qemu_config *cfg, struct strv *argv)
{
	char *line;

	strv__push(argv, cfg->qemu);
	strv__push(argv, "-M");
	strv__push(argv, cfg->root_image ? "q35" : "pc");
	strv__push(argv, "-accel");
	if (!strcmp(cfg->accel, "kvm"))
		strv__push(argv, "kvm");
	else
		strv__push(argv, "tcg,thread=multi");
	strv__pushf(argv, "-m");
	strv__pushf(argv, "%ld", cfg->memory_mb);
	strv__push(argv, "-smp");
	strv__push(argv, "1");
	strv__push(argv, "-nodefaults");
	strv__push(argv, "-no-user-config");
	strv__push(argv, "-display");
	strv__push(argv, "none");
	/* reboot -f (or a panic with panic=-1) ends QEMU instead of rebooting. */
	strv__push(argv, "-no-reboot");
	strv__push(argv, "-kernel");
	strv__push(argv, cfg->kernel);
	strv__push(argv, "-initrd");
	strv__push(argv, cfg->initrd);
	strv__push(argv, "-append");
	line = qemu__kernel_cmdline(cfg);
	strv__push(argv, line);
	free(line);
	strv__push(argv, "-chardev");
	push_opt_path(argv, "file,id=console,path=%s", cfg->console_path);
	strv__push(argv, "-serial");
	strv__push(argv, "chardev:console");
	/* Events travel on their own port, never mixed into the console. */
	strv__push(argv, "-device");
	strv__push(argv, "virtio-serial-pci,id=vser");
	strv__push(argv, "-chardev");
	push_opt_path(argv, "file,id=events,path=%s", cfg->events_path);
	strv__push(argv, "-device");
	strv__push(argv, "virtserialport,bus=vser.0,chardev=events,name=org.bootprobe.events");
	for (long i = 0; i < cfg->devices; i++) {
		strv__push(argv, "-device");
		strv__push(argv, "edu");
	}
	if (cfg->controller)
		push_storage(cfg, argv);
	if (cfg->root_image) {
		push_realistic_devices(cfg, argv);
		push_extra_devices(cfg, argv);
	}
}

pid_t qemu__spawn(const struct strv *argv, const char *log_path)
{
	pid_t parent = getpid(), pid;
	int fd, null;

	fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (pid == 0) {
		sigset_t none;

		/* No QEMU outlives the runner, even one killed with SIGKILL. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* Own process group: a terminal's Ctrl-C reaches only the runner. */
		setpgid(0, 0);
		null = open("/dev/null", O_RDONLY);
		dup2(null, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execvp(argv->v[0], argv->v);
		fprintf(stderr, "bootprobe: exec %s: %s\n", argv->v[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	return pid;
}

/*
 * The first line of `QEMU --version`, run without a shell: the binary's
 * path reaches exec as it is, whatever characters it holds.
 */
char *qemu__version(const char *qemu)
{
	char line[256] = "";
	int fds[2], null;
	pid_t pid;
	FILE *f;

	if (pipe2(fds, O_CLOEXEC))
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		dup2(null, STDIN_FILENO);
		dup2(fds[1], STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		execlp(qemu, qemu, "--version", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	} else {
		close(fds[0]);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	line[strcspn(line, "\n")] = '\0';
	return line[0] ? xstrdup(line) : NULL;
}
