// SPDX-License-Identifier: GPL-2.0
/*
 * Charts through gnuplot: the program writes plain data files and one
 * script per chart, then runs gnuplot on each script, which renders an SVG
 * (inlined in report.html) and a PNG.  Each chart is drawn in a new
 * folder of its own under DIR/charts/ (nothing planted can be in it), and
 * its files are renamed into DIR/charts/ from there.  Which charts this
 * call drew is said to the caller: only those are shown.  A chart that
 * fails leaves what stood in charts/ as it was (a full disk loses no
 * earlier picture) but is never shown, whatever came with the folder.
 */
#define _GNU_SOURCE
#include "charts.h"
#include "slowest.h"
#include "analyze.h"
#include "drivers.h"
#include "rng.h"
#include "fsat.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *const chart_names[] = { "gantt", "boottime", "drivers", "kills", NULL };
const char *const chart_titles[] = {
	"Probe timeline of a typical boot per mode (labelled: the slowest probes, the last "
	"before each milestone, the failed)",
	"Boot time per mode (each point a boot; bar: median)",
	"Per-driver probe time (against the baseline: difference of medians and its 95 % CI; "
	"of one mode: median and interquartile range)",
	"SIGKILLs over time (each point a kill; y: boot)",
};

/* ---- escaping: names from a guest or a results folder, one helper per place ---- */

/*
 * @s inside a gnuplot single-quoted string ('...'): a quote is written
 * twice, and a control byte (a newline would end the command and start
 * another) becomes '?'.  The caller frees.
 */
static char *gp_str(const char *s)
{
	char *out = xmalloc(strlen(s) * 2 + 1), *o = out;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			*o++ = '?';
		else if ((*o++ = (char)*p) == '\'')
			*o++ = '\'';
	}
	*o = '\0';
	return out;
}

/*
 * @s in a data file, inside a double-quoted field or after '#': a double
 * quote (it would end the field) becomes ', a control byte (a newline
 * would start a data line) '?'.  The caller frees.
 */
static char *gp_data(const char *s)
{
	char *out = xstrdup(s);

	for (unsigned char *p = (unsigned char *)out; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
		else if (*p == '"')
			*p = '\'';
	return out;
}

#define WHO "bootprobe report"

/* What a chart's writer returns when no mode has anything to draw in it: nothing written. */
#define CHART_EMPTY 1

/*
 * A chart's script NAME.gp and its data file NAME.dat, printed into memory
 * and written whole by charts_commit() (util's out_file).
 */
struct chart_files {
	struct out_file gp, dat;
};

/* Where a chart is drawn: the folder open at @fd, @path for messages. */
struct draw_dir {
	int fd;
	const char *path;
};

static void chart_open(struct chart_files *c, const struct draw_dir *dir, const char *name,
		       FILE **gp, FILE **dat)
{
	char *gpn = xasprintf("%s.gp", name), *datn = xasprintf("%s.dat", name);

	*gp = out_file__open_at(&c->gp, dir->fd, dir->path, gpn);
	*dat = out_file__open_at(&c->dat, dir->fd, dir->path, datn);
	free(gpn);
	free(datn);
}

static int chart_commit(struct chart_files *c)
{
	int err = out_file__commit(&c->dat, WHO);

	return out_file__commit(&c->gp, WHO) | err;
}

/*
 * Both terminals, same plot: the script's body is replayed for the PNG.
 * gnuplot writes NAME.svg.tmp and NAME.png.tmp in the chart's own folder,
 * put in place once it wrote them whole (chart_publish()), so a chart is
 * never half a file.
 */
static void script_head(FILE *f, const char *name, int width, int height)
{
	fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'sans,11' background '#ffffff'\n"
		"set output '%s.svg.tmp'\n", width, height, name);
}

static void script_tail(FILE *f, const char *name, int width, int height)
{
	fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'sans,10'\n"
		"set output '%s.png.tmp'\nreplot\nunset output\n", width, height, name);
}

/* ---- the probe timeline: one mode a row, only the probes that matter labelled ---- */

#define TL_WIDTH 1200		/* px */
#define TL_PLOT_W 1110		/* px of it inside the margins (3 characters a side) */
#define TL_CHAR_PX 6.5		/* a label's character at font 8, generously */
#define TL_LANE_PX 13		/* px a lane of bars takes */
#define TL_FRAME_PX 150		/* a row's title, x axis, its label and a key of two lines */
#define TL_SLOWEST 8		/* probes labelled for their length */
#define TL_MAX_LANES 48		/* lanes a row has at most */
#define TL_MAX_BARS 2000	/* bars a row draws at most (the longest, and every labelled) */

static const char *const milestone_colors[MS_COUNT] = {
	"#2ca02c", "#9467bd", "#8c564b", "#17becf",
};

struct tl_bar {
	const struct probe_span *p;
	int lane;
	char label[128];		/* "" when not labelled */
};

/* One mode's row: its typical boot's probes, packed into lanes. */
struct tl_row {
	const struct boot_data *b;
	struct tl_bar *bars;
	int n, lanes;
	struct milestone_at ms[MS_COUNT];
	double boot_s;
	int probes;		/* timed probes of the boot; n of them drawn */
};

