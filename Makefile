# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace — build, test, fuzz and benchmark. See README.md.

# The one version (README.md, "Install"): --version, the JSON, the hook's meta, the
# man pages and debian/changelog all carry it; tests/cli/install.bats fails
# when one of them disagrees.
VERSION := $(shell cat VERSION)

# Install layout (README.md, "Install"). PREFIX holds the tool, its man pages,
# the board profiles (PREFIX/share/boottrace/boards) and the hook's core
# script (PREFIX/lib/boottrace); the dracut and initramfs-tools adapters and
# the collect service go where those tools look, which is outside PREFIX:
# they are installed by `make install` only with PREFIX=/usr or when their
# directory is given (DRACUT_MODULES_DIR=..., INITRAMFS_TOOLS_DIR=...,
# SYSTEMD_UNIT_DIR=..., SYSTEMD_GENERATOR_DIR=..., INITD_DIR=...), or by
# `make install-hook` and `make install-collect`.
PREFIX  ?= /usr/local
DESTDIR ?=
sysconfdir ?= /etc
BINDIR  := $(PREFIX)/bin
MANDIR  := $(PREFIX)/share/man
DATADIR := $(PREFIX)/share/boottrace
HOOKDIR := $(PREFIX)/lib/boottrace
ASKED_HOOK    := $(filter command line environment,$(origin DRACUT_MODULES_DIR) $(origin INITRAMFS_TOOLS_DIR))
ASKED_COLLECT := $(filter command line environment,$(origin SYSTEMD_UNIT_DIR) $(origin INITD_DIR) $(origin SYSTEMD_GENERATOR_DIR))
# dracut's and systemd's pkg-config files say where they look
DRACUT_MODULES_DIR ?= $(or $(shell pkg-config --variable=dracutmodulesdir dracut 2>/dev/null),/usr/lib/dracut/modules.d)
INITRAMFS_TOOLS_DIR ?= /usr/share/initramfs-tools
SYSTEMD_UNIT_DIR ?= $(or $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null),/lib/systemd/system)
INITD_DIR ?= $(sysconfdir)/init.d
SYSTEMD_GENERATOR_DIR ?= $(or $(shell pkg-config --variable=systemdsystemgeneratordir systemd 2>/dev/null),/lib/systemd/system-generators)
# bash-completion's pkg-config file says where completions go, under PREFIX
BASH_COMPLETION_DIR ?= $(or $(shell pkg-config --define-variable=prefix=$(PREFIX) --variable=completionsdir bash-completion 2>/dev/null),$(PREFIX)/share/bash-completion/completions)
INSTALL_HOOK    ?= $(if $(or $(filter /usr,$(PREFIX)),$(ASKED_HOOK)),1,0)
INSTALL_COLLECT ?= $(if $(or $(filter /usr,$(PREFIX)),$(ASKED_COLLECT)),1,0)

