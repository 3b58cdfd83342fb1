/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The target kernel of compile and arm-boot (cmd_kernel.h): its version,
 * its .config and, from --kernel IMAGE, its own boot parameters, tracers,
 * .config and command-line size, so that both verbs check a line against
 * the same kernel the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "compile/compile.h"
#include "cmd/cmd_kernel.h"
#include "cmd/cmd_opt.h"
#include "kernel/tracers.h"

int cmd_kernel_is_version(const char *s)
{
	if (*s < '0' || *s > '9')
		return 0;
	return strspn(s, "0123456789.") == strlen(s);
}

int cmd_target_take(struct cmd_target *t, int c, const char *arg)
{
	switch (c) {
	case 'b': t->board = arg; break;
	case 'k': t->kver = arg; break;
	case CMD_O_KERNEL:
		/* a version as -k (as it always was), else an image file */
		if (cmd_kernel_is_version(arg))
			t->kver = arg;
		else
			t->image = arg;
		break;
	case CMD_O_KCONFIG: t->kconfig = arg; break;
	case CMD_O_DROP: t->allow_drop = 1; break;
	default: return 0;
	}
	return 1;
}

/* The tracers whose code the image's symbols hold (kernel/tracers.c). */
static void cmd_kernel_tracers(const char *image, const char *text, size_t len,
			       struct kcaps *k)
{
	const char *const *w = ktracer_witnesses();
	uint64_t addr[32];
	int n = 0;

	while (w[n])
		n++;
	ktracer_set_symbols(k, kimg_syms(text, len, w, addr, n), image);
}

/*
 * --kernel IMAGE: the boot parameters the image's own table holds, for the
 * routes to check every word against (kimage/kimg_params.c), its .config
 * when no --kernel-config is given (check/check_kconfig.c), and its
 * command-line size (kimg.h).
 */
static int cmd_kernel_image(struct cmd_kernel *ck, struct bt_error *e)
{
	struct kimg_params *p = &ck->params;
	struct kcaps *k = &ck->k;
	struct bt_error why;
	char *text = NULL, how[400];
	size_t len, nsyms;
	int ret;

	if (kimg_load(ck->image, &ck->img, e))
		return -1;
	ck->cmdline_size = ck->img.cmdline_size;
	ret = check_image_kconfig(&ck->img, ck->image, "the checks against its CONFIG_ options (bootconfig support, tracers, kprobe events)", k, e);
	if (!ret)
		ret = kimg_kallsyms(&ck->img, ck->image, &text, &len, &nsyms, how, sizeof(how), e);
	if (!ret)
		cmd_kernel_tracers(ck->image, text, len, k);
	if (!ret && kimg_params(&ck->img, text, len, ck->image, p, &why)) {
		/* no table found: the version table still decides, and we say so */
		if (why.code != BT_EXIT_INPUT)
			*e = why, ret = -1;
		else
			bt_say(NULL, BT_SAY_WARN, "%s: %s; the words are checked against the version table only",
			       ck->image, why.msg);
	}
	free(text);
	if (ret || !p->n)
		return ret;
	k->image_path = ck->image;
	k->image_params = p->name;
	k->nimage_params = p->n;
	if (ck->verbose)
		bt_say("route", BT_SAY_PLAIN, "boot parameters: the %zu of %s's own __setup/early_param table (%zu early), at byte %zu of the unpacked kernel; a word it lacks is refused",
		       p->n, ck->image, p->early, p->at);
	return 0;
}

int cmd_kernel_load(struct cmd_kernel *ck, struct bt_error *e)
{
	memset(&ck->k, 0, sizeof(ck->k));
	if (ck->kver && kcaps_set_version(&ck->k, ck->kver, e))
		return -1;
	if (ck->kconfig && kcaps_load_config(&ck->k, ck->kconfig, e))
		return -1;
	if (ck->image && cmd_kernel_image(ck, e))
		return -1;
	if (!ck->k.version && ck->verbose)
		bt_say("route", BT_SAY_PLAIN, "no -k or --kernel-config: kernel version checks are skipped");
	return 0;
}