/* A duration for a label: "1.78 s", "35 ms". */
static const char *fmt_span(double s, char *buf, size_t len)
{
	if (s >= 0.1)
		snprintf(buf, len, "%.2f s", s);
	else
		snprintf(buf, len, "%.0f ms", s * 1e3);
	return buf;
}

/* Label the TL_SLOWEST longest probes, the failed and the last to end before each milestone. */
static void tl_row__label(struct tl_row *t)
{
	const struct probe_span *last[MS_COUNT] = { 0 };

	/* Each milestone's last probe, found once: a boot may have many thousands. */
	for (int k = 0; k < MS_COUNT; k++) {
		int i;

		if (boot__probes_before(t->b, t->ms[k].s, &i, 1) == 1)
			last[k] = &t->b->probes[i];
	}
	for (int i = 0; i < t->n; i++) {
		struct tl_bar *bar = &t->bars[i];
		const struct probe_span *p = bar->p;
		/* bars[] are still in order of duration here: bar i is the i-th longest */
		bool label = probe_span__failed(p) || i < TL_SLOWEST;
		char err[32] = "", span[32];

		for (int k = 0; k < MS_COUNT && !label; k++)
			label = last[k] == p;
		if (!label)
			continue;
		if (probe_span__failed(p))
			snprintf(err, sizeof(err), " %s", errno_name(p->ret));
		snprintf(bar->label, sizeof(bar->label), "%.32s %.32s %s%s%s", p->driver, p->device,
			 fmt_span((p->end_ns - p->start_ns) / 1e9, span, sizeof(span)),
			 p->async ? " async" : "", err);
	}
}

static int cmp_bar_start(const void *pa, const void *pb)
{
	const struct tl_bar *a = pa, *b = pb;

	return (a->p->start_ns > b->p->start_ns) - (a->p->start_ns < b->p->start_ns);
}

/*
 * Bars into lanes, each in the first lane free by its start: a label's room
 * counts as its bar's; bars one after another share a lane, nested ones not.
 */
static void tl_row__pack(struct tl_row *t, double s_per_px)
{
	double *lane_end = xcalloc(TL_MAX_LANES, sizeof(*lane_end));

	qsort(t->bars, t->n, sizeof(*t->bars), cmp_bar_start);
	t->lanes = 0;
	for (int i = 0; i < t->n; i++) {
		struct tl_bar *bar = &t->bars[i];
		double start = bar->p->start_ns / 1e9, end = bar->p->end_ns / 1e9;
		int k = 0;

		end += *bar->label ? (strlen(bar->label) + 1) * TL_CHAR_PX * s_per_px : 0;
		while (k < t->lanes && lane_end[k] > start)
			k++;
		/* Past TL_MAX_LANES nested probes, the lane that frees first (bars may meet). */
		if (k == TL_MAX_LANES)
			for (int j = k = 0; j < TL_MAX_LANES; j++)
				if (lane_end[j] < lane_end[k])
					k = j;
		if (k == t->lanes)
			t->lanes++;
		lane_end[k] = end;
		bar->lane = k;
	}
	free(lane_end);
}

static void tl_row__load(struct tl_row *t, const struct boot_data *b)
{
	int n, *order;

	memset(t, 0, sizeof(*t));
	t->b = b;
	t->boot_s = b ? boot_data__boot_time(b) : NAN;
	if (!b)
		return;
	boot__milestones(b, t->ms);
	order = boot__probes_by_duration(b, &n);
	t->bars = xcalloc(n + 1, sizeof(*t->bars));
	for (int i = 0; i < n; i++)
		t->bars[t->n++].p = &b->probes[order[i]];
	tl_row__label(t);
	free(order);
	/* Past TL_MAX_BARS, the shortest unlabelled ones go: narrower than a pixel anyway. */
	t->probes = t->n;
	for (int i = t->n = 0; i < t->probes; i++)
		if (i < TL_MAX_BARS || *t->bars[i].label)
			t->bars[t->n++] = t->bars[i];
}

/*
 * The x range every row shares: past the last probe, milestone and boot
 * time, and past the end of every label (a label of c characters after a
 * bar ending at e needs x >= e / (1 - c * px / plot width)).
 */
static double tl_xmax(const struct tl_row *rows, int n)
{
	double x = 1;

	for (int i = 0; i < n; i++) {
		const struct tl_row *t = &rows[i];

		if (isfinite(t->boot_s) && t->boot_s > x)
			x = t->boot_s;
		for (int k = 0; k < MS_COUNT; k++)
			if (isfinite(t->ms[k].s) && t->ms[k].s > x)
				x = t->ms[k].s;
		for (int k = 0; k < t->n; k++) {
			double e = t->bars[k].p->end_ns / 1e9;
			double f = (strlen(t->bars[k].label) + 1) * TL_CHAR_PX / TL_PLOT_W;

			if (e / (1 - f) > x)
				x = e / (1 - f);
		}
	}
	return x * 1.02;
}

static int tl_row__height(const struct tl_row *t)
{
	return TL_FRAME_PX + TL_LANE_PX * (t->lanes > 4 ? t->lanes : 4);
}

/*
 * Row @i's data file gantt-I.dat: its bars, "lane start end colour", then
 * (index 1) its labels, "lane end label": only the labelled bars have one.
 */