CC      ?= gcc
CLANG   ?= clang
B       := build
# Flags as a distribution builds (README.md, "Build flags"): CPPFLAGS, CFLAGS
# and LDFLAGS come from the environment or the command line (dpkg-buildflags
# sets them); CFLAGS defaults to -O2 -g. The hardening below is added to
# them; `make HARDEN_CFLAGS= HARDEN_LDFLAGS= FORTIFY=` builds without it.
CFLAGS  ?= -O2 -g
CPPFLAGS ?=
LDFLAGS ?=
# -Werror in a developer's build only: a git checkout (.git), `make check`
# and CI; a release tarball builds with warnings as warnings. WERROR=0 or
# WERROR=1 decides instead.
WERROR  ?= $(if $(wildcard .git),1,0)
WARN     = -Wall -Wextra $(if $(filter 1,$(WERROR) $(DEVELOPER)),-Werror)
# Stack-clash and (on x86, the only target that has it) control-flow
# protection as Debian's newer defaults add them; hardening-check looks for both.
CF_PROTECTION := $(if $(filter x86_64% i%86%,$(shell $(CC) -dumpmachine 2>/dev/null)),-fcf-protection)
HARDEN_CFLAGS  ?= -fstack-protector-strong -fstack-clash-protection $(CF_PROTECTION) -fPIE
HARDEN_LDFLAGS ?= -pie -Wl,-z,relro,-z,now
# _FORTIFY_SOURCE needs the optimizer (glibc warns without it) and is left to
# flags that already set it; never in the ASan/TSan/fuzz builds (own -O1 and
# interceptors).
OPT_LEVEL := $(lastword $(filter -O%,$(CFLAGS)))
FORTIFY ?= $(if $(findstring _FORTIFY_SOURCE,$(CPPFLAGS) $(CFLAGS)),,$(if $(filter-out -O0,$(OPT_LEVEL)),-D_FORTIFY_SOURCE=2))
BT_CFLAGS = -std=c11 $(WARN) -MMD -MP -D_GNU_SOURCE -DBT_VERSION='"$(VERSION)"' -DBT_BOARDS_DIR='"$(DATADIR)/boards"' -DBT_SYSCONF_BOARDS='"$(sysconfdir)/boottrace/boards"' -Iparser -Ibootcfg
# the plain build: what is installed, and what the unit tests and valgrind run
BT_BUILD_CFLAGS = $(FORTIFY) $(CPPFLAGS) $(BT_CFLAGS) $(HARDEN_CFLAGS) $(CFLAGS)
BT_BUILD_LDFLAGS = $(HARDEN_LDFLAGS) $(LDFLAGS)
# check_*.c: libelf (ELF), capstone (calls in vmlinux), xz/zstd/zlib (modules);
# kimg_unpack.c: the same and lz4 (kernel images, docs/kernel-image.md);
# report_feed.c: a thread for the counters; report_md5.c: libmd (console parts).
LIBS    := -lelf -lcapstone -llzma -lzstd -llz4 -lz -lmd -pthread
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# ThreadSanitizer, for the one part that runs a thread (report_feed.c).
TSAN    := -fsanitize=thread

# The libraries, lowest layer first (docs/architecture.md): a layer may use
# the ones before it, never one after; scripts/layers.sh checks the includes
# and the link order below makes an upward call fail to link.
LAYERS := util kernel plan kimage check initrd compile arm host try report/lex report/input report/analysis report/out record cmd
SRC_parser  := bconf_cmdline.c bconf_footer.c bconf_index.c bconf_parse.c bconf_print.c bconf_tree.c
SRC_util    := atomic.c bt_error.c grow.c json.c outfile.c progress.c readfile.c source.c textbuf.c utf8out.c
SRC_kernel  := ask.c board.c ftrace_keys.c kcaps.c params.c tracefs.c tracers.c words.c fetcharg.c
SRC_plan    := plan.c plan_check.c plan_kernel.c plan_lineage.c plan_util.c
SRC_kimage  := kgzip.c kcallers.c kcallers_graph.c kcallers_insn.c kcallers_ko.c ksyms_elf.c \
	kinitcall.c kmodules.c ksyms_sysmap.c ksyms_tab.c ksyms_kimg.c kimg_addr.c kimg_config.c kimg_events.c kimg_kallsyms.c kimg_mcount.c kimg_params.c kimg_unpack.c sysmap.c
SRC_check   := check_config.c check_events.c check_kconfig.c check_report.c check_run.c check_symbols.c
SRC_initrd  := initrd.c initrd_bconf.c initrd_kind.c
SRC_compile := compile.c decompile.c emit_bootconfig.c emit_bootoct.c emit_cmdline.c emit_common.c \
	emit_files.c emit_loaders.c emit_targets.c emit_uboot.c emit_uboot_image.c route_bconf.c \
	route_clock.c route_cmdline.c route_crash.c route_common.c whocalls.c whocalls_callers.c
# the report in its stages (docs/architecture.md, "How report flows"):
# trace text -> events -> counters; the inputs around the trace; the
# analysis after the pass; one printer per format
SRC_report/lex      := report_agg.c report_chain.c report_feed.c report_initcall.c report_lex.c \
	report_lineage.c report_parse.c report_proc.c report_stacks.c report_table.c report_timeline.c
SRC_report/input    := report_clean.c report_console.c report_dump.c report_dump_out.c report_input.c \
	report_md5.c report_prev.c report_pstore.c report_snap.c report_sym.c
SRC_report/analysis := report_answer.c report_frame.c report_phase.c report_pick.c report_quality.c \
	report_tree.c report_who.c report_window.c
