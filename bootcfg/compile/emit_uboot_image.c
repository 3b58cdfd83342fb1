/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -t uboot-scr and -t uboot-envimage: the binary forms, built by U-Boot's
 * own tools (mkimage, mkenvimage from Debian's u-boot-tools) so that the
 * header, CRC and layout are whatever U-Boot itself expects. The tool
 * writes a temp file beside OUT, which is renamed into place only when
 * the tool succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compile/emit_uboot.h"
#include "util/atomic.h"

extern char **environ;

/* Board arch -> mkimage -A (U-Boot's boot/image.c arch table). */
static const struct {
	const char *arch, *mkimage;
} emit_uboot_arches[] = {
	{ "arm64", "arm64" },	{ "aarch64", "arm64" },
	{ "arm", "arm" },	{ "armhf", "arm" },	{ "armel", "arm" },
	{ "mips", "mips" },	{ "mipsel", "mips" },
	{ "mips64", "mips64" },	{ "mips64el", "mips64" },
	/* x86 U-Boot (32- or 64-bit) checks images against "x86". */
	{ "x86_64", "x86" },	{ "x86", "x86" },	{ "i386", "x86" },
	{ "i686", "x86" },	{ "amd64", "x86" },
	{ "riscv64", "riscv" },	{ "riscv32", "riscv" },	{ "riscv", "riscv" },
	{ "powerpc", "powerpc" }, { "ppc", "powerpc" },
	{ "ppc64", "powerpc" },	{ "ppc64el", "powerpc" },
	{ "s390x", "s390" },	{ "sparc", "sparc" },	{ "sparc64", "sparc64" },
	{ "m68k", "m68k" },	{ "sh", "sh" },		{ "xtensa", "xtensa" },
	{ "arc", "arc" },	{ "microblaze", "microblaze" },
};

const char *emit_uboot_mkimage_arch(const char *arch)
{
	size_t i;

	for (i = 0; i < sizeof(emit_uboot_arches) / sizeof(emit_uboot_arches[0]); i++)
		if (!strcmp(arch, emit_uboot_arches[i].arch))
			return emit_uboot_arches[i].mkimage;
	return NULL;
}

static int emit_uboot_need_out(const struct emit_in *in, const char *target,
			       struct bt_error *e)
{
	if (in->out && strcmp(in->out, "-"))
		return 0;
	return bt_error_set(e, BT_EXIT_USAGE, NULL,
			    "-t %s writes a binary image: give -o FILE", target);
}

/* The script text for the tool, in its temp file. */
static int emit_uboot_write(struct atomic *a, const char *text,
			    struct bt_error *e)
{
	FILE *f = atomic_stream(a, e);

	if (!f)
		return -1;
	if (fputs(text, f) < 0 || fflush(f))
		return atomic_fail(a, errno ? errno : EIO, "writing the temp file", e);
	return 0;
}

static int emit_uboot_missing(const char *tool, const char *package,
			      struct bt_error *e)
{
	return bt_error_set(e, BT_EXIT_ENV, NULL,
			    "%s not found in PATH: install the Debian package %s", tool, package);
}

/*
 * Run @argv[0] from PATH. Its report goes to stderr with -v and nowhere
 * otherwise: our stdout belongs to the caller's pipeline.
 */
static int emit_uboot_run(char *const argv[], const char *package,
			  int verbose, struct bt_error *e)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc, status;

	if (posix_spawn_file_actions_init(&fa))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (verbose)
		rc = posix_spawn_file_actions_adddup2(&fa, 2, 1);
	else
		rc = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
						      O_WRONLY, 0);
	if (!rc)
		rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc == ENOENT)
		return emit_uboot_missing(argv[0], package, e);
	if (rc)
		return bt_error_errno(e, rc, NULL, "cannot run %s", argv[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return bt_error_errno(e, errno, NULL, "waiting for %s",
					      argv[0]);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* Where the exec failure cannot be reported (valgrind), 127. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return emit_uboot_missing(argv[0], package, e);
	if (WIFEXITED(status))
		return bt_error_set(e, BT_EXIT_ENV, NULL,
				    "%s failed (exit %d); its message is above",
				    argv[0], WEXITSTATUS(status));
	return bt_error_set(e, BT_EXIT_ENV, NULL, "%s killed by signal %d",
			    argv[0], WTERMSIG(status));
}

/*
 * Write @text to a temp file, run @argv (whose input and output slots
 * name the temp files: argv[in_at], argv[out_at]) and put its output in
 * place of in->out (util/atomic.h). The input is a scratch file beside
 * the output, removed either way.
 */
static int emit_uboot_tool(const struct emit_in *in, const char *text,
			   char **argv, int in_at, int out_at,
			   const char *package, struct bt_error *e)
{
	struct atomic src, img;
	int ret = -1;

	if (atomic_begin(&src, in->out, e))
		return -1;
	if (atomic_begin(&img, in->out, e)) {
		atomic_abort(&src);
		return -1;
	}
	argv[in_at] = src.tmp;
	argv[out_at] = img.tmp;
	if (!emit_uboot_write(&src, text, e) &&
	    !emit_uboot_run(argv, package, in->verbose, e)) {
		/* the tool wrote it by name: commit reopens it */
		close(img.fd);
		img.fd = -1;
		ret = atomic_commit(&img, e);
	}
	atomic_abort(&img);
	atomic_abort(&src);
	return ret;
}

int emit_uboot_scr(const struct emit_in *in, struct bt_error *e)
{
	char *argv[] = { "mkimage", "-A", NULL, "-O", "linux", "-T", "script",
			 "-C", "none", "-n", "boottrace bootargs", "-d", NULL,
			 NULL, NULL };
	const char *arch;
	char *text;
	int ret;

	if (emit_uboot_need_out(in, "uboot-scr", e))
		return -1;
	arch = emit_uboot_mkimage_arch(in->board->arch);
	if (!arch)
		return bt_error_set(e, BT_EXIT_INPUT, in->board->path,
				    "board %s: mkimage has no architecture for arch %s; set board.arch to a U-Boot one (arm64, arm, mips, mips64, x86, riscv, ...)",
				    in->board->name, in->board->arch);
	argv[2] = (char *)arch;
	if (emit_uboot_script_text(in, &text, e))
		return -1;
	ret = emit_uboot_tool(in, text, argv, 12, 13, "u-boot-tools", e);
	free(text);
	return ret;
}

/*
 * The image holds [crc32][flag byte if redundant][name=value\0...]\0:
 * say the numbers before mkenvimage says only "too big".
 */
static int emit_uboot_env_fits(const struct board *b, size_t entry_len,
			       struct bt_error *e)
{
	size_t head = 4 + (b->env_redundant ? 1 : 0);
	size_t need = head + entry_len + 2;

	if (need <= b->env_size)
		return 0;
	return bt_error_set(e, BT_EXIT_INPUT, NULL,
			    "the environment image needs %zu bytes (%zu of header, %zu of bootargs entry, 2 NULs), but board %s has uboot.env.size %u", need, head, entry_len,
			    b->name, b->env_size);
}

int emit_uboot_envimage(const struct emit_in *in, struct bt_error *e)
{
	char size[32];
	char *argv[10], *value, *text;
	int n = 0, ret;

	if (emit_uboot_need_out(in, "uboot-envimage", e))
		return -1;
	if (in->keep_bootargs)
		return bt_error_set(e, BT_EXIT_USAGE, NULL,
				    "--keep-bootargs cannot be expressed in an environment image: it holds values, with no ${bootargs} expansion; use -t uboot-script or -t uboot-scr");
	if (!in->board->env_size)
		return bt_error_set(e, BT_EXIT_INPUT, in->board->path,
				    "board %s has no uboot.env.size: the image must be exactly U-Boot's CONFIG_ENV_SIZE; add it to the board profile",
				    in->board->name);
	if (emit_uboot_value(in, &value, e))
		return -1;
	/* No newline: mkenvimage takes a backslash before one as an escaped newline. */
	text = emit_uboot_env_entry(value);
	free(value);
	if (!text)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (emit_uboot_env_fits(in->board, strlen(text), e)) {
		free(text);
		return -1;
	}
	snprintf(size, sizeof(size), "0x%x", in->board->env_size);
	argv[n++] = "mkenvimage";
	argv[n++] = "-s";
	argv[n++] = size;
	if (in->board->env_redundant)
		argv[n++] = "-r";
	if (in->board->env_big_endian)
		argv[n++] = "-b";
	argv[n++] = "-o";
	argv[n++] = NULL;	/* the image */
	argv[n++] = NULL;	/* the text */
	argv[n] = NULL;
	ret = emit_uboot_tool(in, text, argv, n - 1, n - 2, "u-boot-tools", e);
	free(text);
	return ret;
}
