set terminal svg size 900,816 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'drivers.svg.tmp'
set title '37 drivers probed in the baseline and another mode' noenhanced
set xlabel 'difference of the median probe time per boot against sync-13 (s); bar: 95 % CI'
set ytics ('e1000' 0, 'bochs-drm' 1, 'virtio_blk' 2, 'sym53c8xx' 3, 'snd_ens1370' 4, 'e1000e' 5, 'xhci_hcd' 6, 'virtio_input' 7, 'snd_intel8x0' 8, 'virtio_net' 9, 'virtio_scsi' 10, 'ahci' 11, 'button' 12, '8139cp' 13, 'usb' 14, 'pcspkr' 15, 'virtio_balloon' 16, 'i6300ESB timer' 17, 'mmcblk' 18, 'pvpanic-pci' 19, 'lpc_ich' 20, 'sd' 21, 'hub' 22, 'nvme' 23, 'iTCO_wdt' 24, 'ehci-pci' 25, 'snd_hda_intel' 26, 'usb-storage' 27, 'snd_hda_codec_generic' 28, 'i801_smbus' 29, 'usbhid' 30, 'sdhci-pci' 31, 'hid-generic' 32, 'fw_cfg' 33, 'virtio_rng' 34, 'psmouse' 35, 'vga16fb' 36)
set yrange [36.7:-0.7]
set ytics scale 0
set grid ytics xtics
set offsets graph 0.05, graph 0.05, 0, 0
set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb '#777777' back
set key above horizontal
plot 'drivers.dat' index 0 using 2:($5 == 7 ? $1 : NaN):3:4 with xerrorbars pt 7 ps 0.9 lc rgb '#1f77b4' title 'driver-async-13 against sync-13', '' index 0 using 2:($5 == 6 ? $1 : NaN):3:4 with xerrorbars pt 6 ps 0.9 lc rgb '#1f77b4' notitle, 'drivers.dat' index 1 using 2:($5 == 7 ? $1 : NaN):3:4 with xerrorbars pt 7 ps 0.9 lc rgb '#ff7f0e' title 'module-async-13 against sync-13', '' index 1 using 2:($5 == 6 ? $1 : NaN):3:4 with xerrorbars pt 6 ps 0.9 lc rgb '#ff7f0e' notitle, NaN with points pt 7 lc rgb '#000000' title 'filled: faster or slower', NaN with points pt 6 lc rgb '#000000' title 'open: no clear change'
set terminal pngcairo size 900,816 noenhanced font 'sans,10'
set output 'drivers.png.tmp'
replot
unset output
