set terminal svg size 1200,840 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gantt.svg.tmp'
set xrange [0:83.081]
set grid xtics
unset ytics
set lmargin 3
set rmargin 3
set key below horizontal samplen 2
set style textbox opaque noborder margins 1,0
do for [t=1:2] {
if (t == 2) { set terminal pngcairo size 1200,840 noenhanced font 'sans,10'; set output 'gantt.png.tmp' }
set multiplot
set origin 0,0.62024
set size 1,0.37976
set title 'debian-12: debian-12-002 (seconds since kernel start)' noenhanced
set yrange [12.7:-0.7]
unset arrow
set arrow from 6.1781, graph 0 to 6.1781, graph 1 nohead dt 2 lw 1.5 lc rgb '#2ca02c' back
set arrow from 13.0943, graph 0 to 13.0943, graph 1 nohead dt 2 lw 1.5 lc rgb '#9467bd' back
set arrow from 29.7610, graph 0 to 29.7610, graph 1 nohead dt 2 lw 1.5 lc rgb '#17becf' back
set arrow from 29.7610, graph 0 to 29.7610, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-0.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'root device ready (vda)', NaN with lines dt 2 lw 1.5 lc rgb '#9467bd' title '/init hands over to the root''s init', NaN with lines dt 2 lw 1.5 lc rgb '#17becf' title 'multi-user.target reached', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.30238
set size 1,0.31786
set title 'debian-13: debian-13-004 (seconds since kernel start)' noenhanced
set yrange [8.7:-0.7]
unset arrow
set arrow from 7.4655, graph 0 to 7.4655, graph 1 nohead dt 2 lw 1.5 lc rgb '#2ca02c' back
set arrow from 16.3436, graph 0 to 16.3436, graph 1 nohead dt 2 lw 1.5 lc rgb '#9467bd' back
set arrow from 37.5945, graph 0 to 37.5945, graph 1 nohead dt 2 lw 1.5 lc rgb '#17becf' back
set arrow from 37.5945, graph 0 to 37.5945, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-1.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'root device ready (vda)', NaN with lines dt 2 lw 1.5 lc rgb '#9467bd' title '/init hands over to the root''s init', NaN with lines dt 2 lw 1.5 lc rgb '#17becf' title 'multi-user.target reached', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.00000
set size 1,0.30238
set title 'debian-13-bpo: debian-13-bpo-001 (seconds since kernel start)' noenhanced
set yrange [7.7:-0.7]
unset arrow
set arrow from 7.7818, graph 0 to 7.7818, graph 1 nohead dt 2 lw 1.5 lc rgb '#2ca02c' back
set arrow from 18.0714, graph 0 to 18.0714, graph 1 nohead dt 2 lw 1.5 lc rgb '#9467bd' back
set arrow from 46.7981, graph 0 to 46.7981, graph 1 nohead dt 2 lw 1.5 lc rgb '#17becf' back
set arrow from 46.7981, graph 0 to 46.7981, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-2.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'root device ready (vda)', NaN with lines dt 2 lw 1.5 lc rgb '#9467bd' title '/init hands over to the root''s init', NaN with lines dt 2 lw 1.5 lc rgb '#17becf' title 'multi-user.target reached', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
unset multiplot
}
unset output
