// SPDX-License-Identifier: GPL-2.0
/*
 * The what-if model's calibration table: the error of its predictions on
 * runs that measured the async modes too.  One format, written by
 * whatif_cal_row__print() (report/whatif.csv of each such run) and read by
 * whatif_cal__parse(); the committed table, results/whatif-calibration.csv,
 * is those rows of the calibration runs and is built into the program.
 */
#include "whatif.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The committed table, NUL-terminated (the Makefile makes this object depend on it). */
__asm__(".section .rodata\n"
	"whatif_cal_text:\n"
	".incbin \"results/whatif-calibration.csv\"\n"
	".byte 0\n"
	".previous\n");
extern const char whatif_cal_text[] __asm__("whatif_cal_text");

const char *whatif_cal__builtin(void)
{
	return whatif_cal_text;
}

const char *whatif_metric__name(enum whatif_metric m)
{
	static const char *const names[WI_METRICS] = {
		[WI_BOOT] = "boot", [WI_PHASE] = "probe_phase", [WI_READY] = "readiness",
	};

	return (unsigned)m < WI_METRICS ? names[m] : "?";
}

/* issue 30's goal: 10 % on the boot time, 20 % on the probe phase and a device's readiness. */
const double whatif_error_limit_pct[WI_METRICS] = { [WI_BOOT] = 10, [WI_PHASE] = 20,
						    [WI_READY] = 20 };

const char whatif_cal_header[] =
	"run,kernel,kind,mode,metric,what,sync_boots,async_boots,predicted_s,measured_s,"
	"measured_ci95_lo_s,measured_ci95_hi_s,error_pct";

enum { C_RUN, C_KERNEL, C_KIND, C_MODE, C_METRIC, C_WHAT, C_NSYNC, C_NASYNC, C_PRED, C_MEAS,
       C_LO, C_HI, C_ERR, C_COUNT };

/*
 * A name in the table: [A-Za-z0-9._:+@-] kept, any other byte (a comma, a
 * quote, a control byte from a guest) and a leading character a spreadsheet
 * would run as a formula written as '_'; "-" for an empty one.
 */
static void put_name(FILE *f, const char *s)
{
	if (!*s)
		fputc('-', f);
	for (const char *p = s; *p; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			  (*p >= '0' && *p <= '9') || strchr("._:+@-", *p);

		fputc(ok && !(p == s && strchr("=+-@", *p)) ? *p : '_', f);
	}
	fputc(',', f);
}

static void put_num(FILE *f, double v, char sep)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	fputc(sep, f);
}

void whatif_cal_row__print(const struct whatif_cal_row *r, FILE *f)
{
	put_name(f, r->run);
	put_name(f, r->kernel);
	fprintf(f, "%s,%s,%s,", whatif_kind__name(r->kind), whatif_mode__name(r->mode),
		whatif_metric__name(r->metric));
	put_name(f, r->what);
	fprintf(f, "%d,%d,", r->sync_boots, r->async_boots);
	put_num(f, r->predicted_s, ',');
	put_num(f, r->measured_s, ',');
	put_num(f, r->measured_ci_lo_s, ',');
	put_num(f, r->measured_ci_hi_s, ',');
	put_num(f, r->error_pct, '\n');
}

/* @s (NUL-terminated) as a finite number; false if it is none. */
static bool field_num(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return *s && !*end && !errno && isfinite(*out);
}

static bool field_int(const char *s, int *out)
{
	double v;

	if (!field_num(s, &v) || v < 0 || v > 1e6 || v != (int)v)
		return false;
	*out = (int)v;
	return true;
}

/* One of @n names, by its index; -1 if none. */
static int field_enum(const char *s, const char *(*name)(int), int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, name(i)))
			return i;
	return -1;
}

static const char *kind_name(int i) { return whatif_kind__name(i); }
static const char *mode_name(int i) { return whatif_mode__name(i); }
static const char *metric_name(int i) { return whatif_metric__name(i); }

static void copy_name(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", strcmp(s, "-") ? s : "");
}

/* Split @line at its commas into @f; the number of fields. */
static int split(char *line, char **f, int max)
{
	int n = 0;

	for (char *p = line; n < max; p++) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			return n;
		*p = '\0';
	}
	return n + 1;	/* more than @max */
}

