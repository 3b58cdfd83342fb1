// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * boottrace try: the writes of try_plan.c made to the running kernel's
 * tracefs, each refusal said with the kernel's errno and the new lines of
 * error_log (docs/kernel-facts.md 89), then everything undone (try_undo.c),
 * also when SIGINT, SIGTERM or SIGHUP arrives: the handler only sets a flag,
 * the writes stop at the next step, and the undo always runs to its end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bconf.h"
#include "kernel/tracefs.h"
#include "try/try.h"
#include "util/grow.h"
#include "util/readfile.h"

static volatile sig_atomic_t try_sig;

static void try_on_signal(int sig)
{
	if (!try_sig)
		try_sig = sig;
}

struct try_log {
	char *path;
	char *text;
};

struct try_ctx {
	const struct plan *p;
	const struct try_opts *o;
	const char *root;
	struct try_undo undo;
	struct try_log *logs;
	size_t nlogs, caplogs;
	char *global;		/* instances/boottrace-try-PID */
	int tracer_top;		/* the global tracer went to the top level */
	unsigned accepted, refused, untried;
};

static char *tf_path(const struct try_ctx *c, const char *rel)
{
	char *s = NULL;

	if (asprintf(&s, "%s/%s", c->root, rel) < 0)
		return NULL;
	return s;
}

/* A tracefs file's text ("" when it cannot be read). */
static char *tf_read(const char *abs)
{
	struct bt_error e;
	size_t len;
	char *s = readfile(abs, (size_t)4 << 20, RF_OVER, "a tracefs file", &len, &e);

	return s ? s : strdup("");
}

static void log_snap(struct try_ctx *c, const char *rel)
{
	char *abs = tf_path(c, rel);

	if (!abs || BT_GROW(c->logs, c->nlogs + 1, c->caplogs) < 0) {
		free(abs);
		return;
	}
	c->logs[c->nlogs].path = abs;
	c->logs[c->nlogs++].text = tf_read(abs);
}

static void put_line(FILE *f, const char *label, const char *s, size_t n)
{
	char *l = strndup(s, n);

	if (!l)
		return;
	fprintf(f, "    %s: ", label);
	bt_fput_text(f, l);
	fputc('\n', f);
	free(l);
}

/*
 * The entries error_log gained since it was last read. Each entry starts
 * with a "[timestamp]" line; the log keeps the last few, so the new part
 * is what follows the last entry read before.
 */
static void log_news(struct try_ctx *c, struct try_log *l)
{
	char *now = tf_read(l->path);
	const char *from = now, *last = NULL, *s;

	if (!now)
		return;
	for (s = l->text; *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s))
		if (*s == '[')
			last = s;
	if (last) {
		size_t n = strcspn(last, "\n");
		const char *at = NULL;

		for (s = now; *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s))
			if (!strncmp(s, last, n) && (s[n] == '\n' || !s[n]))
				at = s;
		if (at) {
			from = at + n;
			/* skip the rest of that entry */
			while (*from) {
				from += *from == '\n';
				if (*from == '[')
					break;
				from += strcspn(from, "\n");
			}
		}
	}
	for (s = from; *s;) {
		size_t n = strcspn(s, "\n");

		if (n)
			put_line(c->o->out, "error_log", s, n);
		s += n + (s[n] == '\n');
	}
	free(l->text);
	l->text = now;
}

static void where(const struct try_ctx *c, int node, FILE *f)
{
	const struct source *src = c->p->src;
	int line = 0, col = 0;

	if (node != BCONF_NONE && src->bc)
		source_locate(src, bconf_pos(src->bc, node), &line, &col);
	bt_fput_text(f, src->path);
	if (line)
		fprintf(f, ":%d:%d", line, col);
}

