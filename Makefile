# Build and install cuffd's programs and service files.
#   make                      release build, then its checks (the order files, the libraries it loads)
#   make install              into $(DESTDIR)$(PREFIX) (PREFIX=/usr), configuration into $(DESTDIR)/etc
#   scripts/package           the Debian package, built by debian/rules through this file (docs/packaging.md)
#   make test                 the project's test command (scripts/test)
PREFIX ?= /usr
DESTDIR ?=
# Where systemd looks for units; debian/rules passes this Debian's (/lib/systemd/system on 12, /usr/lib/… on 13).
UNIT_DIR ?= $(PREFIX)/lib/systemd/system
SWIFT ?= swift
# libpq.a's companions in PostgreSQL's server development package (link/libpq.ld). Package.swift would ask pg_config
# itself, but SwiftPM keeps a manifest's answer until the manifest or the environment changes: this one is fresh.
export CUFFD_POSTGRESQL_LIBDIR = $(shell pg_config --pkglibdir 2>/dev/null)
# More flags for swift build, e.g. -j 1.
SWIFT_BUILD_FLAGS ?=
# A scratch path of its own: the manual plugin rebuilds .build/release with a dynamic stdlib.
SWIFT_BUILD = $(SWIFT) build -c release --static-swift-stdlib --scratch-path .build/static $(SWIFT_BUILD_FLAGS)
BIN_DIR = $(shell $(SWIFT) build -c release --scratch-path .build/static --show-bin-path)
MAN_DIR = .build/plugins/GenerateManual/outputs
PROGRAMS = cuffctl cuffd cuff-forward

.PHONY: all man completions install uninstall test clean

# One build per product: swift build honours only the last --product it is given. SwiftPM does not know that a
# program's order file is an input of its link, so a program older than its order file is deleted first, to be linked
# again. Then what the release link promises (Package.swift, smallResidentFootprint): each order file still matches
# its program, and no library taken from its archive is loaded as a shared object.
all:
	bin=$(BIN_DIR); for program in $(PROGRAMS); do \
	    order=Sources/$$program/$$program.order; \
	    if [ -e $$order ] && [ $$order -nt $$bin/$$program ]; then rm -f $$bin/$$program; fi; \
	    $(SWIFT_BUILD) --product $$program || exit 1; \
	done
	scripts/check-cuffd-order $(BIN_DIR)
	scripts/check-linked-libraries $(BIN_DIR)

man:
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --multi-page --section 1 --authors "cuffd project"

completions: all
	mkdir -p .build/completions
	# bash sources its completions: the generator's #! line means nothing there (lintian: bash-completion-with-hashbang).
	$(BIN_DIR)/cuffctl --generate-completion-script bash | sed '1{/^#!/d}' > .build/completions/cuffctl.bash
	$(BIN_DIR)/cuffctl --generate-completion-script zsh > .build/completions/_cuffctl
	$(BIN_DIR)/cuffctl --generate-completion-script fish > .build/completions/cuffctl.fish

install: all man completions
	install -D -m 0755 -s $(BIN_DIR)/cuffctl $(DESTDIR)$(PREFIX)/bin/cuffctl
	install -D -m 0755 -s $(BIN_DIR)/cuffd $(DESTDIR)$(PREFIX)/libexec/cuffd
	install -D -m 0644 systemd/cuffd.service $(DESTDIR)$(UNIT_DIR)/cuffd.service
	install -D -m 0644 systemd/cuffd.sysusers $(DESTDIR)$(PREFIX)/lib/sysusers.d/cuffd.conf
	install -D -m 0644 systemd/org.cuffd.Gateway1.conf $(DESTDIR)$(PREFIX)/share/dbus-1/system.d/org.cuffd.Gateway1.conf
	install -D -m 0644 systemd/cuffd.conf $(DESTDIR)/etc/cuffd/cuffd.conf
	# cuff-forward: its unit starts only once /etc/cuffd/forward.conf exists, so the template goes beside it.
	install -D -m 0755 -s $(BIN_DIR)/cuff-forward $(DESTDIR)$(PREFIX)/libexec/cuff-forward
	install -D -m 0644 systemd/cuff-forward.service $(DESTDIR)$(UNIT_DIR)/cuff-forward.service
	install -D -m 0644 systemd/cuff-forward.sysusers $(DESTDIR)$(PREFIX)/lib/sysusers.d/cuff-forward.conf
	install -D -m 0644 systemd/forward.conf $(DESTDIR)$(PREFIX)/share/doc/cuff-forward/forward.conf.example
	install -D -m 0644 docs/forwarding.md $(DESTDIR)$(PREFIX)/share/doc/cuff-forward/forwarding.md
	install -D -m 0644 docs/home-assistant.md $(DESTDIR)$(PREFIX)/share/doc/cuff-forward/home-assistant.md
	# cuffctl(1) and a page per subcommand, cuffctl-start(1) and so on (man/install-pages says how they are named);
	# cuffd is a system daemon: section 8 (the plugin writes section 1).
	man/install-pages 1 $(DESTDIR)$(PREFIX)/share/man/man1 $(MAN_DIR)/cuffctl/*.1
	man/install-pages 8 $(DESTDIR)$(PREFIX)/share/man/man8 $(MAN_DIR)/cuffd/cuffd.1 $(MAN_DIR)/cuff-forward/cuff-forward.1
	install -D -m 0644 man/cuffd.conf.5 $(DESTDIR)$(PREFIX)/share/man/man5/cuffd.conf.5
	install -D -m 0644 .build/completions/cuffctl.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/cuffctl
	install -D -m 0644 .build/completions/_cuffctl $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_cuffctl
	install -D -m 0644 .build/completions/cuffctl.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/cuffctl.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/cuffctl $(DESTDIR)$(PREFIX)/libexec/cuffd $(DESTDIR)$(UNIT_DIR)/cuffd.service \
	      $(DESTDIR)$(PREFIX)/libexec/cuff-forward $(DESTDIR)$(UNIT_DIR)/cuff-forward.service \
	      $(DESTDIR)$(PREFIX)/lib/sysusers.d/cuff-forward.conf $(DESTDIR)$(PREFIX)/share/doc/cuff-forward/forward.conf.example \
	      $(DESTDIR)$(PREFIX)/share/doc/cuff-forward/forwarding.md $(DESTDIR)$(PREFIX)/share/doc/cuff-forward/home-assistant.md \
	      $(DESTDIR)$(PREFIX)/lib/sysusers.d/cuffd.conf $(DESTDIR)$(PREFIX)/share/dbus-1/system.d/org.cuffd.Gateway1.conf \
	      $(DESTDIR)$(PREFIX)/share/man/man1/cuffctl*.1 $(DESTDIR)$(PREFIX)/share/man/man8/cuffd.8 \
	      $(DESTDIR)$(PREFIX)/share/man/man8/cuff-forward.8 \
	      $(DESTDIR)$(PREFIX)/share/man/man5/cuffd.conf.5 \
	      $(DESTDIR)$(PREFIX)/share/bash-completion/completions/cuffctl \
	      $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_cuffctl $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/cuffctl.fish

test:
	scripts/test

clean:
	rm -rf .build
