// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Evidence quality: what in a trace cannot be taken at face value, and
 * what the trace cannot answer at all. Each finding says what was seen,
 * with the numbers, and what to do (docs/report.md, "Evidence lines":
 * trampolines, MIPS zero frames, guess-unwinder stale frames, lost
 * events, empty traces).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "report/analysis/analysis.h"
#include "kernel/ftrace_keys.h"

static void add(struct rp_findings *q, const char *code, int warn,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void add(struct rp_findings *q, const char *code, int warn,
		const char *fmt, ...)
{
	va_list ap;

	if (q->n >= (int)(sizeof(q->v) / sizeof(q->v[0])))
		return;
	q->v[q->n].code = code;
	q->v[q->n].warn = warn;
	va_start(ap, fmt);
	vsnprintf(q->v[q->n].text, sizeof(q->v[q->n].text), fmt, ap);
	va_end(ap);
	q->n++;
}

/* "0", "0x0", "0000000000000000": an unwinder that gave up. */
static int is_zero(const char *s)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s)
		return 0;
	while (*s == '0')
		s++;
	return !*s;
}

static int parse_hex(const char *s, uint64_t *v)
{
	char *end;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	*v = strtoull(s + 2, &end, 16);
	return *end || end == s + 2 ? -1 : 0;
}

/*
 * What a frame name is, found once per name: a trace has thousands of
 * stacks but only hundreds of names, and looking at every frame's text
 * was most of the time after the parse.
 */
enum { NM_UNSEEN, NM_PLAIN, NM_TRAMP, NM_ZERO, NM_RAW, NM_RESOLVED };

struct names_memo {
	uint8_t *kind;
	uint32_t *to;		/* NM_RESOLVED: the symbol's name id */
	uint32_t n;		/* names when labelling began: ids memoized */
};

static int name_kind(struct report *r, struct names_memo *m, uint32_t id,
		     const struct rp_syms *syms, uint32_t *to)
{
	const char *f = rp_str(&r->names, id);
	char buf[300];
	uint64_t a;
	int k;

	if (id < m->n && m->kind[id]) {
		*to = m->to[id];
		return m->kind[id];
	}
	*to = RP_NONE;
	if (is_zero(f))
		k = NM_ZERO;
	else if (parse_hex(f, &a))
		k = rp_frame_machinery(f) ? NM_TRAMP : NM_PLAIN;
	else if (!syms || rp_syms_lookup(syms, a, buf, sizeof(buf)))
		k = NM_RAW;
	else if ((*to = rp_intern(&r->names, buf,
				  rp_sym_len(buf, strlen(buf)))) != RP_NONE)
		k = NM_RESOLVED;
	else
		return NM_UNSEEN;	/* no memory */
	if (id < m->n) {
		m->kind[id] = (uint8_t)k;
		m->to[id] = *to;
	}
	return k;
}

/* Label one stack's frames; may intern resolved names. */
static int label(struct report *r, struct rp_stack *s,
		 const struct rp_syms *syms, struct names_memo *m,
		 struct rp_findings *q)
{
	uint32_t i, j, to, real = 0, lead = 0;	/* tracer frames on top */