static void said(struct try_ctx *c, const struct try_step *s, const char *path, int err,
		 const char *why)
{
	FILE *f = c->o->out;
	const char *name = strerrorname_np(err);
	size_t i;

	c->refused++;
	where(c, s->node, f);
	fprintf(f, ": refused: %s '", s->what);
	bt_fput_text(f, s->text);
	fputs("' (", f);
	bt_fput_text(f, path);
	fprintf(f, "): %s", why ? why : strerror(err));
	if (!why && name)
		fprintf(f, " (%s)", name);
	fputc('\n', f);
	/* the event filter's own report: the filter file keeps "^" and parse_error */
	if (!strcmp(s->what, "event filter")) {
		char *abs = tf_path(c, s->path), *t = abs ? tf_read(abs) : NULL, *l;

		for (l = t; l && *l;) {
			size_t n = strcspn(l, "\n");

			if (!strncmp(l, "parse_error:", 12) || !strncmp(l, "Error:", 6))
				put_line(f, "filter", l, n);
			l += n + (l[n] == '\n');
		}
		free(t);
		free(abs);
	}
	for (i = 0; i < c->nlogs; i++)
		log_news(c, &c->logs[i]);
	fflush(f);
}

static void accepted(struct try_ctx *c, const struct try_step *s, const char *path)
{
	c->accepted++;
	if (bt_verbose()) {
		where(c, s->node, c->o->out);
		fprintf(c->o->out, ": accepted: %s '", s->what);
		bt_fput_text(c->o->out, s->text);
		fprintf(c->o->out, "' (%s)\n", path);
	}
}

static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *s;

	for (s = list; (s = strstr(s, w)); s += n)
		if ((s == list || strchr(" \t\n", s[-1])) && strchr(" \t\n", s[n]))
			return 1;
	return 0;
}

/* Save a top-level file once (undo restores it), the way it can be written back. */
static int save_top(struct try_ctx *c, const char *abs)
{
	char *t, *o, *s;

	if (try_undo_saved(&c->undo, abs))
		return 0;
	/* a file this kernel lacks: nothing to save, the write says so */
	if (access(abs, R_OK | W_OK))
		return errno;
	t = tf_read(abs);
	if (!t)
		return ENOMEM;
	/* drop "#### all functions enabled ####" and other comments */
	for (s = o = t; *s;) {
		size_t n = strcspn(s, "\n");

		if (*s != '#') {
			memmove(o, s, n);
			o += n;
			*o++ = '\n';
		}
		s += n + (s[n] == '\n');
	}
	*o = 0;
	if (try_undo_push(&c->undo, TRY_U_RESTORE, abs, t, 0)) {
		free(t);
		return ENOMEM;
	}
	free(t);
	return 0;
}

static int step_tracer(struct try_ctx *c, const struct try_step *s, char **used)
{
	char *rel = NULL, *abs, *avail, *cur;
	int err;

	if (asprintf(&rel, "%s/available_tracers", s->name) < 0)
		return ENOMEM;
	abs = tf_path(c, rel);
	free(rel);
	avail = abs ? tf_read(abs) : NULL;
	free(abs);
	if (!avail)
		return ENOMEM;
	/* an instance lists only the tracers it allows (trace.c trace_ok_for_array) */
	if (has_word(avail, s->text) || strcmp(s->name, c->global)) {
		free(avail);
		*used = tf_path(c, s->path);
		return *used ? try_write(*used, s->text, 0) : ENOMEM;
	}
	free(avail);
	*used = tf_path(c, "current_tracer");
	abs = tf_path(c, "available_tracers");
	avail = abs ? tf_read(abs) : NULL;
	free(abs);
	cur = *used ? tf_read(*used) : NULL;
	err = !avail || !cur ? ENOMEM : 0;
	if (!err && strcmp(cur, "nop\n")) {
		/* not ours to switch: the top level is in use */
		err = has_word(avail, s->text) ? -1 : -2;
	} else if (!err) {
		err = save_top(c, *used);
		if (!err)
			err = try_write(*used, s->text, 0);
		if (!err)
			c->tracer_top = 1;
	}
	free(avail);
	free(cur);
	return err;
}

/*
 * A tracer's own option: its value is the tracer's, shared by the top
 * level and every instance in 6.1 (docs/kernel-facts.md 91), so the top
 * level's options/OPT is saved first, wherever the option is written.
 */
