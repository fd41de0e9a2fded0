set terminal svg size 1200,495 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gantt.svg.tmp'
set xrange [0:179.087]
set grid xtics
unset ytics
set lmargin 3
set rmargin 3
set key below horizontal samplen 2
set style textbox opaque noborder margins 1,0
do for [t=1:2] {
if (t == 2) { set terminal pngcairo size 1200,495 noenhanced font 'sans,10'; set output 'gantt.png.tmp' }
set multiplot
set origin 0,0.43434
set size 1,0.56566
set title 'initramfs-tools: initramfs-tools-005 (seconds since kernel start)' noenhanced
set yrange [9.7:-0.7]
unset arrow
set arrow from 15.6392, graph 0 to 15.6392, graph 1 nohead dt 2 lw 1.5 lc rgb '#2ca02c' back
set arrow from 35.5570, graph 0 to 35.5570, graph 1 nohead dt 2 lw 1.5 lc rgb '#9467bd' back
set arrow from 70.5354, graph 0 to 70.5354, graph 1 nohead dt 2 lw 1.5 lc rgb '#17becf' back
set arrow from 70.5354, graph 0 to 70.5354, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-0.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'root device ready (vda)', NaN with lines dt 2 lw 1.5 lc rgb '#9467bd' title '/init hands over to the root''s init', NaN with lines dt 2 lw 1.5 lc rgb '#17becf' title 'multi-user.target reached', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
set origin 0,0.00000
set size 1,0.43434
set title 'dracut: dracut-002 (seconds since kernel start)' noenhanced
set yrange [4.7:-0.7]
unset arrow
set arrow from 28.6218, graph 0 to 28.6218, graph 1 nohead dt 2 lw 1.5 lc rgb '#2ca02c' back
set arrow from 49.0640, graph 0 to 49.0640, graph 1 nohead dt 2 lw 1.5 lc rgb '#9467bd' back
set arrow from 91.6780, graph 0 to 91.6780, graph 1 nohead dt 2 lw 1.5 lc rgb '#17becf' back
set arrow from 91.6780, graph 0 to 91.6780, graph 1 nohead lw 1.5 lc rgb '#000000' back
plot 'gantt-1.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using 2:1:3 with labels boxed left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe', NaN with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'root device ready (vda)', NaN with lines dt 2 lw 1.5 lc rgb '#9467bd' title '/init hands over to the root''s init', NaN with lines dt 2 lw 1.5 lc rgb '#17becf' title 'multi-user.target reached', NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'
unset multiplot
}
unset output