static int tl_row__data(const struct tl_row *t, const struct draw_dir *dir, int i)
{
	char *name = xasprintf("gantt-%d.dat", i);
	struct out_file o;
	FILE *d = out_file__open_at(&o, dir->fd, dir->path, name);

	fprintf(d, "# lane start_s end_s colour\n");
	for (int k = 0; k < t->n; k++) {
		const struct probe_span *p = t->bars[k].p;

		fprintf(d, "%d %.4f %.4f %d\n", t->bars[k].lane, p->start_ns / 1e9, p->end_ns / 1e9,
			probe_span__failed(p) ? 0xd62728 : p->async ? 0xff7f0e : 0x1f77b4);
	}
	fprintf(d, "NaN NaN NaN 0\n\n\n# lane end_s label\n");
	for (int k = 0; k < t->n; k++) {
		char *label;

		if (!*t->bars[k].label)
			continue;
		label = gp_data(t->bars[k].label);
		fprintf(d, "%d %.4f \"%s\"\n", t->bars[k].lane, t->bars[k].p->end_ns / 1e9, label);
		free(label);
	}
	fprintf(d, "NaN NaN \"\"\n");
	free(name);
	return out_file__commit(&o, WHO);
}

/*
 * Row @i's plot: its title, milestones as dashed lines named in the key below it.
 * A row with no probe to draw (no ok boot, or a boot traced by nothing) says so
 * and plots no data: gnuplot 5.4 fails on a file with nothing but NaN in it.
 */
static void tl_row__plot(FILE *f, const struct tl_row *t, const char *mode, int i, double y,
			 double h)
{
	char *m = gp_str(mode), *b = gp_str(t->b ? t->b->name : "no ok boot"), longest[64] = "";

	if (!t->n)
		snprintf(longest, sizeof(longest), "; %s", t->b ? "no probe recorded" : "nothing to draw");
	else if (t->probes > t->n)
		snprintf(longest, sizeof(longest), "; %d of its %d probes, the longest", t->n,
			 t->probes);
	fprintf(f, "set origin 0,%.5f\nset size 1,%.5f\nset title '%s: %s (seconds since kernel "
		"start%s)' noenhanced\nset yrange [%g:-0.7]\nunset arrow\n", y, h, m, b, longest,
		t->lanes > 4 ? t->lanes - 0.3 : 3.7);
	for (int k = 0; k < MS_COUNT; k++)
		if (isfinite(t->ms[k].s))
			fprintf(f, "set arrow from %.4f, graph 0 to %.4f, graph 1 nohead dt 2 lw 1.5 "
				"lc rgb '%s' back\n", t->ms[k].s, t->ms[k].s, milestone_colors[k]);
	if (isfinite(t->boot_s))
		fprintf(f, "set arrow from %.4f, graph 0 to %.4f, graph 1 nohead lw 1.5 lc rgb "
			"'#000000' back\n", t->boot_s, t->boot_s);
	if (t->n)
		fprintf(f, "plot 'gantt-%d.dat' index 0 using 2:1:2:3:($1-0.38):($1+0.38):4 with "
			"boxxyerror fs solid 0.85 noborder lc rgb variable notitle, '' index 1 using "
			"2:1:3 with labels boxed "
			"left offset 0.4,0 font ',8' notitle, NaN with boxes fs solid lc rgb '#1f77b4' "
			"title 'sync probe', NaN with boxes fs solid lc rgb '#ff7f0e' title 'async "
			"probe', NaN with boxes fs solid lc rgb '#d62728' title 'failed probe'", i);
	else
		fprintf(f, "plot NaN notitle");
	for (int k = 0; k < MS_COUNT; k++) {
		char *what, *title;

		if (!isfinite(t->ms[k].s))
			continue;
		what = gp_str(t->ms[k].what);
		title = gp_str(milestone_titles[k]);
		fprintf(f, ", NaN with lines dt 2 lw 1.5 lc rgb '%s' title '%s%s%s%s'",
			milestone_colors[k], title, *what ? " (" : "", what, *what ? ")" : "");
		free(title);
		free(what);
	}
	if (isfinite(t->boot_s))
		fprintf(f, ", NaN with lines lw 1.5 lc rgb '#000000' title 'boot time'");
	fprintf(f, "\n");
	free(b);
	free(m);
}

/*
 * Each mode's typical boot as a row of its own, one under the other on the
 * same time axis: every probe a bar in the first lane free by its start,
 * labelled only if it is among the TL_SLOWEST longest, failed, or the last
 * to end before a milestone (a label's room is kept free in its lane, so
 * no two labels meet); milestones and the boot time as vertical lines
 * named in a key below the row, never over a bar.
 */