static int step_option(struct try_ctx *c, const struct try_step *s, char **used)
{
	const char *opt = s->text;
	char *rel = NULL, *abs;
	int err;

	if (!strncmp(opt, "no", 2))
		opt += 2;
	if (asprintf(&rel, "options/%s", opt) < 0)
		return ENOMEM;
	abs = tf_path(c, rel);
	free(rel);
	if (!abs)
		return ENOMEM;
	err = access(abs, F_OK) ? 0 : save_top(c, abs);
	free(abs);
	if (err)
		return err;
	if (!c->tracer_top || strcmp(s->name, c->global))
		*used = tf_path(c, s->path);
	else
		*used = tf_path(c, "trace_options");
	return *used ? try_write(*used, s->text, O_APPEND) : ENOMEM;
}

/*
 * Until tracing is first used, the top level's buffer is kept small and
 * buffer_size_kb says "N (expanded: M)"; the first use (an event enabled,
 * a tracer set) expands it, and resizing any instance's buffer flips the
 * same one-way switch without expanding it (docs/kernel-facts.md 92).
 * Either way try changes it: do it as a first use does, so that the top
 * level is left as after any use of tracing, not stuck at its small size.
 */
static void expand_first(struct try_ctx *c)
{
	char *abs = tf_path(c, "buffer_size_kb"), *t = abs ? tf_read(abs) : NULL;

	if (t && strstr(t, "(expanded:")) {
		char *ev = tf_path(c, "set_event");

		/* an empty line: set_event expands the buffers, then has nothing to parse */
		if (ev && !try_write(ev, "", O_APPEND))
			bt_say(NULL, BT_SAY_NOTE, "tracing was not used since boot: the top level's trace buffer was expanded to its full size first, as the first use of tracing does (the kernel cannot take that back; docs/try.md)");
		free(ev);
	}
	free(t);
	free(abs);
}

/* One step: 0 accepted, an errno refused, -1/-2 not tried (tracer), -3 fatal (said in @e). */
static int step(struct try_ctx *c, const struct try_step *s, char **used, struct bt_error *e)
{
	char *del = NULL;
	int err;

	switch (s->op) {
	case TRY_MKDIR:
		*used = tf_path(c, s->path);
		if (!*used || mkdir(*used, 0755)) {
			int why = *used ? errno : ENOMEM;

			/* the path goes in the text: the error outlives *used */
			bt_error_errno(e, why, NULL, "%s: cannot create our instance%s",
				       *used ? *used : s->path,
				       why == EEXIST ? " (a run of this process id left it? see docs/try.md)" : "");
			e->code = BT_EXIT_ENV;
			return -3;
		}
		if (try_undo_push(&c->undo, TRY_U_RMDIR, *used, NULL, 0)) {
			rmdir(*used);
			bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			return -3;
		}
		{
			char *rel = NULL;

			if (asprintf(&rel, "%s/error_log", s->path) >= 0) {
				log_snap(c, rel);
				free(rel);
			}
		}
		return 0;
	case TRY_APPEND:
	case TRY_REPLACE:
		*used = tf_path(c, s->path);
		return *used ? try_write(*used, s->text, s->op == TRY_APPEND ? O_APPEND : 0) : ENOMEM;
	case TRY_KPROBE:
	case TRY_SYNTH:
		*used = tf_path(c, s->path);
		if (!*used)
			return ENOMEM;
		/* O_APPEND: an open with O_TRUNC would delete every dynamic event */
		err = try_write(*used, s->text, O_APPEND);
		if (err)
			return err;
		if (asprintf(&del, s->op == TRY_KPROBE ? "-:kprobes/%s" : "!%s", s->name) < 0)
			return ENOMEM;
		/* one delete a probe added (a kprobe event may have several) */
		if (try_undo_delete_of(&c->undo, del))
			try_undo_delete_of(&c->undo, del)->n++;
		else if (try_undo_push(&c->undo, TRY_U_DELETE, *used, del, 1)) {
			try_write(*used, del, O_APPEND);
			free(del);
			return ENOMEM;
		}
		free(del);
		return 0;
	case TRY_TOP:
		*used = tf_path(c, s->path);
		if (!*used)
			return ENOMEM;
		err = save_top(c, *used);
		return err ? err : try_write(*used, s->text, O_APPEND);
	case TRY_TRACER:
		return step_tracer(c, s, used);
	case TRY_OPTION:
		return step_option(c, s, used);
	}
	return EINVAL;
}