	for (i = 0; i < s->nframes; i++) {
		/* the tracer's and ftrace's frames on top: the raw
		 * address right below them is the trampoline */
		if (i && lead == i - 1 &&
		    (s->flag[i - 1] & (RP_FR_TRACER | RP_FR_TRAMP)))
			lead = i;
		switch (name_kind(r, m, s->frame[i], syms, &to)) {
		case NM_UNSEEN:
			return -1;
		case NM_ZERO:
			s->flag[i] |= RP_FR_ZERO;
			break;
		case NM_RAW:
			/* x86 func_stack_trace: the dynamic trampoline that
			 * called the tracer, in module space (first, or
			 * right below a kprobe's own frames) */
			s->flag[i] |= i == lead && i + 1 < s->nframes &&
				      (i == 0 || (s->flag[i - 1] & (RP_FR_TRACER | RP_FR_TRAMP))) ?
				      RP_FR_TRAMP | RP_FR_RAW : RP_FR_RAW;
			break;
		case NM_RESOLVED:
			s->frame[i] = to;
			q->resolved++;
			if (rp_frame_machinery(rp_str(&r->names, s->frame[i])))
				s->flag[i] |= RP_FR_TRAMP;
			break;
		case NM_TRAMP:
			s->flag[i] |= RP_FR_TRAMP;
			break;
		case NM_PLAIN:
			if (rp_frame_tracer(rp_str(&r->names, s->frame[i])))
				s->flag[i] |= RP_FR_TRACER;
			break;
		}
	}
	for (i = 0; i < s->nframes; i++) {
		if (s->flag[i] & (RP_FR_ZERO | RP_FR_TRAMP | RP_FR_TRACER))
			continue;
		real++;
		for (j = 0; j < i; j++)
			if (s->frame[j] == s->frame[i] && j + 1 != i &&
			    !(s->flag[j] & (RP_FR_ZERO | RP_FR_TRAMP))) {
				s->flag[i] |= RP_FR_STALE;
				s->stale = 1;
			}
	}
	s->useless = real == 0;
	s->checked = 1;
	return 0;
}

/* Each stack's first hit: its time and the pid of its task. */
static struct rp_count *first_hits(const struct report *r)
{
	struct rp_count *h = calloc(r->stacks.n + 1, sizeof(*h));
	size_t i;

	if (!h)
		return NULL;
	for (i = 0; i < r->stack_task.cap; i++) {
		const struct rp_count *c = &r->stack_task.slot[i];
		uint32_t a;

		if (!c->key || (a = rp_key_a(c)) >= r->stacks.n)
			continue;
		if (!h[a].key || c->first < h[a].first)
			h[a] = *c;
	}
	return h;
}

static int label_all(struct report *r, const struct rp_syms *syms,
		     struct rp_findings *q)
{
	struct names_memo m = { calloc(r->names.n + 1, 1),
				malloc((r->names.n + 1) * sizeof(uint32_t)),
				r->names.n };
	struct rp_count *h = first_hits(r);
	uint32_t i, k;
	int ret = -1;

	q->frames.init_example = RP_NONE;
	if (!m.kind || !m.to || !h)
		goto out;
	for (i = 0; i < r->stacks.n; i++) {
		struct rp_stack *s = &r->stacks.s[i];
		int tramp = 0, zero = 0, raw = 0;

		if (!s->checked && label(r, s, syms, &m, q))
			goto out;
		if (!s->settled && h[i].key) {
			uint32_t t = rp_key_b(&h[i]);

			if (rp_frame_settle(r, s, h[i].first, t < r->tasks.n ?
					    rp_task_pid(rp_str(&r->tasks, t)) : RP_NONE,
					    &q->frames))
				goto out;
			s->settled = 1;
		}
		for (k = 0; k < s->nframes; k++) {
			tramp |= !!(s->flag[k] & RP_FR_TRAMP);
			zero |= !!(s->flag[k] & RP_FR_ZERO);
			raw |= (s->flag[k] & (RP_FR_RAW | RP_FR_TRAMP)) == RP_FR_RAW;
		}
		q->tramp += (uint32_t)tramp;
		q->zero += (uint32_t)zero;
		q->raw += (uint32_t)raw;
		q->useless += s->useless;
		q->stale += s->stale;
	}
	ret = 0;
out:
	free(m.kind);
	free(m.to);
	free(h);
	return ret;
}

/* The distinct machinery frames, up to four: "A, B, C, D, ...". */
static void tramp_names(const struct report *r, char *buf, size_t cap)
{
	uint32_t i, k, seen[4], n = 0, j, more = 0;
	size_t len = 0;

	*buf = '\0';
	for (i = 0; i < r->stacks.n; i++)
		for (k = 0; k < r->stacks.s[i].nframes; k++) {
			uint32_t id = r->stacks.s[i].frame[k];

			if (!(r->stacks.s[i].flag[k] & RP_FR_TRAMP))
				continue;
			for (j = 0; j < n && seen[j] != id; j++)
				;
			if (j < n)
				continue;
			if (n == 4) {
				more = 1;
				continue;
			}
			seen[n++] = id;
			len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0,
						"%s%s", n > 1 ? ", " : "",
						rp_str(&r->names, id));
		}
	if (more && len < cap)
		snprintf(buf + len, cap - len, ", ...");
}

