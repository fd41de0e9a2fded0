set terminal svg size 1440,380 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gantt.svg.tmp'
set style fill solid 0.8 border -1
set xrange [0:89.361]
set xlabel 'seconds since kernel start'
set grid xtics
unset key
do for [t=1:2] {
if (t == 2) { set terminal pngcairo size 1440,380 noenhanced font 'sans,10'; set output 'gantt.png.tmp' }
set multiplot layout 1,3
set title 'debian-12: debian-12-002' noenhanced
set yrange [-0.6:56]
unset ytics
plot 'gantt-0.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'debian-13: debian-13-004' noenhanced
set yrange [-0.6:49]
unset ytics
plot 'gantt-1.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'debian-13-bpo: debian-13-bpo-003' noenhanced
set yrange [-0.6:49]
unset ytics
plot 'gantt-2.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
unset multiplot
}
unset output