/* The tracefs to use (given, or found: kernel/tracefs.c), writable by us. */
static int find_root(const struct try_opts *o, char **root, struct bt_error *e)
{
	const char *dir = o->tracefs ? o->tracefs : tracefs_find(TFN_INSTANCES);
	char *inst = NULL;

	if (!dir || !tracefs_has(dir, TFN_INSTANCES))
		return bt_error_set(e, BT_EXIT_ENV, o->tracefs, "%s", o->tracefs ?
				    "is not a tracefs (no instances/ directory): give the tracefs mount point" :
				    "no tracefs at /sys/kernel/tracing or /sys/kernel/debug/tracing: mount it (mount -t tracefs nodev /sys/kernel/tracing) or give --tracefs DIR");
	if (asprintf(&inst, "%s/instances", dir) < 0)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (access(inst, W_OK | X_OK)) {
		/* the error keeps its file pointer: dir outlives inst */
		bt_error_errno(e, errno, dir, "cannot create an instance in its instances/: run boottrace try as root");
		e->code = BT_EXIT_ENV;
		free(inst);
		return -1;
	}
	free(inst);
	*root = strdup(dir);
	return *root ? 0 : bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
}

/* Instances of runs that are gone: said, and removed with --remove-stale. */
static void stale(struct try_ctx *c)
{
	char *dir = tf_path(c, "instances");
	struct dirent *d;
	DIR *dp = dir ? opendir(dir) : NULL;

	while (dp && (d = readdir(dp))) {
		char *end, *abs;
		long pid;

		if (strncmp(d->d_name, TRY_PREFIX, strlen(TRY_PREFIX)))
			continue;
		pid = strtol(d->d_name + strlen(TRY_PREFIX), &end, 10);
		if (pid <= 0 || (*end && *end != '-'))
			continue;
		if (!kill((pid_t)pid, 0) || errno != ESRCH) {
			bt_say(NULL, BT_SAY_NOTE, "%s/%s: another boottrace try (process %ld) is running", dir, d->d_name, pid);
			continue;
		}
		if (asprintf(&abs, "%s/%s", dir, d->d_name) < 0)
			break;
		if (c->o->remove_stale) {
			if (rmdir(abs))
				bt_say(NULL, BT_SAY_WARN, "%s: left by a run that is gone (process %ld), and could not be removed: %s", abs, pid, strerror(errno));
			else
				bt_say(NULL, BT_SAY_NOTE, "%s: left by a run that is gone (process %ld): removed (--remove-stale)", abs, pid);
		} else {
			bt_say(NULL, BT_SAY_WARN, "%s: left by a run that is gone (process %ld, killed before it could undo); left as it is: remove it with --remove-stale or rmdir (kprobe or synthetic events it added may remain in kprobe_events and synthetic_events)", abs, pid);
		}
		free(abs);
	}
	if (dp)
		closedir(dp);
	free(dir);
}

/* The signals that end a try, or its --hold: everything is undone, then said. */
static const int try_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define TRY_NSIGS (sizeof(try_sigs) / sizeof(try_sigs[0]))

/* What try_plan.c could not turn into writes, said before any is made. */
static void say_untried(struct try_ctx *c, const struct try_steps *st)
{
	size_t i;

	for (i = 0; i < st->nskip; i++) {
		c->untried++;
		if (!bt_quiet()) {
			where(c, st->skip[i].node, c->o->out);
			fprintf(c->o->out, ": not tried: %s\n", st->skip[i].what);
		}
	}
}

/* From here on a signal only sets try_sig, and the steps stop at the next one. */
static void catch_signals(struct sigaction old[TRY_NSIGS])
{
	struct sigaction sa;
	size_t i;

	/* no SA_RESTART: a wait returns; writes to tracefs do not block */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = try_on_signal;
	sigemptyset(&sa.sa_mask);
	try_sig = 0;
	for (i = 0; i < TRY_NSIGS; i++)
		sigaction(try_sigs[i], &sa, &old[i]);
}

static void restore_signals(const struct sigaction old[TRY_NSIGS])
{
	size_t i;

	for (i = 0; i < TRY_NSIGS; i++)
		sigaction(try_sigs[i], &old[i], NULL);
}