static void stack_findings(const struct report *r, struct rp_findings *q)
{
	uint32_t n = r->stacks.n;
	char names[200];

	tramp_names(r, names, sizeof(names));
	if (q->tramp)
		add(q, "trampoline", 0,
		    "%u of %u distinct stacks carry an ftrace trampoline frame (%s): ftrace's own call stubs, labelled and left out of the callers", q->tramp, n, names);
	if (q->useless)
		add(q, "zero-frames", 1,
		    "%u of %u distinct stacks have no usable frame (all zero or trampoline, e.g. \"=> ftrace_graph_call => 0\": func_stack_trace cannot unwind on this kernel, as on MIPS); use parent-chain mode: the chains below are stitched from the function tracer's <-parent column; add the callers to the filter (boottrace.arm= for module functions) to lengthen them", q->useless, n);
	else if (q->zero)
		add(q, "zero-frames", 1,
		    "%u of %u distinct stacks contain zero-address frames (the unwinder stopped): those frames are left out",
		    q->zero, n);
	if (q->stale)
		add(q, "stale-frames", 1,
		    "%u of %u distinct stacks repeat a function out of call order: stale frames from a guess unwinder (CONFIG_UNWINDER_GUESS); they are marked and left out; build with CONFIG_UNWINDER_ORC or CONFIG_UNWINDER_FRAME_POINTER for exact stacks",
		    q->stale, n);
	if (q->frames.init_renamed)
		add(q, "freed-init", 1,
		    "%u frame%s of module init code %s named after a module loaded later into that memory (the kernel names a stack's addresses when the trace is read, not when it was taken): each is shown as [init of MODULE], the module its task was loading (its module_load event), e.g. %s",
		    q->frames.init_renamed, q->frames.init_renamed == 1 ? "" : "s",
		    q->frames.init_renamed == 1 ? "was" : "were",
		    rp_name(r, q->frames.init_example));
	if (q->frames.ko_named)
		add(q, "init-named", 0,
		    "%u frame%s of module init code named from the module's .ko under %s: %s, at its init_module; the offset in it is unknown (the trace's is in what was loaded there later, e.g. %s); deeper frames of freed init code stay [init of MODULE] (naming them takes their addresses)",
		    q->frames.ko_named, q->frames.ko_named == 1 ? "" : "s",
		    q->frames.ko_dir, q->frames.ko_names,
		    q->frames.ko_example != RP_NONE ?
		    rp_name(r, q->frames.ko_example) : "?");
	else if (q->frames.ko_dir && !q->frames.ko_missing && !q->frames.ko_unnamed)
		add(q, "init-named", 0,
		    "no frame of a module's freed init code to name from the modules tree %s: the trace has none shown as [init of MODULE]",
		    q->frames.ko_dir);
	if (q->frames.ko_missing)
		add(q, "init-ko-missing", 1,
		    "%s: no .ko of %s under %s (%s init is shown as [init of MODULE]): give the modules tree of the kernel that booted (/lib/modules/VERSION, or its unpacked package's)",
		    q->frames.ko_missing == 1 ? "a module's init is not named" : "module inits are not named",
		    q->frames.ko_missing_names, q->frames.ko_dir,
		    q->frames.ko_missing == 1 ? "its" : "their");
	if (q->frames.ko_unnamed)
		add(q, "init-ko-unnamed", 1,
		    "%u module%s .ko under %s did not name %s init (shown as [init of MODULE]): %s",
		    q->frames.ko_unnamed, q->frames.ko_unnamed == 1 ? "'s" : "s'",
		    q->frames.ko_dir, q->frames.ko_unnamed == 1 ? "its" : "their",
		    q->frames.ko_problem);
	if (q->frames.init_unchecked)
		add(q, "init-unchecked", 1,
		    "%u %s%s a module's init (%s -> %s ...) and the trace has no module_load event of %s task: a module loaded into that freed init code before the trace was read would be named instead of the init, so the name is shown as [unverified NAME]; trace module:module_load to have each checked, and trace_options=sym-offset to have each frame's module printed (compile --who-calls does both)",
		    q->frames.init_unchecked,
		    q->frames.chain_inits ? "call path" : "stack",
		    q->frames.init_unchecked == 1 ? " runs" : "s run",
		    q->frames.chain_inits ? "do_one_initcall of a module-loading task" :
		    "do_init_module -> do_one_initcall",
		    rp_name(r, q->frames.init_example),
		    q->frames.init_unchecked == 1 ? "its" : "their");
	if (q->frames.badoff)
		add(q, "unverified-frames", 1,
		    "%u frames have an offset at or past their function's size (sym-offset \"NAME+0xOFF/0xSIZE\"): the address is not in that function, so the name is shown as [unverified NAME]",
		    q->frames.badoff);
	if (q->raw)
		add(q, "raw-frames", 1,
		    "%u distinct stacks have raw addresses with no symbol: pass --kallsyms (the snapshot's kallsyms) or --system-map with --proc-modules to name them", q->raw);
	if (q->resolved)
		add(q, "resolved", 0, "%u raw frame addresses were resolved with the symbol table", q->resolved);
}