static int gantt(struct run_data *r, const struct draw_dir *dir)
{
	struct tl_row *rows = xcalloc(r->nr_modes + 1, sizeof(*rows));
	struct out_file gp;
	FILE *f;
	int height = 0, err = 0, bars = 0;
	double xmax, y;

	for (int i = 0; i < r->nr_modes; i++) {
		tl_row__load(&rows[i], run_data__typical_boot(r, &r->modes[i]));
		bars += rows[i].n;
	}
	/* No mode's typical boot has a probe to draw: no chart at all. */
	if (!bars) {
		for (int i = 0; i < r->nr_modes; i++)
			free(rows[i].bars);
		free(rows);
		return CHART_EMPTY;
	}
	f = out_file__open_at(&gp, dir->fd, dir->path, "gantt.gp");
	xmax = tl_xmax(rows, r->nr_modes);
	for (int i = 0; i < r->nr_modes; i++) {
		tl_row__pack(&rows[i], xmax / TL_PLOT_W);
		height += tl_row__height(&rows[i]);
		if (rows[i].n)
			err |= tl_row__data(&rows[i], dir, i);
	}
	fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'sans,11' background "
		"'#ffffff'\nset output 'gantt.svg.tmp'\n", TL_WIDTH, height);
	/* No x label: the key below would meet it; each row's title says the unit. */
	fprintf(f, "set xrange [0:%.3f]\nset grid xtics\n"
		"unset ytics\nset lmargin 3\nset rmargin 3\nset key below horizontal samplen 2\n"
		"set style textbox opaque noborder margins 1,0\n",
		xmax);
	fprintf(f, "do for [t=1:2] {\nif (t == 2) { set terminal pngcairo size %d,%d noenhanced "
		"font 'sans,10'; set output 'gantt.png.tmp' }\nset multiplot\n", TL_WIDTH, height);
	y = height;
	for (int i = 0; i < r->nr_modes; i++) {
		double h = tl_row__height(&rows[i]);

		y -= h;
		tl_row__plot(f, &rows[i], r->modes[i].name, i, y / height, h / height);
	}
	fprintf(f, "unset multiplot\n}\nunset output\n");
	for (int i = 0; i < r->nr_modes; i++)
		free(rows[i].bars);
	free(rows);
	return out_file__commit(&gp, WHO) | err;
}

static int boottime(struct run_data *r, const struct draw_dir *dir)
{
	struct chart_files c;
	FILE *f, *d;
	uint64_t rng = STATS_SEED;
	int width;

	chart_open(&c, dir, "boottime", &f, &d);
	fprintf(d, "# mode_index boot_s\n");
	for (int i = 0; i < r->nr_modes; i++)
		for (size_t k = 0; k < r->modes[i].n[M_BOOT]; k++)
			fprintf(d, "%.3f %.4f\n", i + ((rng__next(&rng) % 1000) / 1000.0 - 0.5) * 0.3,
				r->modes[i].values[M_BOOT][k]);
	fprintf(d, "\n\n# mode_index median_s\n");
	for (int i = 0; i < r->nr_modes; i++)
		if (!isnan(r->modes[i].s[M_BOOT].median))
			fprintf(d, "%d %.4f\n", i, r->modes[i].s[M_BOOT].median);
	/* Past four modes the names are slanted, and the chart grows with them. */
	width = r->nr_modes > 4 ? 120 + 70 * r->nr_modes : 640;
	script_head(f, "boottime", width, 420);
	if (r->nr_modes > 4)
		fprintf(f, "set xtics rotate by 30 right\n");
	fprintf(f, "set xrange [-0.6:%d.6]\nset ylabel 'boot time (s)'\nset yrange [0:*]\nunset key\n"
		"set grid ytics\nset xtics (", r->nr_modes - 1);
	for (int i = 0; i < r->nr_modes; i++) {
		char *name = gp_str(r->modes[i].name);

		fprintf(f, "%s'%s' %d", i ? ", " : "", name, i);
		free(name);
	}
	fprintf(f, ")\nplot 'boottime.dat' index 0 using 1:2 with points pt 7 ps 0.7 lc rgb '#1f77b4', "
		"'' index 1 using 1:2:(0.3):(0) with vectors nohead lw 3 lc rgb '#d62728'\n");
	script_tail(f, "boottime", width, 420);
	return chart_commit(&c);
}

/* ---- per-driver probe times: a driver a row, a mode a colour ---------------------- */

#define DR_MAX 40		/* drivers drawn at most */
#define DR_ROW_PX 18		/* px a driver's row takes */
#define DR_FRAME_PX 150		/* title, x axis, its label and a key of two lines */

static const char *const mode_colors[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NR_MODE_COLORS (sizeof(mode_colors) / sizeof(mode_colors[0]))

/* A driver drawn: its name and what orders the rows (largest first). */
struct dr_row {
	const char *driver;
	double key;
};

static int cmp_dr_row(const void *pa, const void *pb)
{
	const struct dr_row *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? 1 : -1;
	return strcmp(a->driver, b->driver);
}

/* @driver's place in @rows (indexed by @idx), added with key 0 if new. */
static int dr_rows__find(struct dr_row **rows, int *n, struct keymap *idx, const char *driver)
{
	int i = keymap__put_str(idx, driver, *n);

	if (i == *n)
		*ARRAY_PUSH(*rows, *n) = (struct dr_row){ .driver = driver };
	return i;
}

static int dr_rows__place(const struct dr_row *rows, int n, const char *driver)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].driver, driver))
			return i;
	return -1;
}

