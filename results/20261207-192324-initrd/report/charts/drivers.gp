set terminal svg size 900,816 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'drivers.svg.tmp'
set title '37 drivers probed in the baseline and another mode' noenhanced
set xlabel 'difference of the median probe time per boot against initramfs-tools (s); bar: 95 % CI'
set ytics ('e1000' 0, 'snd_hda_codec_generic' 1, 'bochs-drm' 2, 'e1000e' 3, 'ahci' 4, 'virtio_input' 5, 'sym53c8xx' 6, 'xhci_hcd' 7, 'hid-generic' 8, 'snd_intel8x0' 9, 'snd_ens1370' 10, 'usb' 11, 'hub' 12, '8139cp' 13, 'sd' 14, 'usb-storage' 15, 'ehci-pci' 16, 'mmcblk' 17, 'usbhid' 18, 'iTCO_wdt' 19, 'virtio_blk' 20, 'lpc_ich' 21, 'button' 22, 'virtio_scsi' 23, 'i801_smbus' 24, 'virtio_balloon' 25, 'virtio_net' 26, 'sdhci-pci' 27, 'pvpanic-pci' 28, 'i6300ESB timer' 29, 'snd_hda_intel' 30, 'nvme' 31, 'psmouse' 32, 'virtio_rng' 33, 'pcspkr' 34, 'fw_cfg' 35, 'vga16fb' 36)
set yrange [36.7:-0.7]
set ytics scale 0
set grid ytics xtics
set offsets graph 0.05, graph 0.05, 0, 0
set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb '#777777' back
set key above horizontal
plot 'drivers.dat' index 0 using 2:($5 == 7 ? $1 : NaN):3:4 with xerrorbars pt 7 ps 0.9 lc rgb '#1f77b4' title 'dracut against initramfs-tools', '' index 0 using 2:($5 == 6 ? $1 : NaN):3:4 with xerrorbars pt 6 ps 0.9 lc rgb '#1f77b4' notitle, NaN with points pt 7 lc rgb '#000000' title 'filled: faster or slower', NaN with points pt 6 lc rgb '#000000' title 'open: no clear change'
set terminal pngcairo size 900,816 noenhanced font 'sans,10'
set output 'drivers.png.tmp'
replot
unset output