static int word_in(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p = text;

	while (text && (p = strstr(p, word))) {
		if ((p == text || strchr(" \t\n,=", p[-1])) &&
		    strchr(" \t\n,", p[n] ? p[n] : ' '))
			return 1;
		p += n;
	}
	return 0;
}

static void lost_findings(const struct report *r, const struct rp_snap *snap,
			  struct rp_findings *q)
{
	const struct rp_header *h = &r->hdr;

	if (h->have_entries && h->in_buffer < h->written)
		add(q, "lost-events", 1,
		    "events lost: entries-in-buffer %llu < entries-written %llu (%llu overwritten%s%s); raise trace_buf_size= (ftrace.buffer_size) or narrow the filter",
		    (unsigned long long)h->in_buffer,
		    (unsigned long long)h->written,
		    (unsigned long long)(h->written - h->in_buffer),
		    snap && snap->buffer_kb ? ", buffer_size_kb " : "",
		    snap && snap->buffer_kb ? snap->buffer_kb : "");
	if (snap && snap->have_stats && (snap->overrun || snap->dropped))
		add(q, "lost-events", 1,
		    "per-CPU stats: %llu events overrun, %llu dropped: the oldest events of the boot are gone",
		    (unsigned long long)snap->overrun,
		    (unsigned long long)snap->dropped);
	if (r->cpu_started)
		add(q, "cpu-buffer-started", 1,
		    "%llu \"CPU N buffer started\" markers: events before them were lost on those CPUs",
		    (unsigned long long)r->cpu_started);
}

/*
 * Was tracing off before the snapshot? The hook itself writes 0 to
 * tracing_on before copying (boottrace.stop), so its tracing_on file says
 * nothing then; meta's tracing_on_before is what was found.
 */
static int was_off(const struct rp_snap *snap)
{
	const char *p;

	if (!snap)
		return 0;
	if (snap->meta && (p = strstr(snap->meta, "tracing_on_before=")) &&
	    (p == snap->meta || p[-1] == '\n') && (p[18] == '0' || p[18] == '1'))
		return p[18] == '0';
	return snap->tracing_on && snap->tracing_on[0] == '0';
}

/*
 * Does @cmdline ask for a tracer: the legacy ftrace= or the bootconfig key
 * ftrace.tracer written on the line (its name from kernel/ftrace_keys.c)?
 */
static int sets_tracer(const char *cmdline)
{
	char key[64];

	snprintf(key, sizeof(key), "ftrace.%s", fkey_name(FKEY_TRACER));
	return strstr(cmdline, "ftrace=") || strstr(cmdline, key);
}

static void empty_findings(const struct report *r, const struct rp_snap *snap,
			   struct rp_findings *q)
{
	const char *tracer = snap && snap->tracer ? snap->tracer : r->hdr.tracer;
	int want_fn = snap && snap->cmdline && sets_tracer(snap->cmdline);

