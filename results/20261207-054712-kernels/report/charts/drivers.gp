set terminal svg size 900,780 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'drivers.svg.tmp'
set title '35 drivers probed in the baseline and another mode' noenhanced
set xlabel 'difference of the median probe time per boot against debian-12 (s); bar: 95 % CI'
set ytics ('bochs-drm' 0, 'e1000' 1, 'snd_ens1370' 2, 'ehci-pci' 3, 'snd_intel8x0' 4, 'psmouse' 5, 'ahci' 6, 'virtio_input' 7, 'usb' 8, '8139cp' 9, 'sdhci-pci' 10, 'button' 11, 'mmcblk' 12, 'sym53c8xx' 13, 'xhci_hcd' 14, 'virtio_blk' 15, 'virtio_net' 16, 'iTCO_wdt' 17, 'virtio_scsi' 18, 'pcspkr' 19, 'snd_hda_intel' 20, 'hub' 21, 'hid-generic' 22, 'i801_smbus' 23, 'e1000e' 24, 'snd_hda_codec_generic' 25, 'virtio_balloon' 26, 'sd' 27, 'nvme' 28, 'pvpanic-pci' 29, 'usb-storage' 30, 'lpc_ich' 31, 'usbhid' 32, 'virtio_rng' 33, 'fw_cfg' 34)
set yrange [34.7:-0.7]
set ytics scale 0
set grid ytics xtics
set offsets graph 0.05, graph 0.05, 0, 0
set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb '#777777' back
set key above horizontal
plot 'drivers.dat' index 0 using 2:($5 == 7 ? $1 : NaN):3:4 with xerrorbars pt 7 ps 0.9 lc rgb '#1f77b4' title 'debian-13 against debian-12', '' index 0 using 2:($5 == 6 ? $1 : NaN):3:4 with xerrorbars pt 6 ps 0.9 lc rgb '#1f77b4' notitle, 'drivers.dat' index 1 using 2:($5 == 7 ? $1 : NaN):3:4 with xerrorbars pt 7 ps 0.9 lc rgb '#ff7f0e' title 'debian-13-bpo against debian-12', '' index 1 using 2:($5 == 6 ? $1 : NaN):3:4 with xerrorbars pt 6 ps 0.9 lc rgb '#ff7f0e' notitle, NaN with points pt 7 lc rgb '#000000' title 'filled: faster or slower', NaN with points pt 6 lc rgb '#000000' title 'open: no clear change'
set terminal pngcairo size 900,780 noenhanced font 'sans,10'
set output 'drivers.png.tmp'
replot
unset output
