set terminal svg size 640,420 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'boottime.svg.tmp'
set xrange [-0.6:1.6]
set ylabel 'boot time (s)'
set yrange [0:*]
unset key
set grid ytics
set xtics ('initramfs-tools' 0, 'dracut' 1)
plot 'boottime.dat' index 0 using 1:2 with points pt 7 ps 0.7 lc rgb '#1f77b4', '' index 1 using 1:2:(0.3):(0) with vectors nohead lw 3 lc rgb '#d62728'
set terminal pngcairo size 640,420 noenhanced font 'sans,10'
set output 'boottime.png.tmp'
replot
unset output
