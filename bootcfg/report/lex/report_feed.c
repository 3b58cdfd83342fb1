// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Feeding: text to the lexer, its events to the counters in batches. A
 * large file is mapped a window at a time and, with a second CPU, its
 * events are counted on a thread of their own while the lexer reads on:
 * the counting is a third of the work, so the report then takes about as
 * long as the lexing alone. Neither touches the other's tables
 * (count.h, "struct report"; lex.h, "events").
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/lex/count.h"

#define RP_READ (1u << 20)

#define RP_RING 8		/* batches between the lexer and the counters */
#define RP_PIPE_MIN (8u << 20)	/* smaller files: one thread is as fast */

/*
 * The batches between the lexer (this thread) and the counters (a thread
 * of their own): the lexer fills ring[head % RP_RING], the counters count
 * ring[tail % RP_RING] .. ring[(head - 1) % RP_RING], in order.
 */
struct rp_pipe {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t filled, freed;
	struct rp_batch *ring[RP_RING];
	uint64_t head, tail;
	int done, failed;
	struct report *r;
};

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->hdr.ncpu = -1;
}

void report_free(struct report *r)
{
	rp_lex_free(r);
	rp_count_free(r);
	free(r->an.top_stack_task);	/* rp_check's */
	free(r->an.shown);
	free(r->an.modof);
	free(r->an.top_chain_task);
	free(r->batch);
	memset(r, 0, sizeof(*r));
}

struct report *report_new(void)
{
	struct report *r = aligned_alloc(_Alignof(struct report), sizeof(*r));

	if (r)
		report_init(r);
	return r;
}

void report_delete(struct report *r)
{
	if (!r)
		return;
	report_free(r);
	free(r);
}

int report_refused(const struct report *r, const char *name,
		   struct bt_error *e)
{
	if (r->hdr.how == RP_READ_REFUSE)
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "tracer \"%s\" (its '# tracer:' header): report does not read it: %s",
				    r->hdr.tracer, r->hdr.refused);
	/* a tracer it reads, in a layout it does not: not an empty trace */
	if (r->hdr.tracer[0] && !r->entries && r->skip.lines)
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "tracer \"%s\": none of the %llu lines after its header is in a layout report reads (first at line %llu)%s",
				    r->hdr.tracer, (unsigned long long)r->skip.lines,
				    (unsigned long long)r->skip.first_line,
				    r->hdr.how == RP_READ_GRAPH ? "; function_graph is read with its duration column (trace option funcgraph-duration, the default)" : "");
	return 0;
}

int report_not_trace(const struct report *r, uint64_t *lines,
		     uint64_t *first_bad)
{
	*lines = r->lines;
	*first_bad = r->skip.first_line;
	return !r->entries && !r->hdr.tracer[0] && !r->hdr.have_entries &&
	       r->skip.lines;
}

static int batch_ready(struct report *r)
{
	if (!r->batch && !(r->batch = malloc(sizeof(*r->batch))))
		return -1;
	if (!r->cur) {
		r->cur = r->batch;
		r->cur->n = 0;
	}
	return 0;
}

static void *pipe_count(void *arg)
{
	struct rp_pipe *pp = arg;
	struct rp_batch *b;
	int ret;

	pthread_mutex_lock(&pp->mu);
	for (;;) {
		while (pp->tail == pp->head && !pp->done)
			pthread_cond_wait(&pp->filled, &pp->mu);
		if (pp->tail == pp->head)
			break;
		b = pp->ring[pp->tail % RP_RING];
		ret = pp->failed;
		pthread_mutex_unlock(&pp->mu);
		if (!ret)
			ret = rp_count(pp->r, b->ev, b->n);
		pthread_mutex_lock(&pp->mu);
		pp->failed |= ret != 0;
		pp->tail++;
		pthread_cond_signal(&pp->freed);
	}
	pthread_mutex_unlock(&pp->mu);
	return NULL;
}

/* Hand the current batch on; the next one to fill once it is free. */
static int pipe_push(struct report *r)
{
	struct rp_pipe *pp = r->pipe;
	int failed;

	pthread_mutex_lock(&pp->mu);
	pp->head++;
	pthread_cond_signal(&pp->filled);
	while (pp->head - pp->tail == RP_RING && !pp->failed)
		pthread_cond_wait(&pp->freed, &pp->mu);
	failed = pp->failed;
	pthread_mutex_unlock(&pp->mu);
	r->cur = pp->ring[pp->head % RP_RING];
	r->cur->n = 0;
	return failed ? -1 : 0;
}