# text, JSON, folded, and the pictures: HTML page, SVG flame graph,
# trace-event JSON, two boots (docs/report.md)
SRC_report/out      := report_diff.c report_folded.c report_html.c report_html_crash.c report_json.c \
	report_head.c report_perfetto.c report_put.c report_svg.c report_text.c
SRC_arm     := arm.c arm_grub.c arm_run.c arm_sdboot.c arm_state.c arm_uboot.c
SRC_host    := host_hook.c host_kernel.c host_loader.c
SRC_try     := try_plan.c try_run.c try_undo.c
SRC_record  := record_arm.c record_collect.c record_join.c record_pick.c record_tree.c
SRC_cmd     := cmd_arm.c cmd_ask.c cmd_boards.c cmd_bootconfig.c cmd_check.c cmd_collect.c cmd_compile.c cmd_decompile.c \
	cmd_kernel.c cmd_opt.c cmd_question.c cmd_usage.c cmd_report.c cmd_try.c

PARSER_SRC  := $(SRC_parser:%=parser/%)
# every library source of bootcfg/, in layer order
BOOTCFG_SRC := $(foreach l,$(LAYERS),$(SRC_$(l):%=bootcfg/$(l)/%))
UNIT_SRC    := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC    := $(sort $(wildcard tests/fuzz/fuzz_*.c))
# Linked highest layer first, so that a library only resolves names from
# the ones after it on the line.
# linked highest layer first: LAYERS reversed, so an upward call cannot resolve
reverse      = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
LIBS_A      := $(foreach l,$(call reverse,$(LAYERS)),$(B)/lib$(subst /,-,$(l)).a) $(B)/libbconf.a

UNIT_BIN     := $(UNIT_SRC:tests/unit/%.c=$(B)/unit/%)
UNIT_ASAN    := $(UNIT_SRC:tests/unit/%.c=$(B)/unit-asan/%)
FUZZ_BIN     := $(FUZZ_SRC:tests/fuzz/%.c=$(B)/fuzz/%)
FUZZ_SECONDS ?= 60

.SECONDARY:

.PHONY: all demo check test fuzz bench install uninstall clean deps unit unit-asan unit-tsan initramfs install-hook install-collect install-core dist package-check

all: $(B)/boottrace $(B)/bootconfig

deps:
	@sh scripts/deps.sh

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BT_BUILD_CFLAGS) -c -o $@ $<

$(B)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BT_CFLAGS) -O1 -g $(SAN) -c -o $@ $<

$(B)/tsan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BT_CFLAGS) -O1 -g $(TSAN) -c -o $@ $<

$(B)/libbconf.a: $(PARSER_SRC:%.c=$(B)/obj/%.o)
	@rm -f $@
	ar rcs $@ $^

# one static library per layer (report/lex: build/libreport-lex.a)
define layer_lib
$(B)/lib$(subst /,-,$(1)).a: $$(SRC_$(1):%.c=$(B)/obj/bootcfg/$(1)/%.o)
	@rm -f $$@
	ar rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call layer_lib,$(l))))

$(B)/boottrace: $(B)/obj/bootcfg/cmd/main.o $(LIBS_A)
	$(CC) $(HARDEN_CFLAGS) $(CFLAGS) $(BT_BUILD_LDFLAGS) -o $@ $^ $(LIBS)

$(B)/bootconfig: $(B)/boottrace
	ln -sf boottrace $@

# Unit tests: one cmocka binary per tests/unit/test_*.c, plain and ASan+UBSan.
$(B)/unit/%: tests/unit/%.c $(LIBS_A) tests/unit/unit.h
	@mkdir -p $(dir $@)
	@mkdir -p $(B)/dep/unit
	$(CC) $(BT_BUILD_CFLAGS) -MF $(B)/dep/unit/$*.d -Itests/unit $(BT_BUILD_LDFLAGS) -o $@ $< $(LIBS_A) -lcmocka $(LIBS)

$(B)/unit-asan/%: tests/unit/%.c $(PARSER_SRC:%.c=$(B)/asan/%.o) $(BOOTCFG_SRC:%.c=$(B)/asan/%.o) tests/unit/unit.h
	@mkdir -p $(dir $@)
	@mkdir -p $(B)/dep/unit-asan
	$(CC) $(BT_CFLAGS) -MF $(B)/dep/unit-asan/$*.d -O1 -g $(SAN) -Itests/unit -o $@ $< $(filter %.o,$^) -lcmocka $(LIBS)

