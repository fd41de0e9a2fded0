#!/bin/sh
# ExecStart of bootprobe-handover.service in a dracut initrd (installed
# there as /usr/lib/bootprobe/dracut-handover): what initramfs-tools'
# local-bottom and init-bottom scripts do, just before switch-root: wait
# for a collector started beside the boot to be ready, then mark the
# hand-over (bootprobe splits systemd-analyze's times there).
. /usr/lib/bootprobe/wait
bootprobe_wait /run/bootprobe
read -r up _ </proc/uptime
echo "<5>bootprobe: initramfs hands over to the root at $up s" >/dev/kmsg
exit 0