/*
 * The command-line size: a bzImage's setup header says its kernel's
 * (cmdline_size, the NUL not counted: kernel-facts 110) and replaces the
 * board's; other images keep the board's. -v says which.
 */
int cmd_kernel_cmdline_size(const struct cmd_kernel *ck, struct board *b,
			    struct bt_error *e)
{
	unsigned size;

	if (!ck->image)
		return 0;
	if (!ck->cmdline_size || ck->cmdline_size >= 1u << 20) {
		if (ck->verbose)
			bt_say("route", BT_SAY_PLAIN, "command-line size %u from board %s (%s: %s)", b->cmdline_max, b->name, ck->image,
			       ck->cmdline_size ? "its setup header's cmdline_size is past 1 MiB, not taken" : "no x86 setup header with cmdline_size in it");
		return 0;
	}
	size = ck->cmdline_size + 1;
	if (size != b->cmdline_max)
		bt_say(ck->image, BT_SAY_NOTE, "the kernel takes %u bytes of command line (its setup header's cmdline_size, the NUL not counted), board %s says COMMAND_LINE_SIZE %u: the image's %u is used",
		       ck->cmdline_size, b->name, b->cmdline_max, size);
	if (b->cmdline_loader >= size)
		return bt_error_set(e, BT_EXIT_INPUT, ck->image, "byte 568: the setup header's cmdline_size %u leaves nothing of the line once board %s's loader takes its %u bytes (board.cmdline.loader): give another -b or --kernel", ck->cmdline_size, b->name, b->cmdline_loader);
	b->cmdline_max = size;
	snprintf(b->cmdline_from, sizeof(b->cmdline_from), "the setup header of %s", ck->image);
	if (ck->verbose)
		bt_say("route", BT_SAY_PLAIN, "command-line size %u from the image's setup header (cmdline_size %u at byte 568 of %s)", size, ck->cmdline_size, ck->image);
	return 0;
}

int cmd_kernel_check(struct cmd_kernel *ck, struct check_inputs *in,
		     const struct source *src, const char *voice,
		     struct bt_error *e)
{
	const struct check_opts o = { 1000 };
	struct ksyms t = { 0 };
	struct bt_progress prog;
	struct kcaps k;
	int ret = -1;

	in->kconfig_ready = !!in->kernel;
	in->image = &ck->img;
	memset(&k, 0, sizeof(k));
	if (in->kconfig_ready)	/* the .config read with the image's (said once) */
		kcaps_copy_config(&k, &ck->k);
	fflush(stdout);
	/* a big vmlinux and a modules tree take a while: a line on a terminal */
	bt_progress_init(&prog, STDERR_FILENO, bt_quiet(), voice);
	t.progress = &prog;
	if ((!in->root || !check_inputs_from_root(in, e)) &&
	    !check_inputs_load(in, &t, &k, e)) {
		bt_progress_end(&prog);
		ret = check_source(src, &t, &k, &o, 0, stderr, e);
	}
	bt_progress_end(&prog);
	ksyms_free(&t);
	if (ret > 0)	/* the findings said it all */
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "%s", "");
	return ret;
}

int cmd_kernel_oneshot(const struct arm_opts *o, const struct cmd_kernel *ck,
		       const struct board *b, const struct source *src,
		       int allow_drop, char **line, struct bt_error *e)
{
	const struct arm_loader *l = arm_loader_find(o->loader);
	struct route_opts ro = { 0 };
	char *base = NULL;
	int ret;

	if (arm_base(o, &base, e))	/* says what an unknown loader is */
		return -1;
	if (bt_verbose())
		bt_say(NULL, BT_SAY_PLAIN, "merging into the %s line: %s", o->loader, base);
	ro.allow_drop = allow_drop;
	ro.verbose = bt_verbose();
	ret = compile_line(src, &ck->k, b, emit_find(l->form), &ro, base, line, e);
	free(base);
	return ret;
}

void cmd_kernel_free(struct cmd_kernel *ck)
{
	kimg_params_free(&ck->params);
	kimg_free(&ck->img);
}