# The report's unit test with TSan: its counting thread against its lexer.
# every library object, as for the ASan unit tests: a list of the report's
# own dependencies kept by hand here went stale whenever report/ used one more
TSAN_SRC := $(PARSER_SRC) $(BOOTCFG_SRC)
$(B)/unit-tsan/test_report_parse: tests/unit/test_report_parse.c $(TSAN_SRC:%.c=$(B)/tsan/%.o) tests/unit/unit.h
	@mkdir -p $(dir $@)
	@mkdir -p $(B)/dep/unit-tsan
	$(CC) $(BT_CFLAGS) -MF $(B)/dep/unit-tsan/test_report_parse.d -O1 -g $(TSAN) -Itests/unit -o $@ $< $(filter %.o,$^) -lcmocka $(LIBS)

# The program itself with ASan+UBSan, for the CLI tests.
$(B)/asan-bin/boottrace: $(B)/asan/bootcfg/cmd/main.o $(BOOTCFG_SRC:%.c=$(B)/asan/%.o) $(PARSER_SRC:%.c=$(B)/asan/%.o)
	@mkdir -p $(dir $@)
	$(CC) -g $(SAN) -o $@ $^ $(LIBS)
	ln -sf boottrace $(B)/asan-bin/bootconfig

unit: $(UNIT_BIN)
unit-asan: $(UNIT_ASAN)
unit-tsan: $(B)/unit-tsan/test_report_parse

# make check is a developer's build: warnings are errors
check: WERROR = 1
check: deps all unit unit-asan unit-tsan $(B)/asan-bin/boottrace
	@sh tests/run.sh

# make test: the offline suites only (units plain, ASan and TSan, valgrind,
# CLI plain and ASan, layers, hardening, the differential ones): no QEMU, no
# download; what the Debian package build runs. make check is all of them.
test: all unit unit-asan unit-tsan $(B)/asan-bin/boottrace
	@sh tests/run.sh --offline

# make package-check: the Debian packages (dpkg-buildpackage, lintian, a
# Debian 12 chroot install and purge) and the dist tarball (twice the same
# bytes; it builds and passes make test). Each builds the tree again, so
# they are apart from make check; CI runs both.
package-check: deps all
	@sh tests/run.sh --packages

# make demo: who creates bond0, the driver (busybox initramfs); make demo
# DEMO=script: a systemd service's script on a real Debian 12 root
DEMO ?= driver
demo: deps all
	@sh scripts/demo.sh $(if $(filter script,$(DEMO)),-s)

