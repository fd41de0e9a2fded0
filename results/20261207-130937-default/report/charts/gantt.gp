set terminal svg size 1200,2241 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gantt.svg.tmp'
set xrange [0:17.456]
set grid xtics
unset ytics
set lmargin 3
set rmargin 3
set key below horizontal samplen 2
set style textbox opaque noborder margins 1,0
do for [t=1:2] {
if (t == 2) { set terminal pngcairo size 1200,2241 noenhanced font 'sans,10'; set output 'gantt.png.tmp' }
set multiplot
set origin 0,0.90406
set size 1,0.09594
set title 'sync-killable: sync-killable-004 (seconds since kernel start)' noenhanced
set yrange [4.7:-0.7]
unset arrow
set arrow from 12.7017, graph 0 to 12.7017, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 12.7413, graph 0 to 12.7413, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-0.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.80812
set size 1,0.09594
set title 'sync-unkillable: sync-unkillable-003 (seconds since kernel start)' noenhanced
set yrange [4.7:-0.7]
unset arrow
set arrow from 13.2088, graph 0 to 13.2088, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 13.2470, graph 0 to 13.2470, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-1.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.71798
set size 1,0.09014
set title 'grace-30s: grace-30s-003 (seconds since kernel start)' noenhanced
set yrange [3.7:-0.7]
unset arrow
set arrow from 13.4465, graph 0 to 13.4465, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 13.4869, graph 0 to 13.4869, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-2.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.62204
set size 1,0.09594
set title 'grace-120s: grace-120s-002 (seconds since kernel start)' noenhanced
set yrange [4.7:-0.7]
unset arrow
set arrow from 13.5545, graph 0 to 13.5545, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 13.5982, graph 0 to 13.5982, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-3.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.52610
set size 1,0.09594
set title 'lvm-rules-180: lvm-rules-180-006 (seconds since kernel start)' noenhanced
set yrange [4.7:-0.7]
unset arrow
set arrow from 12.6750, graph 0 to 12.6750, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 12.7201, graph 0 to 12.7201, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-4.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.43017
set size 1,0.09594
set title 'udev-conf-180: udev-conf-180-004 (seconds since kernel start)' noenhanced
set yrange [4.7:-0.7]
unset arrow
set arrow from 13.2415, graph 0 to 13.2415, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 13.2958, graph 0 to 13.2958, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-5.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.33423
set size 1,0.09594
set title 'sync-180: sync-180-001 (seconds since kernel start)' noenhanced
set yrange [4.7:-0.7]
unset arrow
set arrow from 13.2183, graph 0 to 13.2183, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 13.2479, graph 0 to 13.2479, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-6.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.22668
set size 1,0.10754
set title 'async-probe: async-probe-001 (seconds since kernel start)' noenhanced
set yrange [6.7:-0.7]
unset arrow
set arrow from 2.8817, graph 0 to 2.8817, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 8.9029, graph 0 to 8.9029, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-7.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.11334
set size 1,0.11334
set title 'module-async: module-async-005 (seconds since kernel start)' noenhanced
set yrange [7.7:-0.7]
unset arrow
set arrow from 2.5298, graph 0 to 2.5298, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 8.6265, graph 0 to 8.6265, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-8.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.00000
set size 1,0.11334
set title 'driver-async: driver-async-006 (seconds since kernel start)' noenhanced
set yrange [7.7:-0.7]
unset arrow
set arrow from 8.6165, graph 0 to 8.6165, graph 1 nohead dt 2 lw 1.5 lc rgb '#8c564b' back
set arrow from 8.6544, graph 0 to 8.6544, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-9.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#8c564b' title 'udev''s queue empty after coldplug', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
unset multiplot
}
unset output
