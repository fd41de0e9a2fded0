#!/bin/sh
# ExecStart of bootprobe-collector.service in a dracut initrd (installed
# there as /usr/lib/bootprobe/dracut-start): bootprobe_start, shared with
# the initramfs-tools scripts, with the collector run as "@probetrace",
# the name /usr/lib/bootprobe/argv0 holds, so that systemd leaves it
# running at switch-root (systemd.io/ROOT_STORAGE_DAEMONS).
PATH=/usr/lib/bootprobe/argv0:$PATH
. /usr/lib/bootprobe/start
bootprobe_start @probetrace
exit 0
