set terminal svg size 900,204 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'drivers.svg.tmp'
set title '1 driver probed in the baseline and another mode' noenhanced
set xlabel 'difference of the median probe time per boot against sync (s); bar: 95 % CI'
set ytics ('slowprobe' 0)
set yrange [0.7:-0.7]
set ytics scale 0
set grid ytics xtics
set offsets graph 0.05, graph 0.05, 0, 0
set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb '#777777' back
set key above horizontal
plot 'drivers.dat' index 0 using 2:($5 == 7 ? $1 : NaN):3:4 with xerrorbars pt 7 ps 0.9 lc rgb '#1f77b4' title 'driver-async against sync', '' index 0 using 2:($5 == 6 ? $1 : NaN):3:4 with xerrorbars pt 6 ps 0.9 lc rgb '#1f77b4' notitle, 'drivers.dat' index 1 using 2:($5 == 7 ? $1 : NaN):3:4 with xerrorbars pt 7 ps 0.9 lc rgb '#ff7f0e' title 'module-async against sync', '' index 1 using 2:($5 == 6 ? $1 : NaN):3:4 with xerrorbars pt 6 ps 0.9 lc rgb '#ff7f0e' notitle, NaN with points pt 7 lc rgb '#000000' title 'filled: faster or slower', NaN with points pt 6 lc rgb '#000000' title 'open: no clear change'
set terminal pngcairo size 900,204 noenhanced font 'sans,10'
set output 'drivers.png.tmp'
replot
unset output