/* Count the current batch, or hand it on; -1: out of memory. */
static int feed_flush(struct report *r)
{
	int ret;

	if (r->pipe)
		return pipe_push(r);
	ret = rp_count(r, r->cur->ev, r->cur->n);
	r->cur->n = 0;
	return ret;
}

static void pipe_free(struct rp_pipe *pp)
{
	unsigned i;

	for (i = 0; i < RP_RING; i++)
		free(pp->ring[i]);
	free(pp);
}

static int want_thread(size_t size)
{
	const char *t = getenv("BOOTTRACE_THREADS");

	return size >= RP_PIPE_MIN && sysconf(_SC_NPROCESSORS_ONLN) > 1 &&
	       !(t && !strcmp(t, "1"));
}

/* Count on a thread from now on; 0 when that cannot be (then inline). */
static int pipe_start(struct report *r)
{
	struct rp_pipe *pp = calloc(1, sizeof(*pp));
	unsigned i;

	if (!pp || batch_ready(r))
		goto fail;
	for (i = 0; i < RP_RING; i++)
		if (!(pp->ring[i] = malloc(sizeof(*pp->ring[i]))))
			goto fail;
	if (feed_flush(r))	/* what was lexed before: counted here */
		goto fail;
	pp->r = r;
	pthread_mutex_init(&pp->mu, NULL);
	pthread_cond_init(&pp->filled, NULL);
	pthread_cond_init(&pp->freed, NULL);
	if (pthread_create(&pp->thread, NULL, pipe_count, pp)) {
		pthread_cond_destroy(&pp->freed);
		pthread_cond_destroy(&pp->filled);
		pthread_mutex_destroy(&pp->mu);
		goto fail;
	}
	r->pipe = pp;
	r->cur = pp->ring[0];
	r->cur->n = 0;
	return 1;
fail:
	if (pp)
		pipe_free(pp);
	return 0;
}

/* The last batch handed on, everything counted; -1: out of memory. */
static int pipe_stop(struct report *r)
{
	struct rp_pipe *pp = r->pipe;
	int failed;

	if (!pp)
		return 0;
	pthread_mutex_lock(&pp->mu);
	pp->head++;
	pp->done = 1;
	pthread_cond_signal(&pp->filled);
	pthread_mutex_unlock(&pp->mu);
	pthread_join(pp->thread, NULL);
	failed = pp->failed;
	pthread_cond_destroy(&pp->freed);
	pthread_cond_destroy(&pp->filled);
	pthread_mutex_destroy(&pp->mu);
	pipe_free(pp);
	r->pipe = NULL;
	r->cur = r->batch;
	r->cur->n = 0;
	if (failed)
		r->oom = 1;
	return failed ? -1 : 0;
}

long report_feed(struct report *r, const char *p, size_t len, int eof)
{
	const char *s = p, *end = p + len, *n;
	int oom = 0;

	if (batch_ready(r)) {
		r->oom = 1;
		return -1;
	}
	while (s < end) {
		if (r->cur->n + RP_LINE_EVENTS > RP_BATCH && feed_flush(r)) {
			oom = 1;
			break;
		}
		n = rp_lex(r, s, end, eof, &oom);
		/* a block longer than a whole read: take it as it is */
		if (!n && !oom && s == p && len >= RP_READ)
			n = rp_lex(r, s, end, 1, &oom);
		if (oom || !n)
			break;
		s = n;
	}
	if (oom || (!r->pipe && r->cur->n && feed_flush(r))) {
		r->oom = 1;
		return -1;
	}
	r->bytes += (uint64_t)(s - p);
	return s - p;
}

static int feed_oom(const struct report *r, const char *name,
		    struct bt_error *e)
{
	return bt_error_set(e, BT_EXIT_ENV, name,
			    "out of memory after %llu lines",
			    (unsigned long long)r->lines);
}

/*
 * A mapped file that shrinks while it is read (rewritten with ">") raises
 * SIGBUS on the bytes that are gone. Caught, that is an error that says
 * so, not a crash. Only the lexer reads the text, on this thread, and it
 * copies what it keeps before it allocates for it (report_stacks.c), so
 * nothing is left half made.
 */
static _Thread_local sigjmp_buf *bus_jump;

