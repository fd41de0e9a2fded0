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

const char *const chart_names[] = { "gantt", "boottime", "cdf", "kills", NULL };
const char *const chart_titles[] = {
	"Probe timeline of a typical boot per mode (red: failed probe)",
	"Boot time per mode (each point a boot; bar: median)",
	"Per-driver probe latency, cumulative distribution",
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

static void gantt__title(FILE *f, const char *mode, const char *boot)
{
	char *m = gp_str(mode), *b = gp_str(boot);

	fprintf(f, "set title '%s: %s' noenhanced\n", m, b);
	free(b);
	free(m);
}

static int gantt(struct run_data *r, const struct draw_dir *dir)
{
	struct out_file gp;
	FILE *f = out_file__open_at(&gp, dir->fd, dir->path, "gantt.gp");
	double xmax = 1;
	int cols = r->nr_modes < 3 ? r->nr_modes : 3, rows = (r->nr_modes + 2) / 3;
	int width = 480 * cols, height = 380 * rows, err = 0;

	for (int i = 0; i < r->nr_modes; i++) {
		const struct boot_data *b = run_data__typical_boot(r, &r->modes[i]);
		double t = b ? boot_data__boot_time(b) : NAN;

		if (!isnan(t) && t > xmax)
			xmax = t;
	}
	fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'sans,11' background '#ffffff'\n"
		"set output 'gantt.svg.tmp'\n", width, height);
	fprintf(f, "set style fill solid 0.8 border -1\nset xrange [0:%.3f]\nset xlabel 'seconds since kernel start'\n"
		"set grid xtics\nunset key\n", xmax * 1.3);
	fprintf(f, "do for [t=1:2] {\n"
		"if (t == 2) { set terminal pngcairo size %d,%d noenhanced font 'sans,10'; set output 'gantt.png.tmp' }\n"
		"set multiplot layout %d,%d\n", width, height, rows, cols);
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];
		const struct boot_data *b = run_data__typical_boot(r, m);
		char *dat = xasprintf("gantt-%d.dat", i);
		struct out_file data;
		FILE *d = out_file__open_at(&data, dir->fd, dir->path, dat);
		int y = 0;

		fprintf(d, "# y start_s end_s failed label\n");
		for (int k = 0; b && k < b->nr_probes; k++) {
			const struct probe_span *p = &b->probes[k];
			char *drv, *dev;

			if (!probe_span__in_user_space(b, p))
				continue;
			drv = gp_data(p->driver);
			dev = gp_data(p->device);
			fprintf(d, "%d %.4f %.4f %d \"%s %s%s\"\n", y++, p->start_ns / 1e9, p->end_ns / 1e9,
				probe_span__failed(p), drv, dev, p->async ? " (async)" : "");
			free(dev);
			free(drv);
		}
		if (!y)
			fprintf(d, "0 0 0 0 \"no probes\"\n");
		err |= out_file__commit(&data, WHO);
		gantt__title(f, m->name, b ? b->name : "no ok boot");
		fprintf(f, "set yrange [-0.6:%d]\nunset ytics\n", y ? y : 1);
		fprintf(f, "plot '%s' using 2:1:2:3:($1-0.35):($1+0.35):($4 > 0 ? 0xd62728 : 0x1f77b4) "
			"with boxxyerror lc rgb variable, '' using 3:1:5 with labels left offset 0.5,0 font ',8'\n",
			dat);
		free(dat);
	}
	fprintf(f, "unset multiplot\n}\nunset output\n");
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

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cdf(struct run_data *r, const struct draw_dir *dir)
{
	struct chart_files c;
	FILE *f, *d;
	int blocks = 0;

	chart_open(&c, dir, "cdf", &f, &d);
	script_head(f, "cdf", 720, 420);
	fprintf(f, "set xlabel 'probe time (s)'\nset ylabel 'fraction of probes'\nset yrange [0:1.05]\n"
		"set key bottom right\nset grid\nplot ");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		for (int k = 0; k < m->nr_drivers; k++) {
			const struct driver_stats *ds = &m->drivers[k];
			double *v = xmalloc((ds->n + 1) * sizeof(*v));

			memcpy(v, ds->probe_s, ds->n * sizeof(*v));
			qsort(v, ds->n, sizeof(*v), cmp_d);
			char *dm = gp_data(m->name), *dd = gp_data(ds->driver);
			char *tm = gp_str(m->name), *td = gp_str(ds->driver);

			fprintf(d, "# %s %s\n", dm, dd);
			for (size_t j = 0; j < ds->n; j++)
				fprintf(d, "%.5f %.5f\n", v[j], (j + 1.0) / ds->n);
			fprintf(d, "\n\n");
			fprintf(f, "%s'cdf.dat' index %d using 1:2 with steps lw 2 title '%s: %s'",
				blocks ? ", " : "", blocks, tm, td);
			free(td);
			free(tm);
			free(dd);
			free(dm);
			blocks++;
			free(v);
		}
	}
	if (!blocks)
		fprintf(f, "NaN title 'no probes recorded'");
	fprintf(f, "\n");
	script_tail(f, "cdf", 720, 420);
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

/* One chart: its files drawn in a folder of its own, then moved to @cfd.  Whether drawn. */
static bool chart_draw(struct run_data *r, int cfd, const char *charts, int logfd, int i)
{
	static int (*const writers[])(struct run_data *, const struct draw_dir *) = {
		gantt, boottime, cdf, kills,
	};
	char pname[64], *script = xasprintf("%s.gp", chart_names[i]);
	struct draw_dir dir;
	int pfd;
	bool ok;

	pfd = chart_folder(cfd, pname, sizeof(pname));
	if (pfd < 0) {
		fprintf(stderr, WHO ": %s: a folder to draw %s in: %s\n", charts, chart_names[i],
			strerror(errno));
		free(script);
		return false;
	}
	dir.fd = pfd;
	dir.path = charts;
	ok = !writers[i](r, &dir) && !run_gnuplot(pfd, logfd, charts, script) &&
	     !chart_check(pfd, charts, chart_names[i]);
	ok = !chart_publish(cfd, charts, pfd, pname, ok) && ok;
	close(pfd);
	free(script);
	return ok;
}

int charts__write(struct run_data *r, int outfd, const char *out, unsigned *drawn)
{
	char *charts = xasprintf("%s/charts", out);
	int cfd = dir_open_beneath(outfd, "charts", true), logfd, err = 0;

	*drawn = 0;
	if (cfd < 0) {
		fprintf(stderr, WHO ": %s: %s\n", charts, read_file_strerror(-cfd));
		free(charts);
		return -1;
	}
	unlinkat(cfd, "gnuplot.log", 0);
	logfd = open_beneath(cfd, "gnuplot.log", O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0644);
	for (int i = 0; chart_names[i]; i++) {
		if (chart_draw(r, cfd, charts, logfd, i))
			*drawn |= 1u << i;
		else
			err = -1;
	}
	if (logfd >= 0)
		close(logfd);
	close(cfd);
	free(charts);
	return err;
}