/* One line into @r; NULL, or why it is refused. */
static const char *parse_row(char *line, struct whatif_cal_row *r)
{
	char *f[C_COUNT + 1];
	int kind, mode, metric;

	if (split(line, f, C_COUNT) != C_COUNT)
		return "want 13 comma-separated fields";
	kind = field_enum(f[C_KIND], kind_name, WI_KINDS);
	mode = field_enum(f[C_MODE], mode_name, WI_MODES);
	metric = field_enum(f[C_METRIC], metric_name, WI_METRICS);
	if (kind < 0 || (mode != WI_DRIVER_ASYNC && mode != WI_MODULE_ASYNC) || metric < 0)
		return "unknown kind, mode or metric";
	*r = (struct whatif_cal_row){ .kind = kind, .mode = mode, .metric = metric };
	copy_name(r->run, sizeof(r->run), f[C_RUN]);
	copy_name(r->kernel, sizeof(r->kernel), f[C_KERNEL]);
	copy_name(r->what, sizeof(r->what), f[C_WHAT]);
	if (!field_int(f[C_NSYNC], &r->sync_boots) || !field_int(f[C_NASYNC], &r->async_boots))
		return "boot counts are no whole numbers";
	if (!field_num(f[C_PRED], &r->predicted_s) || !field_num(f[C_MEAS], &r->measured_s) ||
	    !field_num(f[C_ERR], &r->error_pct))
		return "predicted_s, measured_s or error_pct is no number";
	if (!field_num(f[C_LO], &r->measured_ci_lo_s) || !field_num(f[C_HI], &r->measured_ci_hi_s))
		r->measured_ci_lo_s = r->measured_ci_hi_s = NAN;
	return NULL;
}

void whatif_cal__parse(struct whatif_cal *cal, const char *text, const char *label)
{
	char *copy = xstrdup(text ? text : ""), *line = copy, *nl;
	int lineno = 0;

	*cal = (struct whatif_cal){ 0 };
	for (; line && *line; line = nl ? nl + 1 : NULL) {
		struct whatif_cal_row row;
		const char *why;

		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		line[strcspn(line, "\r")] = '\0';
		if (!*line || *line == '#' || !strcmp(line, whatif_cal_header))
			continue;
		why = parse_row(line, &row);
		if (why) {
			cal->refused++;
			strv__pushf(&cal->warnings, "%s:%d: %s", label, lineno, why);
			continue;
		}
		*ARRAY_PUSH(cal->rows, cal->nr) = row;
	}
	free(copy);
}

void whatif_cal__free(struct whatif_cal *cal)
{
	free(cal->rows);
	strv__free(&cal->warnings);
	*cal = (struct whatif_cal){ 0 };
}

bool whatif_cal__error(const struct whatif_cal *cal, enum whatif_kind kind, enum whatif_mode mode,
		       enum whatif_metric metric, double *err_pct, int *rows)
{
	*err_pct = NAN;
	*rows = 0;
	for (int i = 0; i < cal->nr; i++) {
		const struct whatif_cal_row *r = &cal->rows[i];

		if (r->kind != kind || r->mode != mode || r->metric != metric)
			continue;
		if (!*rows || fabs(r->error_pct) > *err_pct)
			*err_pct = fabs(r->error_pct);
		(*rows)++;
	}
	return *rows > 0;
}

bool whatif_cal__may_print(const struct whatif_cal *cal, enum whatif_kind kind,
			   enum whatif_mode mode, enum whatif_metric metric, double *err_pct,
			   char *why, size_t len)
{
	int rows;

	if (!whatif_cal__error(cal, kind, mode, metric, err_pct, &rows)) {
		snprintf(why, len, "withheld: no calibration run has measured the model's error for "
			 "%s on %s boots (results/whatif-calibration.csv; docs/whatif.md says how "
			 "to make one)", whatif_mode__name(mode), whatif_kind__name(kind));
		return false;
	}
	if (*err_pct > whatif_error_limit_pct[metric]) {
		snprintf(why, len, "withheld: on the calibration runs the model was off by up to "
			 "%.1f %% for %s on %s boots (%d comparison%s), over the %.0f %% it may "
			 "be off to be shown unjudged", *err_pct, whatif_mode__name(mode),
			 whatif_kind__name(kind), rows, rows == 1 ? "" : "s",
			 whatif_error_limit_pct[metric]);
		return false;
	}
	snprintf(why, len, "unjudged: calibration error up to %.1f %% (%d comparison%s)", *err_pct,
		 rows, rows == 1 ? "" : "s");
	return true;
}