# libFuzzer targets link the sources directly, instrumented.
$(B)/fuzz/%: tests/fuzz/%.c $(PARSER_SRC) $(BOOTCFG_SRC) $(wildcard parser/*.h bootcfg/*/*.h bootcfg/*/*/*.h tests/fuzz/*.h)
	@mkdir -p $(dir $@)
	$(CLANG) -std=c11 -g -O1 -D_GNU_SOURCE -DBT_VERSION='"$(VERSION)"' \
		-Iparser -Ibootcfg -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ $< $(PARSER_SRC) $(BOOTCFG_SRC) $(LIBS)

fuzz: deps $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

bench: deps all
	@sh tests/bench/run.sh
	@sh tests/bench/hook.sh

# A busybox-static initramfs with the hook (rdinit=/sbin/boottrace-init),
# for tests and the demo; initramfs-hook/mkinitramfs.sh adds modules.
initramfs: $(B)/initramfs.cpio.gz
$(B)/initramfs.cpio.gz: initramfs-hook/mkinitramfs.sh initramfs-hook/boottrace-snapshot.sh initramfs-hook/boottrace-init
	sh initramfs-hook/mkinitramfs.sh -o $@

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(DATADIR)/boards $(DESTDIR)$(HOOKDIR) $(DESTDIR)$(BASH_COMPLETION_DIR)
	install -m 0644 board/*.bconf $(DESTDIR)$(DATADIR)/boards/
	install -m 0644 completion/boottrace $(DESTDIR)$(BASH_COMPLETION_DIR)/boottrace
	ln -sf boottrace $(DESTDIR)$(BASH_COMPLETION_DIR)/bootconfig
	install -m 0755 $(B)/boottrace $(DESTDIR)$(BINDIR)/boottrace
	ln -sf boottrace $(DESTDIR)$(BINDIR)/bootconfig
	install -m 0644 docs/man/boottrace.1 $(DESTDIR)$(MANDIR)/man1/boottrace.1
	ln -sf boottrace.1 $(DESTDIR)$(MANDIR)/man1/bootconfig.1
	install -m 0644 docs/man/boottrace-arm-boot.1 $(DESTDIR)$(MANDIR)/man1/boottrace-arm-boot.1
	ln -sf boottrace-arm-boot.1 $(DESTDIR)$(MANDIR)/man1/boottrace-disarm-boot.1
	install -m 0644 docs/man/boottrace.bconf.5 $(DESTDIR)$(MANDIR)/man5/boottrace.bconf.5
	$(MAKE) -s install-core
	$(if $(filter 1,$(INSTALL_HOOK)),$(MAKE) -s install-hook)
	$(if $(filter 1,$(INSTALL_COLLECT)),$(MAKE) -s install-collect)

# the hook's core script, carrying VERSION in its meta, and the busybox wrapper
install-core:
	install -d $(DESTDIR)$(HOOKDIR)
	sed 's/^BT_VERSION=.*/BT_VERSION=$(VERSION)/' initramfs-hook/boottrace-snapshot.sh \
		>$(DESTDIR)$(HOOKDIR)/boottrace-snapshot.sh
	chmod 0755 $(DESTDIR)$(HOOKDIR)/boottrace-snapshot.sh
	install -m 0755 initramfs-hook/boottrace-init $(DESTDIR)$(HOOKDIR)/

# boottrace collect at the end of the boot: the systemd unit and the init
# script, both running the boottrace installed above, and the generator that
# pulls the unit in on traced boots (docs/ask.md)
install-collect:
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR) $(DESTDIR)$(INITD_DIR) $(DESTDIR)$(SYSTEMD_GENERATOR_DIR)
	sed 's|/usr/local/bin/boottrace|$(BINDIR)/boottrace|' systemd/boottrace-collect.service \
		>$(DESTDIR)$(SYSTEMD_UNIT_DIR)/boottrace-collect.service
	chmod 0644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/boottrace-collect.service
	sed 's|^unit=/lib/systemd/system/|unit=$(SYSTEMD_UNIT_DIR)/|' systemd/boottrace-generator \
		>$(DESTDIR)$(SYSTEMD_GENERATOR_DIR)/boottrace-generator
	chmod 0755 $(DESTDIR)$(SYSTEMD_GENERATOR_DIR)/boottrace-generator
	sed 's|^BOOTTRACE=/usr/local/bin/boottrace$$|BOOTTRACE=$(BINDIR)/boottrace|' systemd/boottrace-collect.init \
		>$(DESTDIR)$(INITD_DIR)/boottrace-collect
	chmod 0755 $(DESTDIR)$(INITD_DIR)/boottrace-collect

