#!/bin/bash
# dracut module of bootprobe-collector (installed as
# /usr/lib/dracut/modules.d/90bootprobe/): the probetrace collector in a
# dracut initrd, started by bootprobe-collector.service before
# systemd-udevd, systemd-modules-load and dracut's cmdline and pre-udev
# hooks (rd.driver.pre), left running at switch-root so that the root's
# bootprobe-finish.service ends its stream, as in an initramfs-tools boot.
# What it starts and when it waits is bootprobe_start's
# (/usr/lib/bootprobe/start), shared with the initramfs-tools scripts.

# Included in every initrd while the package is installed.
check() {
    require_binaries /usr/sbin/probetrace || return 1
    return 0
}

# The collector starts from a unit: a systemd initrd.
depends() {
    echo systemd
    return 0
}

# The events port of a bootprobe QEMU boot (absent on real hardware), in
# a host-only initrd too.
installkernel() {
    hostonly='' instmods virtio_pci virtio_console
}

install() {
    inst_binary /usr/sbin/probetrace
    inst_multiple cat grep mkdir modprobe mount sleep
    inst_simple /usr/lib/bootprobe/start
    inst_simple /usr/lib/bootprobe/wait
    inst_script "$moddir/bootprobe-start.sh" /usr/lib/bootprobe/dracut-start
    inst_script "$moddir/bootprobe-handover.sh" /usr/lib/bootprobe/dracut-handover
    # systemd's switch-root spares processes whose argv[0] starts with '@'
    # (systemd.io/ROOT_STORAGE_DAEMONS): the collector is run by this name,
    # which the shell passes as argv[0].
    mkdir -p "$initdir/usr/lib/bootprobe/argv0"
    ln -sfn /usr/sbin/probetrace "$initdir/usr/lib/bootprobe/argv0/@probetrace"
    # The root has the same unit (the package's, never enabled there), so
    # that the root's systemd keeps it running after switch-root.
    inst_simple "$systemdsystemunitdir/bootprobe-collector.service"
    inst_simple "$moddir/bootprobe-handover.service" \
        "$systemdsystemunitdir/bootprobe-handover.service"
    $SYSTEMCTL -q --root "$initdir" add-wants initrd.target bootprobe-collector.service
    $SYSTEMCTL -q --root "$initdir" add-wants initrd-switch-root.target bootprobe-handover.service
}