/* One step made and what came of it said; 1 when it ends the run. */
static int apply_step(struct try_ctx *c, const struct try_step *s, struct bt_error *e)
{
	char *used = NULL;
	int err = step(c, s, &used, e);

	if (err == -3) {
		free(used);
		return 1;
	}
	if (!err) {
		if (s->op != TRY_MKDIR)
			accepted(c, s, used ? used : s->path);
	} else if (err == -1) {
		c->untried++;
		where(c, s->node, c->o->out);
		fprintf(c->o->out, ": not tried: tracer '%s' is in available_tracers but only the top level can run it and it runs another tracer now\n", s->text);
	} else if (err == -2) {
		said(c, s, used, 0, "not in available_tracers (not written: the top level runs another tracer now)");
	} else {
		said(c, s, used ? used : s->path, err, NULL);
	}
	free(used);
	return 0;
}

/* Every step in order, until a signal or a step that ends the run (then -1, @e set). */
static int apply_all(struct try_ctx *c, const struct try_steps *st, struct bt_error *e)
{
	size_t i;

	for (i = 0; i < st->n && !try_sig; i++)
		if (apply_step(c, &st->s[i], e))
			break;
	return i < st->n && !try_sig ? -1 : 0;
}

/* --hold: the applied state stays until a signal, which ends the hold, not the run. */
static void hold(FILE *out)
{
	sigset_t block, wait;
	size_t i;

	fprintf(out, "try: holding the applied state: Ctrl-C (SIGINT, SIGTERM, SIGHUP) undoes it\n");
	fflush(out);
	sigemptyset(&block);
	for (i = 0; i < TRY_NSIGS; i++)
		sigaddset(&block, try_sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &wait);
	for (i = 0; i < TRY_NSIGS; i++)
		sigdelset(&wait, try_sigs[i]);
	while (!try_sig)
		sigsuspend(&wait);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	try_sig = 0;
}

/* The counts, and whether the kernel is as it was. */
static void say_summary(const struct try_ctx *c, int undo_bad)
{
	FILE *out = c->o->out;

	fprintf(out, "try: %u accepted, %u refused, %u not tried%s\n", c->accepted,
		c->refused, c->untried, undo_bad ? "; NOT everything was undone (said above)" : "; everything added was removed");
	fflush(out);
}

/* A run that tried every step: 0, 1 when the kernel refused some, -1 (@e) when it is not clean. */
static int verdict(const struct try_ctx *c, int undo_bad, int interrupted,
		   struct bt_error *e)
{
	if (undo_bad)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "%d change(s) could not be undone: see the errors above and put them back by hand", undo_bad);
	if (interrupted)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "interrupted by signal %d (%s) before every setting was tried; everything added was removed", interrupted, strsignal(interrupted));
	return c->refused ? 1 : 0;
}

static void ctx_free(struct try_ctx *c)
{
	size_t i;

	try_undo_free(&c->undo);
	for (i = 0; i < c->nlogs; i++) {
		free(c->logs[i].path);
		free(c->logs[i].text);
	}
	free(c->logs);
	free(c->global);
}

int try_run(const struct plan *p, const struct try_opts *o, struct bt_error *e)
{
	struct sigaction old[TRY_NSIGS];
	struct try_ctx c = { .p = p, .o = o };
	struct try_steps st;
	char *root = NULL;
	int ret, undo_bad, interrupted;

	if (find_root(o, &root, e))
		return -1;
	c.root = root;
	if (try_plan_steps(p, (long)getpid(), &st, e)) {
		free(root);
		return -1;
	}
	if (asprintf(&c.global, "instances/" TRY_PREFIX "%ld", (long)getpid()) < 0) {
		c.global = NULL;
		ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	} else {
		stale(&c);
		say_untried(&c, &st);
		catch_signals(old);
		log_snap(&c, "error_log");
		expand_first(&c);
		ret = apply_all(&c, &st, e);
		if (!ret && o->hold && !try_sig)
			hold(o->out);
		interrupted = try_sig;
		/* a signal now only sets the flag again: the undo runs to its end */
		undo_bad = try_undo_run(&c.undo);
		restore_signals(old);
		say_summary(&c, undo_bad);
		if (!ret)
			ret = verdict(&c, undo_bad, interrupted, e);
	}
	ctx_free(&c);
	try_steps_free(&st);
	free(root);
	return ret;
}