/* The y tics: each row's driver name, the first at the top. */
static void dr_ytics(FILE *f, const struct dr_row *rows, int n)
{
	fprintf(f, "set ytics (");
	for (int i = 0; i < n; i++) {
		char *name = gp_str(rows[i].driver);

		fprintf(f, "%s'%s' %d", i ? ", " : "", name, i);
		free(name);
	}
	fprintf(f, ")\nset yrange [%g:-0.7]\nset ytics scale 0\nset grid ytics xtics\n",
		n ? n - 0.3 : 0.7);
}

/* How many of @n changes have a point in the @shown @rows drawn. */
static int dr_points(const struct driver_change *v, int n, const struct dr_row *rows, int shown)
{
	int points = 0;

	for (int k = 0; k < n; k++)
		points += isfinite(v[k].c.diff) && dr_rows__place(rows, shown, v[k].driver) >= 0;
	return points;
}

/*
 * Every mode but the baseline against it, driver by driver: the difference
 * of the medians of the per-boot probe time (drivers.c, as drivers.csv),
 * its 95 % CI as a bar, a filled point when the verdict is faster or
 * slower, an open one when not.  The DR_MAX drivers with the largest
 * difference in any mode, the largest at the top; a mode's points are set
 * a little apart in each row.  Data: one block per mode with a point,
 * "y diff lo hi pt".  The number of drivers with a difference: 0 draws
 * nothing (the caller draws the modes' own times instead).
 */
static int drivers_compared(struct run_data *r, const struct mode_stats *base, FILE *f, FILE *d,
			    int *height)
{
	struct driver_change **v = xcalloc(r->nr_modes, sizeof(*v));
	int *nv = xcalloc(r->nr_modes, sizeof(*nv)), nrows = 0, shown, others = 0, blocks = 0;
	struct dr_row *rows = NULL;
	struct keymap idx = { 0 };
	char *bname = gp_str(base->name);

	for (int i = 0; i < r->nr_modes; i++) {
		if (&r->modes[i] == base)
			continue;
		others++;
		v[i] = driver_changes(base, &r->modes[i], &nv[i]);
		for (int k = 0; k < nv[i]; k++) {
			int j;

			if (!isfinite(v[i][k].c.diff))
				continue;
			j = dr_rows__find(&rows, &nrows, &idx, v[i][k].driver);
			if (fabs(v[i][k].c.diff) > rows[j].key)
				rows[j].key = fabs(v[i][k].c.diff);
		}
	}
	keymap__free(&idx);
	if (!nrows)
		goto out;
	qsort(rows, nrows, sizeof(*rows), cmp_dr_row);
	shown = nrows < DR_MAX ? nrows : DR_MAX;
	*height = DR_FRAME_PX + DR_ROW_PX * (shown > 3 ? shown : 3) + 18 * (others / 3);
	fprintf(f, "set title '%d driver%s probed in the baseline and another mode%s' noenhanced\n"
		"set xlabel 'difference of the median probe time per boot against %s (s); bar: "
		"95 %% CI'\n", nrows, nrows == 1 ? "" : "s", nrows > shown ?
		"; the ones with the largest difference" : "", bname);
	dr_ytics(f, rows, shown);
	/* A little room each side: a point at a range's end is not drawn on the border. */
	fprintf(f, "set offsets graph 0.05, graph 0.05, 0, 0\n"
		"set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb '#777777' back\n"
		"set key above horizontal\nplot ");
	for (int i = 0, j = 0; i < r->nr_modes; i++) {
		char *dm, *tm;
		double dy;

		if (&r->modes[i] == base)
			continue;
		dy = others > 1 ? (j - (others - 1) / 2.0) * (0.6 / others) : 0;
		/* A mode with no point in the rows drawn: no block, no entry in the key. */
		if (!dr_points(v[i], nv[i], rows, shown)) {
			j++;
			continue;
		}
		dm = gp_data(r->modes[i].name);
		tm = gp_str(r->modes[i].name);
		fprintf(d, "# %s: y diff_s lo_s hi_s point\n", dm);
		for (int k = 0; k < nv[i]; k++) {
			const struct comparison *c = &v[i][k].c;
			int y = dr_rows__place(rows, shown, v[i][k].driver);

			if (y < 0 || !isfinite(c->diff))
				continue;
			fprintf(d, "%.3f %.6f %.6f %.6f %d\n", y + dy, c->diff,
				isfinite(c->diff_lo) ? c->diff_lo : c->diff,
				isfinite(c->diff_hi) ? c->diff_hi : c->diff,
				v[i][k].verdict == DV_SLOWER || v[i][k].verdict == DV_FASTER ? 7 : 6);
		}
		fprintf(d, "NaN NaN NaN NaN 7\n\n\n");
		/* Filled, then open: each through its own filter of column 5. */
		fprintf(f, "%s'drivers.dat' index %d using 2:($5 == 7 ? $1 : NaN):3:4 with "
			"xerrorbars pt 7 ps 0.9 lc rgb '%s' title '%s against %s', '' index %d using "
			"2:($5 == 6 ? $1 : NaN):3:4 with xerrorbars pt 6 ps 0.9 lc rgb '%s' notitle",
			blocks ? ", " : "", blocks, mode_colors[j % NR_MODE_COLORS], tm, bname, blocks,
			mode_colors[j % NR_MODE_COLORS]);
		blocks++;
		j++;
		free(tm);
		free(dm);
	}
	fprintf(f, ", NaN with points pt 7 lc rgb '#000000' title 'filled: faster or slower', "
		"NaN with points pt 6 lc rgb '#000000' title 'open: no clear change'\n");
out:
	for (int i = 0; i < r->nr_modes; i++)
		free(v[i]);
	free(v);
	free(nv);
	free(rows);
	free(bname);
	return nrows;
}

