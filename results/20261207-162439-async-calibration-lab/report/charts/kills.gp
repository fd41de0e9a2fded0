set terminal svg size 720,420 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'kills.svg.tmp'
set xlabel 'seconds since kernel start'
set ylabel 'boot'
set grid
set key outside right
set yrange [0:61]
set xrange [0:14]
set label 1 'no SIGKILL in any boot' at graph 0.5, 0.5 center
plot NaN notitle
set terminal pngcairo size 720,420 noenhanced font 'sans,10'
set output 'kills.png.tmp'
replot
unset output
