set terminal svg size 1440,1520 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gantt.svg.tmp'
set style fill solid 0.8 border -1
set xrange [0:18.771]
set xlabel 'seconds since kernel start'
set grid xtics
unset key
do for [t=1:2] {
if (t == 2) { set terminal pngcairo size 1440,1520 noenhanced font 'sans,10'; set output 'gantt.png.tmp' }
set multiplot layout 4,3
set title 'sync-killable: sync-killable-005' noenhanced
set yrange [-0.6:4]
unset ytics
plot 'gantt-0.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'sync-unkillable: sync-unkillable-002' noenhanced
set yrange [-0.6:4]
unset ytics
plot 'gantt-1.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'grace-30s: grace-30s-004' noenhanced
set yrange [-0.6:4]
unset ytics
plot 'gantt-2.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'grace-120s: grace-120s-001' noenhanced
set yrange [-0.6:4]
unset ytics
plot 'gantt-3.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'lvm-rules-180: lvm-rules-180-001' noenhanced
set yrange [-0.6:4]
unset ytics
plot 'gantt-4.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'udev-conf-180: udev-conf-180-004' noenhanced
set yrange [-0.6:4]
unset ytics
plot 'gantt-5.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'sync-180: sync-180-002' noenhanced
set yrange [-0.6:4]
unset ytics
plot 'gantt-6.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'async-probe: async-probe-004' noenhanced
set yrange [-0.6:4]
unset ytics
plot 'gantt-7.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'module-async: module-async-001' noenhanced
set yrange [-0.6:4]
unset ytics
plot 'gantt-8.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
set title 'driver-async: driver-async-003' noenhanced
set yrange [-0.6:4]
unset ytics
plot 'gantt-9.dat' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'
unset multiplot
}
unset output