/* How many drivers of @m have a median probe time: 0, nothing to draw of it. */
static int drivers_timed(const struct mode_stats *m)
{
	int n = 0;

	for (int k = 0; k < m->nr_drivers; k++)
		n += isfinite(m->drivers[k].per_boot.median);
	return n;
}

/* The height of one mode's own panel (drivers_own()). */
static int drivers_own_height(const struct mode_stats *m)
{
	int shown = m->nr_drivers < DR_MAX ? m->nr_drivers : DR_MAX;

	return DR_FRAME_PX + DR_ROW_PX * (shown > 3 ? shown : 3);
}

/*
 * One mode's own drivers: median probe time per boot, its interquartile
 * range as a bar; its data block @index of drivers.dat, its colour @color.
 */
static void drivers_own(const struct mode_stats *m, FILE *f, FILE *d, int *height, int index,
			int color)
{
	struct dr_row *rows = xcalloc(m->nr_drivers + 1, sizeof(*rows));
	int shown = m->nr_drivers < DR_MAX ? m->nr_drivers : DR_MAX;
	char *dm = gp_data(m->name), *tm = gp_str(m->name);

	for (int k = 0; k < m->nr_drivers; k++)
		rows[k] = (struct dr_row){ .driver = m->drivers[k].driver,
					   .key = isfinite(m->drivers[k].per_boot.median) ?
						  m->drivers[k].per_boot.median : -1 };
	qsort(rows, m->nr_drivers, sizeof(*rows), cmp_dr_row);
	*height = drivers_own_height(m);
	fprintf(f, "set title '%s: %d driver%s%s' noenhanced\nset xlabel 'probe time per boot "
		"(s): median; bar: interquartile range over the boots'\n", tm, m->nr_drivers,
		m->nr_drivers == 1 ? "" : "s", m->nr_drivers > shown ? ", the slowest" : "");
	dr_ytics(f, rows, shown);
	fprintf(d, "%s# %s: y median_s q1_s q3_s point\n", index ? "\n\n" : "", dm);
	for (int y = 0; y < shown; y++) {
		const struct driver_stats *ds = NULL;

		for (int k = 0; k < m->nr_drivers && !ds; k++)
			if (!strcmp(m->drivers[k].driver, rows[y].driver))
				ds = &m->drivers[k];
		if (ds && isfinite(ds->per_boot.median))
			fprintf(d, "%d %.6f %.6f %.6f 7\n", y, ds->per_boot.median, ds->per_boot.q1,
				ds->per_boot.q3);
	}
	fprintf(d, "NaN NaN NaN NaN 7\n");
	fprintf(f, "set xrange [0:*]\nset offsets 0, graph 0.05, 0, 0\nunset key\nplot 'drivers.dat' index %d using 2:1:3:4 with "
		"xerrorbars pt 7 ps 0.9 lc rgb '%s' notitle\n", index, mode_colors[color % NR_MODE_COLORS]);
	free(tm);
	free(dm);
	free(rows);
}

/*
 * The modes with driver records, each its own times in a panel of its own,
 * one under the other (a mode with none has no panel): multiplot, so the
 * PNG is drawn by a loop over both terminals, not by replot.
 */
static void drivers_panels(struct run_data *r, FILE *f, FILE *d, int *height)
{
	int index = 0;
	double y;

	*height = 0;
	for (int i = 0; i < r->nr_modes; i++)
		if (drivers_timed(&r->modes[i]))
			*height += drivers_own_height(&r->modes[i]);
	fprintf(f, "set terminal svg size 900,%d dynamic noenhanced font 'sans,11' background "
		"'#ffffff'\nset output 'drivers.svg.tmp'\ndo for [t=1:2] {\nif (t == 2) { set "
		"terminal pngcairo size 900,%d noenhanced font 'sans,10'; set output "
		"'drivers.png.tmp' }\nset multiplot\n", *height, *height);
	y = *height;
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];
		int h;

		if (!drivers_timed(m))
			continue;
		h = drivers_own_height(m);
		y -= h;
		fprintf(f, "set origin 0,%.5f\nset size 1,%.5f\n", y / *height, (double)h / *height);
		drivers_own(m, f, d, &h, index++, i);
	}
	fprintf(f, "unset multiplot\n}\nunset output\n");
}

/*
 * Per-driver probe times at any scale: a row per driver.  With modes to
 * compare, each mode against the baseline (drivers_compared); with one
 * mode with drivers, the baseline, its own times (drivers_own); else
 * (a baseline that recorded no probe: the collector off) each mode that
 * recorded some, a panel each (drivers_panels).  No mode with a timed
 * driver: no chart (CHART_EMPTY).  The key goes below the plot, never
 * over it.
 */
