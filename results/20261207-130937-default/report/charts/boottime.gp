set terminal svg size 820,420 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'boottime.svg.tmp'
set xtics rotate by 30 right
set xrange [-0.6:9.6]
set ylabel 'boot time (s)'
set yrange [0:*]
unset key
set grid ytics
set xtics ('sync-killable' 0, 'sync-unkillable' 1, 'grace-30s' 2, 'grace-120s' 3, 'lvm-rules-180' 4, 'udev-conf-180' 5, 'sync-180' 6, 'async-probe' 7, 'module-async' 8, 'driver-async' 9)
plot 'boottime.dat' index 0 using 1:2 with points pt 7 ps 0.7 lc rgb '#1f77b4', '' index 1 using 1:2:(0.3):(0) with vectors nohead lw 3 lc rgb '#d62728'
set terminal pngcairo size 820,420 noenhanced font 'sans,10'
set output 'boottime.png.tmp'
replot
unset output