	if (r->entries)
		return;
	if (want_fn && (!*tracer || !strncmp(tracer, "nop", 3)))
		add(q, "empty-trace", 1,
		    "the trace is empty and the tracer is \"nop\" although the command line sets one: the tracer was not applied (name wrong, CONFIG_FUNCTION_TRACER off, or ftrace.* keys without CONFIG_BOOTTIME_TRACING)");
	else if (was_off(snap))
		add(q, "empty-trace", 1,
		    "the trace is empty and tracing_on is 0: tracing was stopped before anything was recorded (traceoff trigger, tracing_on=0 or traceoff_on_warning)");
	else if (*tracer && strncmp(tracer, "nop", 3) && snap &&
		 snap->clock_reset[0])
		add(q, "empty-trace", 1,
		    "the trace is empty although tracer \"%s\" is set: the kernel emptied it at %s s when it switched the trace clock (above), and nothing matching the filter ran after that",
		    tracer, snap->clock_reset);
	else if (*tracer && strncmp(tracer, "nop", 3))
		add(q, "empty-trace", 1,
		    "the trace is empty although tracer \"%s\" is set: the filter matched nothing that ran before the snapshot (set_ftrace_filter: %s), or a module function was filtered from the command line, which the kernel drops at boot (write it to set_ftrace_filter before the module loads: boottrace.arm=)", tracer,
		    snap && snap->filter ? snap->filter : "not in the input");
	else
		add(q, "empty-trace", 1,
		    "the trace has no entries%s", *tracer ? " (tracer nop)" : "");
}

static void option_findings(const struct report *r, const struct rp_snap *snap,
			    struct rp_findings *q)
{
	const char *cmd = snap ? snap->cmdline : NULL;

	if (!cmd || !r->entries)
		return;
	if (word_in(cmd, "func_stack_trace") && snap->options &&
	    word_in(snap->options, "nofunc_stack_trace"))
		add(q, "option-not-applied", 1,
		    "func_stack_trace was asked for but trace_options shows nofunc_stack_trace: boot-time ftrace.options are applied before the tracer exists; use kernel.trace_options (the command line) instead");
	else if (word_in(cmd, "stacktrace") && !word_in(cmd, "func_stack_trace") &&
		 !r->stacks.n && !strcmp(r->hdr.tracer, "function"))
		add(q, "option-not-applied", 1,
		    "trace_options=stacktrace records stacks for events only; the function tracer needs func_stack_trace");
}

/*
 * The kernel switched the global trace clock at late_initcall_sync and
 * emptied the buffer on the way: whatever built-in initcalls were traced
 * doing is gone, and an "empty trace" or a missing culprit is why.
 */
static void clock_findings(const struct rp_snap *snap, struct rp_findings *q)
{
	if (!snap || !snap->clock_reset[0])
		return;
	add(q, "clock-reset", 1,
	    "the kernel switched the trace clock to \"global\" at %s s (dmesg: \"Unstable clock detected\") and emptied the trace buffer: everything traced before then, built-in initcalls included, is gone; put trace_clock=global on the command line (boottrace compile adds it on x86), a bootconfig ftrace.trace_clock does not prevent it", snap->clock_reset);
}

static void skip_findings(const struct report *r, struct rp_findings *q)
{
	const struct rp_skipped *s = &r->skip;

	if (s->lines)
		add(q, "skipped-lines", 1,
		    "skipped %llu line(s) that are not trace text (first at line %llu%s)", (unsigned long long)s->lines,
		    (unsigned long long)s->first_line,
		    s->binary ? "; some hold binary bytes" : "");
	if (s->truncated)
		add(q, "truncated", 1,
		    "the last line has no newline: the trace was cut short (snapshot interrupted or console log truncated)");
	if (s->orphan_stacks)
		add(q, "orphan-stacks", 1,
		    "%llu stack block(s) had no hit before them on their CPU and task (the buffer started mid-event) and were skipped",
		    (unsigned long long)s->orphan_stacks);
	if (s->user_stacks)
		add(q, "user-stacks", 0, "%llu user stack block(s) ignored",
		    (unsigned long long)s->user_stacks);
	if (s->trigger_stacks)
		add(q, "trigger-stacks", 0,
		    "%llu stack block(s) came without their event line (a stacktrace trigger on an event that is not enabled): each is counted as a hit of the event its tracer frames name (trace_event_raw_event_NAME, or the function a kprobe sits on)",
		    (unsigned long long)s->trigger_stacks);
}