static int drivers_chart(struct run_data *r, const struct draw_dir *dir)
{
	struct mode_stats *base = run_data__baseline(r);
	struct chart_files c;
	char *body = NULL;
	size_t len = 0;
	FILE *f, *d, *b;
	int height = 200, with_drivers = 0;
	bool compared = false, base_timed, drawn = false;

	for (int i = 0; i < r->nr_modes; i++)
		with_drivers += drivers_timed(&r->modes[i]) > 0;
	if (!with_drivers)
		return CHART_EMPTY;
	chart_open(&c, dir, "drivers", &f, &d);
	base_timed = base && drivers_timed(base);
	for (int i = 0; base_timed && i < r->nr_modes; i++)
		compared |= &r->modes[i] != base && r->modes[i].event_boots;
	b = open_memstream(&body, &len);
	if (compared && base->event_boots) {
		drawn = drivers_compared(r, base, b, d, &height) > 0;
	} else if (base_timed && with_drivers == 1) {
		drivers_own(base, b, d, &height, 0, 0);
		drawn = true;
	}
	if (!drawn) {
		/* Nothing to compare against: each mode with drivers a panel of its own. */
		fclose(b);
		free(body);
		drivers_panels(r, f, d, &height);
		return chart_commit(&c);
	}
	fclose(b);
	script_head(f, "drivers", 900, height);
	fputs(body, f);
	script_tail(f, "drivers", 900, height);
	free(body);
	return chart_commit(&c);
}

/* One mode's SIGKILLs as "seconds boot_number" lines to @d (NULL: count only). */
static int kills__mode_data(FILE *d, const struct run_data *r, const char *mode)
{
	int n = 0;

	for (int k = 0; k < r->nr_boots; k++) {
		const struct boot_data *b = r->boots[k];

		if (strcmp(b->mode, mode))
			continue;
		for (int j = 0; j < b->nr_kills; j++, n++)
			if (d)
				fprintf(d, "%.4f %d\n", b->kills[j].ts_ns / 1e9, k + 1);
		for (int j = 0; !b->has_events && j < b->nr_udev_kills; j++, n++)
			if (d)
				fprintf(d, "%.4f %d\n", b->udev_kills[j].ts_s, k + 1);
	}
	return n;
}

/* The latest boot time of the run, for the x range of a chart with no kills. */
static double longest_boot_s(const struct run_data *r)
{
	double t = 0, v;

	for (int k = 0; k < r->nr_boots; k++) {
		v = boot_data__boot_time(r->boots[k]);
		if (!isnan(v) && v > t)
			t = v;
	}
	return t > 0 ? t : 10;
}

/*
 * Every SIGKILL, by boot and time.  Only modes with kills get a data block:
 * gnuplot does not count empty blocks, so their indices would shift.
 */
static int kills(struct run_data *r, const struct draw_dir *dir)
{
	struct strv titles = { 0 };
	struct chart_files c;
	FILE *f, *d;

	chart_open(&c, dir, "kills", &f, &d);
	for (int i = 0; i < r->nr_modes; i++) {
		char *dm, *tm;

		if (!kills__mode_data(NULL, r, r->modes[i].name))
			continue;
		dm = gp_data(r->modes[i].name);
		tm = gp_str(r->modes[i].name);
		fprintf(d, "# %s: kill_s boot_number\n", dm);
		kills__mode_data(d, r, r->modes[i].name);
		fprintf(d, "\n\n");
		strv__push(&titles, tm);
		free(tm);
		free(dm);
	}
	script_head(f, "kills", 720, 420);
	fprintf(f, "set xlabel 'seconds since kernel start'\nset ylabel 'boot'\nset grid\n"
		"set key outside right\nset yrange [0:%d]\n", r->nr_boots + 1);
	if (!titles.n) {
		fprintf(f, "set xrange [0:%.0f]\nset label 1 'no SIGKILL in any boot' at graph 0.5, 0.5 "
			"center\nplot NaN notitle\n", ceil(longest_boot_s(r)));
	} else {
		fprintf(f, "set xrange [0:*]\nplot ");
		for (size_t i = 0; i < titles.n; i++)
			fprintf(f, "%s'kills.dat' index %zu using 1:2 with points pt 7 title '%s'",
				i ? ", " : "", i, titles.v[i]);
		fprintf(f, "\n");
	}
	script_tail(f, "kills", 720, 420);
	strv__free(&titles);
	return chart_commit(&c);
}

/* gnuplot on @script in the chart's folder @pfd, its messages to @logfd. */
static int run_gnuplot(int pfd, int logfd, const char *charts, const char *script)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		if (fchdir(pfd) || logfd < 0)
			_exit(127);
		dup2(logfd, STDERR_FILENO);
		dup2(logfd, STDOUT_FILENO);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, WHO ": gnuplot %s/%s failed (see %s/gnuplot.log)\n",
			charts, script, charts);
		return -1;
	}
	return 0;
}

/*
 * Whether gnuplot wrote the picture @name to its end: it exits 0 even when
 * a write failed (a full disk), leaving half a file.  An SVG ends with
 * </svg>, a PNG with its IEND chunk.
 */
static bool picture_whole(int pfd, const char *name, bool svg)
{
	static const char svg_end[] = "</svg>";
	static const unsigned char iend[] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82 };
	const void *end = svg ? (const void *)svg_end : (const void *)iend;
	size_t len = 0, n = svg ? sizeof(svg_end) - 1 : sizeof(iend);
	char *data = read_file_at(pfd, name, &len);
	bool whole;

	while (svg && data && len && strchr(" \n", data[len - 1]))
		len--;
	whole = data && len >= n && !memcmp(data + len - n, end, n);

	free(data);
	return whole;
}

