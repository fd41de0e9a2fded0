set terminal svg size 720,420 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'kills.svg.tmp'
set xlabel 'seconds since kernel start'
set ylabel 'boot'
set grid
set key outside right
set yrange [0:11]
set xrange [0:*]
plot 'kills.dat' index 0 using 1:2 with points pt 7 title 'initramfs-tools', 'kills.dat' index 1 using 1:2 with points pt 7 title 'dracut'
set terminal pngcairo size 720,420 noenhanced font 'sans,10'
set output 'kills.png.tmp'
replot
unset output
