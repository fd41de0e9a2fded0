set terminal svg size 720,420 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'cdf.svg.tmp'
set xlabel 'probe time (s)'
set ylabel 'fraction of probes'
set yrange [0:1.05]
set key bottom right
set grid
plot 'cdf.dat' index 0 using 1:2 with steps lw 2 title 'sync-killable: slowprobe', 'cdf.dat' index 1 using 1:2 with steps lw 2 title 'sync-unkillable: slowprobe', 'cdf.dat' index 2 using 1:2 with steps lw 2 title 'grace-30s: slowprobe', 'cdf.dat' index 3 using 1:2 with steps lw 2 title 'grace-120s: slowprobe', 'cdf.dat' index 4 using 1:2 with steps lw 2 title 'lvm-rules-180: slowprobe', 'cdf.dat' index 5 using 1:2 with steps lw 2 title 'udev-conf-180: slowprobe', 'cdf.dat' index 6 using 1:2 with steps lw 2 title 'sync-180: slowprobe', 'cdf.dat' index 7 using 1:2 with steps lw 2 title 'async-probe: slowprobe', 'cdf.dat' index 8 using 1:2 with steps lw 2 title 'module-async: slowprobe', 'cdf.dat' index 9 using 1:2 with steps lw 2 title 'driver-async: slowprobe'
set terminal pngcairo size 720,420 noenhanced font 'sans,10'
set output 'cdf.png.tmp'
replot
unset output
