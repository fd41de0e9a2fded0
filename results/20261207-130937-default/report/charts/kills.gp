set terminal svg size 720,420 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'kills.svg.tmp'
set xlabel 'seconds since kernel start'
set ylabel 'boot'
set grid
set key outside right
set yrange [0:61]
set xrange [0:*]
plot 'kills.dat' index 0 using 1:2 with points pt 7 title 'sync-killable', 'kills.dat' index 1 using 1:2 with points pt 7 title 'sync-unkillable', 'kills.dat' index 2 using 1:2 with points pt 7 title 'grace-30s', 'kills.dat' index 3 using 1:2 with points pt 7 title 'grace-120s', 'kills.dat' index 4 using 1:2 with points pt 7 title 'lvm-rules-180', 'kills.dat' index 5 using 1:2 with points pt 7 title 'driver-async'
set terminal pngcairo size 720,420 noenhanced font 'sans,10'
set output 'kills.png.tmp'
replot
unset output
