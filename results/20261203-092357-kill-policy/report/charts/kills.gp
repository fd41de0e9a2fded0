set terminal svg size 720,420 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'kills.svg'
set xlabel 'seconds since kernel start'
set ylabel 'boot'
set grid
set key outside right
set yrange [0:16]
set xrange [0:*]
plot 'kills.dat' index 0 using 1:2 with points pt 7 title 'killable', 'kills.dat' index 1 using 1:2 with points pt 7 title 'unkillable', 'kills.dat' index 2 using 1:2 with points pt 7 title 'grace', 'kills.dat' index 3 using 1:2 with points pt 7 title 'async'
set terminal pngcairo size 720,420 noenhanced font 'sans,10'
set output 'kills.png'
replot
unset output