/* What the hook itself recorded in meta (error=/warning= lines): a cut
 * trace, a fallback destination, a nop tracer... */
static void meta_findings(const struct rp_snap *snap, struct rp_findings *q)
{
	const char *at = NULL, *text;
	int len, kind;

	while ((kind = rp_snap_meta_next(snap, &at, &text, &len)))
		add(q, kind == RP_META_ERROR ? "hook-error" : "hook-warning", 1, "the hook recorded: %.*s", len, text);
}

/* For each id of @tab's first column, the task with the most hits: one
 * pass, so outputs need not search the table per stack. */
static uint32_t *top_tasks(const struct rp_pairs *tab, uint32_t nid)
{
	uint32_t *top = malloc((nid ? nid : 1) * sizeof(*top));
	uint64_t *best = calloc(nid ? nid : 1, sizeof(*best));
	size_t i;

	if (!top || !best) {
		free(top);
		free(best);
		return NULL;
	}
	memset(top, 0xff, (nid ? nid : 1) * sizeof(*top));
	for (i = 0; i < tab->cap; i++) {
		const struct rp_count *c = &tab->slot[i];
		uint32_t a;

		if (!c->key || (a = rp_key_a(c)) >= nid)
			continue;
		if (c->n > best[a] || (c->n == best[a] && rp_key_b(c) < top[a])) {
			best[a] = c->n;
			top[a] = rp_key_b(c);
		}
	}
	free(best);
	return top;
}

int rp_check(struct report *r, const struct rp_syms *syms,
	     const struct rp_snap *snap, struct rp_findings *q)
{
	struct bt_error e;

	return rp_check_modules(r, syms, snap, NULL, q, &e);
}

int rp_check_modules(struct report *r, const struct rp_syms *syms,
		     const struct rp_snap *snap, const char *ko_dir,
		     struct rp_findings *q, struct bt_error *e)
{
	memset(q, 0, sizeof(*q));
	q->frames.ko_example = RP_NONE;
	if (rp_count_end(r) || label_all(r, syms, q))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	/*
	 * The modules first: the chains' check reads them; then the inits
	 * named from the .ko, stacks' and chains'; the parent column last, as
	 * it follows each stack's names.
	 */
	if (rp_frame_modules(r) || rp_frame_chains(r, &q->frames))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (ko_dir && rp_frame_ko_names(r, ko_dir, &q->frames, e))
		return -1;
	if (rp_frame_parents(r))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	free(r->an.top_stack_task);
	free(r->an.top_chain_task);
	r->an.top_stack_task = top_tasks(&r->stack_task, r->stacks.n);
	r->an.top_chain_task = top_tasks(&r->chain_task, r->chains.n);
	if (!r->an.top_stack_task || !r->an.top_chain_task)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	/* the outputs ask per function: sorted once, searched each time */
	if (rp_pairs_index(&r->fn_stack) || rp_pairs_index(&r->fn_chain) ||
	    rp_pairs_index(&r->fn_task) || rp_pairs_index(&r->fn_parent) ||
	    rp_pairs_index(&r->fn_probe) || rp_pairs_index(&r->stack_probe))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (snap && snap->console && snap->nboots > 1)
		add(q, "console-boots", 0,
		    "the console log holds %d snapshots; this is number %d (--boot N picks another)", snap->nboots, snap->boot);
	if (snap && !snap->complete)
		add(q, "incomplete-snapshot", 1,
		    "the snapshot has no COMPLETE marker: the copy was interrupted, so files may be partial");
	if (snap && snap->damaged)
		add(q, "damaged-capture", 1,
		    "the console capture is damaged: %s; %s", snap->damage,
		    snap->trace_damaged ? "the answers below come from a damaged trace and may be wrong (capture the console again, or copy the snapshot directory)" :
		    "the trace itself came through whole");
	meta_findings(snap, q);
	clock_findings(snap, q);
	stack_findings(r, q);
	lost_findings(r, snap, q);
	empty_findings(r, snap, q);
	option_findings(r, snap, q);
	skip_findings(r, q);
	return 0;
}