static void on_bus(int sig)
{
	if (!bus_jump) {	/* not ours: die of it as before */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	siglongjmp(*bus_jump, 1);
}

/* report_feed on a mapped window; -2: the file shrank under it. */
static long feed_window(struct report *r, const char *p, size_t len, int eof)
{
	sigjmp_buf jump;
	long used;

	if (sigsetjmp(jump, 1)) {
		bus_jump = NULL;
		return -2;
	}
	bus_jump = &jump;
	used = report_feed(r, p, len, eof);
	bus_jump = NULL;
	return used;
}

/*
 * A regular file is mapped a window at a time: the read() copy was a
 * tenth of the report's time. Each window starts at the page of the first
 * byte not used yet, so a block cut by a window's end is seen whole in
 * the next; the window's size bounds what is resident, as the read buffer
 * did. 1: the first window could not be mapped (read the file); -1 with
 * @e set.
 */
static int feed_windows(struct report *r, int fd, size_t size, size_t page,
			const char *name, struct bt_error *e)
{
	const size_t win = 4 * RP_READ;
	size_t pos = 0;

	while (pos < size) {
		size_t off = pos - pos % page;
		size_t len = size - off < win ? size - off : win;
		int eof = off + len == size;
		char *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
			       fd, (off_t)off);
		long used;

		if (m == MAP_FAILED) {
			if (!pos)
				return 1;	/* e.g. a file system without mmap */
			return bt_error_errno(e, errno, name, "cannot map");
		}
		used = feed_window(r, m + (pos - off), len - (pos - off), eof);
		munmap(m, len);
		if (used == -2)
			return bt_error_set(e, BT_EXIT_INPUT, name,
					    "the file shrank while it was read (%zu bytes when opened; a page after byte %zu was gone): it is being rewritten; report on a copy that is not", size, pos);
		if (used < 0)
			return feed_oom(r, name, e);
		if (!used && !eof)	/* report_feed takes a window whole */
			return bt_error_set(e, BT_EXIT_ENV, name,
					    "no progress at byte %zu", pos);
		pos += (size_t)used;
		if (eof)
			break;
	}
	return 0;
}

/* 1: not a regular file with a size (read it); -1 with @e set. */
static int feed_mapped(struct report *r, int fd, const char *name,
		       struct bt_error *e)
{
	struct sigaction bus = { .sa_handler = on_bus }, old;
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	int ret;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    page <= 0 || (uint64_t)st.st_size > SIZE_MAX)
		return 1;
	if (want_thread((size_t)st.st_size))
		pipe_start(r);
	sigemptyset(&bus.sa_mask);
	sigaction(SIGBUS, &bus, &old);
	ret = feed_windows(r, fd, (size_t)st.st_size, (size_t)page, name, e);
	sigaction(SIGBUS, &old, NULL);
	if (pipe_stop(r) && !ret)
		ret = feed_oom(r, name, e);
	return ret;
}

/* Read @fd to its end, the @have bytes in @buf (of @cap) first. */
static int feed_read(struct report *r, int fd, char *buf, size_t cap,
		     size_t have, const char *name, struct bt_error *e)
{
	long used;
	ssize_t n;

	for (;;) {
		n = read(fd, buf + have, cap - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return bt_error_errno(e, errno, name, "cannot read");
		have += (size_t)n;
		used = report_feed(r, buf, have, n == 0);
		if (used < 0)
			return feed_oom(r, name, e);
		memmove(buf, buf + used, have - (size_t)used);
		have -= (size_t)used;
		if (n == 0)
			return 0;
	}
}

int report_feed_fd(struct report *r, int fd, const char *pre, size_t npre,
		   const char *name, struct bt_error *e)
{
	size_t cap = 4 * RP_READ, have = 0;
	char *buf;
	long used = 0;
	int ret;

	if (!npre && (ret = feed_mapped(r, fd, name, e)) <= 0)
		return ret;
	if (npre && (used = report_feed(r, pre, npre, 0)) < 0)
		return feed_oom(r, name, e);
	have = npre - (size_t)used;	/* a line or block cut by its end */
	while (cap < have + RP_READ)
		cap *= 2;
	if (!(buf = malloc(cap)))
		return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
	if (have)
		memcpy(buf, pre + used, have);
	ret = feed_read(r, fd, buf, cap, have, name, e);
	free(buf);
	return ret;
}
