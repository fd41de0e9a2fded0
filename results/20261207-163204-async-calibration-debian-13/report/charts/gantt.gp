set terminal svg size 1200,749 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gantt.svg.tmp'
set xrange [0:90.755]
set grid xtics
unset ytics
set lmargin 3
set rmargin 3
set key below horizontal samplen 2
set style textbox opaque noborder margins 1,0
do for [t=1:2] {
if (t == 2) { set terminal pngcairo size 1200,749 noenhanced font 'sans,10'; set output 'gantt.png.tmp' }
set multiplot
set origin 0,0.64352
set size 1,0.35648
set title 'sync-13: sync-13-002 (seconds since kernel start)' noenhanced
set yrange [8.7:-0.7]
unset arrow
set arrow from 9.8810, graph 0 to 9.8810, graph 1 nohead dt 2 lw 1.5 lc rgb '#2ca02c' back
set arrow from 19.7416, graph 0 to 19.7416, graph 1 nohead dt 2 lw 1.5 lc rgb '#9467bd' back
set arrow from 40.9818, graph 0 to 40.9818, graph 1 nohead dt 2 lw 1.5 lc rgb '#17becf' back
set arrow from 40.9818, graph 0 to 40.9818, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-0.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'root device ready (vda)', NaN with lines dt 2 lw 1.5 lc rgb '#9467bd' title '/init hands over to the root''s init', NaN with lines dt 2 lw 1.5 lc rgb '#17becf' title 'multi-user.target reached', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.32176
set size 1,0.32176
set title 'driver-async-13: driver-async-13-004 (seconds since kernel start)' noenhanced
set yrange [6.7:-0.7]
unset arrow
set arrow from 8.9927, graph 0 to 8.9927, graph 1 nohead dt 2 lw 1.5 lc rgb '#2ca02c' back
set arrow from 19.7976, graph 0 to 19.7976, graph 1 nohead dt 2 lw 1.5 lc rgb '#9467bd' back
set arrow from 42.8065, graph 0 to 42.8065, graph 1 nohead dt 2 lw 1.5 lc rgb '#17becf' back
set arrow from 42.8065, graph 0 to 42.8065, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-1.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'root device ready (vda)', NaN with lines dt 2 lw 1.5 lc rgb '#9467bd' title '/init hands over to the root''s init', NaN with lines dt 2 lw 1.5 lc rgb '#17becf' title 'multi-user.target reached', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.00000
set size 1,0.32176
set title 'module-async-13: module-async-13-002 (seconds since kernel start)' noenhanced
set yrange [6.7:-0.7]
unset arrow
set arrow from 10.3779, graph 0 to 10.3779, graph 1 nohead dt 2 lw 1.5 lc rgb '#2ca02c' back
set arrow from 24.0918, graph 0 to 24.0918, graph 1 nohead dt 2 lw 1.5 lc rgb '#9467bd' back
set arrow from 45.3034, graph 0 to 45.3034, graph 1 nohead dt 2 lw 1.5 lc rgb '#17becf' back
set arrow from 45.3034, graph 0 to 45.3034, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-2.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'root device ready (vda)', NaN with lines dt 2 lw 1.5 lc rgb '#9467bd' title '/init hands over to the root''s init', NaN with lines dt 2 lw 1.5 lc rgb '#17becf' title 'multi-user.target reached', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
unset multiplot
}
unset output
