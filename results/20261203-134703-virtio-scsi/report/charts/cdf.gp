set terminal svg size 720,420 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'cdf.svg'
set xlabel 'probe time (s)'
set ylabel 'fraction of probes'
set yrange [0:1.05]
set key bottom right
set grid
plot 'cdf.dat' index 0 using 1:2 with steps lw 2 title 'sync: virtio_scsi', 'cdf.dat' index 1 using 1:2 with steps lw 2 title 'sync: sd', 'cdf.dat' index 2 using 1:2 with steps lw 2 title 'async-probe: sd', 'cdf.dat' index 3 using 1:2 with steps lw 2 title 'async-probe: virtio_scsi'
set terminal pngcairo size 720,420 noenhanced font 'sans,10'
set output 'cdf.png'
replot
unset output
