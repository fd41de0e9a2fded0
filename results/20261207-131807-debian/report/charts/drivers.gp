set terminal svg size 900,834 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'drivers.svg.tmp'
set title '38 drivers probed in the baseline and another mode' noenhanced
set xlabel 'difference of the median probe time per boot against sync (s); bar: 95 % CI'
set ytics ('e1000' 0, 'virtio_blk' 1, 'usb' 2, 'hid-generic' 3, 'sym53c8xx' 4, 'virtio_scsi' 5, 'ehci-pci' 6, 'e1000e' 7, 'xhci_hcd' 8, '8139cp' 9, 'snd_ens1370' 10, 'virtio_input' 11, 'bochs-drm' 12, 'sd' 13, 'button' 14, 'pvpanic-pci' 15, 'virtio-pci' 16, 'virtio_net' 17, 'pcspkr' 18, 'hub' 19, 'iTCO_wdt' 20, 'virtio_balloon' 21, 'lpc_ich' 22, 'i801_smbus' 23, 'sdhci-pci' 24, 'i6300ESB timer' 25, 'mmcblk' 26, 'ahci' 27, 'nvme' 28, 'snd_hda_intel' 29, 'snd_hda_codec_generic' 30, 'virtio_rng' 31, 'virtio_console' 32, 'psmouse' 33, 'usb-storage' 34, 'snd_intel8x0' 35, 'usbhid' 36, 'fw_cfg' 37)
set yrange [37.7:-0.7]
set ytics scale 0
set grid ytics xtics
set offsets graph 0.05, graph 0.05, 0, 0
set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb '#777777' back
set key above horizontal
plot 'drivers.dat' index 0 using 2:($5 == 7 ? $1 : NaN):3:4 with xerrorbars pt 7 ps 0.9 lc rgb '#1f77b4' title 'driver-async against sync', '' index 0 using 2:($5 == 6 ? $1 : NaN):3:4 with xerrorbars pt 6 ps 0.9 lc rgb '#1f77b4' notitle, 'drivers.dat' index 1 using 2:($5 == 7 ? $1 : NaN):3:4 with xerrorbars pt 7 ps 0.9 lc rgb '#ff7f0e' title 'module-async against sync', '' index 1 using 2:($5 == 6 ? $1 : NaN):3:4 with xerrorbars pt 6 ps 0.9 lc rgb '#ff7f0e' notitle, NaN with points pt 7 lc rgb '#000000' title 'filled: faster or slower', NaN with points pt 6 lc rgb '#000000' title 'open: no clear change'
set terminal pngcairo size 900,834 noenhanced font 'sans,10'
set output 'drivers.png.tmp'
replot
unset output
