/* SPDX-License-Identifier: GPL-2.0 */
/* Choosing the accelerator: KVM only if a KVM guest really boots here. */
#ifndef BOOTPROBE_ACCEL_H
#define BOOTPROBE_ACCEL_H

/* Seconds a KVM guest gets to print its first kernel console line. */
#define KVM_PROBE_DEADLINE_S 8

struct accel_choice {
	const char *accel;	/* "kvm" or "tcg" */
	char reason[256];	/* why, for the manifest and the warning */
};

/*
 * @request is "auto", "kvm" or "tcg".  For "auto", boot the real kernel
 * under KVM in a scratch folder and wait for "Linux version" on its console;
 * fall back to TCG when it does not come.  -1 with a message for "kvm" when
 * /dev/kvm cannot be used.
 */
int accel__choose(const char *request, const char *qemu, const char *kernel,
		  const char *initrd, struct accel_choice *out);

#endif