# the dracut module and the initramfs-tools hook, both using the core script
# of install-core (the dracut module's copy is a link to it)
install-hook: install-core
	install -d $(DESTDIR)$(DRACUT_MODULES_DIR)/90boottrace $(DESTDIR)$(INITRAMFS_TOOLS_DIR)/hooks
	install -m 0755 initramfs-hook/dracut/90boottrace/*.sh $(DESTDIR)$(DRACUT_MODULES_DIR)/90boottrace/
	ln -sf $(HOOKDIR)/boottrace-snapshot.sh $(DESTDIR)$(DRACUT_MODULES_DIR)/90boottrace/boottrace-snapshot.sh
	sed 's|^BT_CORE=/usr/local/lib/boottrace/|BT_CORE=$(HOOKDIR)/|' initramfs-hook/initramfs-tools/hooks/boottrace \
		>$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/hooks/boottrace
	chmod 0755 $(DESTDIR)$(INITRAMFS_TOOLS_DIR)/hooks/boottrace
	for p in init-top init-premount init-bottom; do \
		install -d $(DESTDIR)$(INITRAMFS_TOOLS_DIR)/scripts/$$p && \
		install -m 0755 initramfs-hook/initramfs-tools/scripts/boottrace \
			$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/scripts/$$p/boottrace || exit 1; \
	done

# Removes what install wrote (whatever INSTALL_HOOK says: a file that is not
# there is no error) and, in a DESTDIR, the directories it leaves empty.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/boottrace $(DESTDIR)$(BINDIR)/bootconfig \
		$(DESTDIR)$(MANDIR)/man1/boottrace.1 $(DESTDIR)$(MANDIR)/man1/bootconfig.1 \
		$(DESTDIR)$(MANDIR)/man1/boottrace-arm-boot.1 $(DESTDIR)$(MANDIR)/man1/boottrace-disarm-boot.1 \
		$(DESTDIR)$(MANDIR)/man5/boottrace.bconf.5 \
		$(DESTDIR)$(BASH_COMPLETION_DIR)/boottrace $(DESTDIR)$(BASH_COMPLETION_DIR)/bootconfig
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(HOOKDIR) $(DESTDIR)$(DRACUT_MODULES_DIR)/90boottrace
	rm -f $(DESTDIR)$(SYSTEMD_UNIT_DIR)/boottrace-collect.service $(DESTDIR)$(INITD_DIR)/boottrace-collect \
		$(DESTDIR)$(SYSTEMD_GENERATOR_DIR)/boottrace-generator
	rm -f $(DESTDIR)$(INITRAMFS_TOOLS_DIR)/hooks/boottrace \
		$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/scripts/init-top/boottrace \
		$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/scripts/init-premount/boottrace \
		$(DESTDIR)$(INITRAMFS_TOOLS_DIR)/scripts/init-bottom/boottrace
	@if [ -n "$(DESTDIR)" ]; then \
		for d in $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man5 $(DATADIR) $(HOOKDIR) $(BASH_COMPLETION_DIR) \
			$(DRACUT_MODULES_DIR) $(SYSTEMD_UNIT_DIR) $(SYSTEMD_GENERATOR_DIR) $(INITD_DIR) \
			$(INITRAMFS_TOOLS_DIR)/hooks $(INITRAMFS_TOOLS_DIR)/scripts/init-top \
			$(INITRAMFS_TOOLS_DIR)/scripts/init-premount $(INITRAMFS_TOOLS_DIR)/scripts/init-bottom; do \
			d=$(DESTDIR)$$d; \
			while [ "$$d" != "$(DESTDIR)" ] && [ "$$d" != / ]; do \
				[ ! -d "$$d" ] || rmdir "$$d" 2>/dev/null || break; d=$$(dirname "$$d"); \
			done; \
		done; \
	fi

# make dist: DISTDIR/boottrace-VERSION.tar.gz of the files git tracks (as they are in
# the work tree), the same bytes every run: names sorted, owner root, every
# mtime the last commit's (SOURCE_DATE_EPOCH), gzip without name or time.
DIST := boottrace-$(VERSION)
DISTDIR ?= .
dist:
	@git rev-parse --git-dir >/dev/null 2>&1 || { echo "make dist: run it in a git checkout (it packs what git ls-files lists)" >&2; exit 1; }
	SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct)}; \
	git ls-files -z | LC_ALL=C sort -z | \
	LC_ALL=C tar --null --no-recursion -T - --transform 's|^|$(DIST)/|' --owner=0 --group=0 --numeric-owner \
		--mtime=@$$SOURCE_DATE_EPOCH --mode=u+rw,go=u,go-w --format=gnu -cf $(DISTDIR)/$(DIST).tar.tmp
	gzip -9n <$(DISTDIR)/$(DIST).tar.tmp >$(DISTDIR)/$(DIST).tar.gz.tmp
	rm -f $(DISTDIR)/$(DIST).tar.tmp
	mv $(DISTDIR)/$(DIST).tar.gz.tmp $(DISTDIR)/$(DIST).tar.gz
	@echo "$(DISTDIR)/$(DIST).tar.gz"

clean:
	rm -rf $(B)

# the header dependencies the compiler wrote (-MMD -MP)
-include $(shell find $(B)/obj $(B)/asan $(B)/tsan $(B)/dep -type f -name '*.d' 2>/dev/null)