/* The pictures of a chart, by extension; the SVG first. */
static const char *const picture_exts[] = { "svg", "png" };
#define NR_PICTURES 2

/*
 * The chart @name's pictures once gnuplot drew them in @pfd: both whole, or
 * neither is published.  0, or -1 after a message.
 */
static int chart_check(int pfd, const char *charts, const char *name)
{
	for (int i = 0; i < NR_PICTURES; i++) {
		char *tmp = xasprintf("%s.%s.tmp", name, picture_exts[i]);
		bool whole = picture_whole(pfd, tmp, i == 0);

		free(tmp);
		if (!whole) {
			fprintf(stderr, WHO ": %s/%s.%s: gnuplot did not write it whole "
				"(a full disk?)\n", charts, name, picture_exts[i]);
			return -1;
		}
	}
	return 0;
}

/*
 * Everything in the chart's folder @pfd (@pname in @cfd) renamed into @cfd,
 * a picture NAME.EXT.tmp as NAME.EXT when @pictures, else deleted; then the
 * folder goes.  0, or -1 after a message.
 */
static int chart_publish(int cfd, const char *charts, int pfd, const char *pname, bool pictures)
{
	int dfd = dup(pfd), err = 0;
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *to = xstrdup(e->d_name);
		size_t n = strlen(to);
		bool picture = n > 4 && !strcmp(to + n - 4, ".tmp");

		if (!strcmp(to, ".") || !strcmp(to, "..")) {
			free(to);
			continue;
		}
		if (picture)
			to[n - 4] = '\0';
		if (picture && !pictures) {
			unlinkat(pfd, e->d_name, 0);
		} else if (renameat(pfd, e->d_name, cfd, to)) {
			fprintf(stderr, WHO ": %s/%s: %s\n", charts, to, strerror(errno));
			unlinkat(pfd, e->d_name, 0);
			err = -1;
		}
		free(to);
	}
	if (d)
		closedir(d);
	else if (dfd >= 0)
		close(dfd);
	if (unlinkat(cfd, pname, AT_REMOVEDIR))
		fprintf(stderr, WHO ": %s/%s: %s\n", charts, pname, strerror(errno));
	return err;
}

/* A new folder in @cfd for one chart, of a random name in @name; its descriptor. */
static int chart_folder(int cfd, char *name, size_t len)
{
	for (int tries = 0; tries < 16; tries++) {
		unsigned long long r = 0;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (unsigned long long)getpid() << 16 ^ (unsigned long long)tries;
		snprintf(name, len, ".draw.%016llx", r);
		if (!mkdirat(cfd, name, 0700))
			return open_beneath(cfd, name, O_RDONLY | O_DIRECTORY, 0);
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/*
 * One chart: its files drawn in a folder of its own, then moved to @cfd.
 * 0 drawn, CHART_EMPTY nothing to draw (nothing written), -1 not drawn.
 */
static int chart_draw(struct run_data *r, int cfd, const char *charts, int logfd, int i)
{
	static int (*const writers[])(struct run_data *, const struct draw_dir *) = {
		gantt, boottime, drivers_chart, kills,
	};
	char pname[64], *script = xasprintf("%s.gp", chart_names[i]);
	struct draw_dir dir;
	int pfd, wrote;
	bool ok;

	pfd = chart_folder(cfd, pname, sizeof(pname));
	if (pfd < 0) {
		fprintf(stderr, WHO ": %s: a folder to draw %s in: %s\n", charts, chart_names[i],
			strerror(errno));
		free(script);
		return -1;
	}
	dir.fd = pfd;
	dir.path = charts;
	wrote = writers[i](r, &dir);
	ok = !wrote && !run_gnuplot(pfd, logfd, charts, script) &&
	     !chart_check(pfd, charts, chart_names[i]);
	ok = !chart_publish(cfd, charts, pfd, pname, ok) && ok;
	close(pfd);
	free(script);
	return wrote == CHART_EMPTY ? CHART_EMPTY : ok ? 0 : -1;
}

int charts__write(struct run_data *r, int outfd, const char *out, unsigned *drawn,
		  unsigned *empty)
{
	char *charts = xasprintf("%s/charts", out);
	int cfd = dir_open_beneath(outfd, "charts", true), logfd, err = 0;

	*drawn = *empty = 0;
	if (cfd < 0) {
		fprintf(stderr, WHO ": %s: %s\n", charts, read_file_strerror(-cfd));
		free(charts);
		return -1;
	}
	unlinkat(cfd, "gnuplot.log", 0);
	logfd = open_beneath(cfd, "gnuplot.log", O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
	for (int i = 0; chart_names[i]; i++) {
		int ret = chart_draw(r, cfd, charts, logfd, i);

		if (!ret)
			*drawn |= 1u << i;
		else if (ret == CHART_EMPTY)
			*empty |= 1u << i;
		else
			err = -1;
	}
	if (logfd >= 0)
		close(logfd);
	close(cfd);
	free(charts);
	return err;
}
