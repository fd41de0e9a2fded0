set terminal svg size 1200,723 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gantt.svg.tmp'
set xrange [0:16.088]
set grid xtics
unset ytics
set lmargin 3
set rmargin 3
set key below horizontal samplen 2
set style textbox opaque noborder margins 1,0
do for [t=1:2] {
if (t == 2) { set terminal pngcairo size 1200,723 noenhanced font 'sans,10'; set output 'gantt.png.tmp' }
set multiplot
set origin 0,0.70263
set size 1,0.29737
set title 'sync: sync-007 (seconds since kernel start)' noenhanced
set yrange [4.7:-0.7]
unset arrow
set arrow from 13.0339, graph 0 to 13.0339, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 13.0584, graph 0 to 13.0584, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-0.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.35131
set size 1,0.35131
set title 'driver-async: driver-async-009 (seconds since kernel start)' noenhanced
set yrange [7.7:-0.7]
unset arrow
set arrow from 8.3689, graph 0 to 8.3689, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 8.4112, graph 0 to 8.4112, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-1.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.00000
set size 1,0.35131
set title 'module-async: module-async-005 (seconds since kernel start)' noenhanced
set yrange [7.7:-0.7]
unset arrow
set arrow from 2.3152, graph 0 to 2.3152, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 8.3732, graph 0 to 8.3732, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-2.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
unset multiplot
}
unset output
