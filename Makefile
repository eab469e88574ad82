# verdicts: `make demo` to see it, `make test` to prove it, `make bench` to measure it;
# `make release` builds the one file to put on a device, `make install` / `make uninstall`
# (PREFIX, DESTDIR) put it and its man page and completions in place, `make package` makes a .deb and a .tar.gz.
SWIFT ?= swift
APT_PACKAGES = pkg-config libsqlite3-dev libncursesw5-dev libcurl4-openssl-dev tmux time zsh fish groff-base man-db \
  binutils dpkg-dev debootstrap libstdc++-12-dev faketime libfaketime prometheus \
  openssh-server openssh-client

.PHONY: deps build release startup-order asan tsan fuzz fuzz-build fuzz-smoke install uninstall package demo test lint unit e2e bench soak clean

## deps: install the system packages the build and the tests need, when they are missing: the C
## libraries' headers, tmux and time (the end-to-end tests), zsh, fish, groff and man (the completions'
## and the man page's tests), strip, dpkg-shlibdeps and debootstrap (the package's tests), faketime
## and libfaketime (the archive's tests under a wrong clock, the arguments read under an LD_PRELOAD library),
## promtool (from prometheus: `metrics` through `promtool check metrics`, docs/monitoring.md's rules through
## `promtool check rules`), sshd and ssh (openssh-server, openssh-client: remote stores and `fleet`
## through a real sshd on a loopback port).
deps:
	@missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev"; \
	pkg-config --exists ncursesw 2>/dev/null || missing="$$missing libncursesw5-dev"; \
	pkg-config --exists libcurl 2>/dev/null || missing="$$missing libcurl4-openssl-dev"; \
	command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	command -v zsh >/dev/null 2>&1 || missing="$$missing zsh"; \
	command -v fish >/dev/null 2>&1 || missing="$$missing fish"; \
	command -v groff >/dev/null 2>&1 || missing="$$missing groff-base"; \
	command -v man >/dev/null 2>&1 || missing="$$missing man-db"; \
	command -v strip >/dev/null 2>&1 || missing="$$missing binutils"; \
	command -v dpkg-shlibdeps >/dev/null 2>&1 || missing="$$missing dpkg-dev"; \
	command -v debootstrap >/dev/null 2>&1 || missing="$$missing debootstrap"; \
	command -v faketime >/dev/null 2>&1 || missing="$$missing faketime"; \
	ls /usr/lib/*/faketime/libfaketime.so.1 >/dev/null 2>&1 || missing="$$missing libfaketime"; \
	command -v ssh >/dev/null 2>&1 || missing="$$missing openssh-client"; \
	[ -x /usr/sbin/sshd ] || missing="$$missing openssh-server"; \
	command -v promtool >/dev/null 2>&1 || missing="$$missing prometheus"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

## release: the one file to put on a device: the Swift runtime linked in (-static-stdlib), no
## Foundation beyond FoundationEssentials (no ICU), libcurl opened only when an instance is
## spoken to, stripped; its GNU build-id is the commit it was built from (BuildStamp.swift).
## libstdc++ linked in too. At run time it needs only Debian's libc6, libgcc-s1, libsqlite3-0, libncursesw6 (libtinfo6),
## and libcurl4 to speak to an instance (packaging/control.in).
RELEASE_DIR = .build/dist
COMMIT = $(shell git rev-parse HEAD 2>/dev/null || echo 0000000000000000000000000000000000000000)
DIRTY = $(shell git diff --quiet HEAD 2>/dev/null && echo 00 || echo 01)
## Linked by lld with every function in its own section, in the order packaging/startup-order.txt
## gives (the functions a start runs, first): a start maps fewer pages of the binary
## (docs/performance.md, "The device binary"); `make startup-order` writes that list again.
STARTUP_ORDER = packaging/startup-order.txt
## libstdc++ linked in as well: a folder that holds only its static archive comes first in the
## library search, so the driver's own -lstdc++ finds the archive (the C++ runtime the Swift runtime
## needs, GCC's runtime library exception) and libstdc++.so is not loaded at all: its loading and
## relocation were ~0.9 MB of --version's 10.7 MB (docs/performance.md, "The device binary").
STATIC_CXX_DIR = $(CURDIR)/.build/static-cxx
RELEASE_FLAGS = -c release -Xswiftc -static-stdlib -Xswiftc -L$(STATIC_CXX_DIR) \
  -Xswiftc -Xfrontend -Xswiftc -function-sections \
  -Xswiftc -use-ld=lld -Xlinker --symbol-ordering-file=$(CURDIR)/$(STARTUP_ORDER) \
  -Xlinker --no-warn-symbol-ordering -Xlinker --build-id=0x$(COMMIT)$(DIRTY)56
release: deps $(STATIC_CXX_DIR)/libstdc++.a
	@# SwiftPM does not know the order file is an input of the link: a newer list relinks.
	@[ ! $(STARTUP_ORDER) -nt .build/release/verdicts ] || rm -f .build/release/verdicts
	$(SWIFT) build --product verdicts $(RELEASE_FLAGS)
	mkdir -p $(RELEASE_DIR)
	strip --strip-all -o $(RELEASE_DIR)/verdicts .build/release/verdicts
	@ls -l $(RELEASE_DIR)/verdicts

$(STATIC_CXX_DIR)/libstdc++.a:
	@a=$$($(dir $(shell readlink -f $$(command -v $(SWIFT))))clang -print-file-name=libstdc++.a); \
	  [ -f "$$a" ] || { echo "no static libstdc++ ($$a): apt-get install libstdc++-12-dev" >&2; exit 1; }; \
	  mkdir -p $(STATIC_CXX_DIR) && ln -sf "$$a" $@

## startup-order: packaging/startup-order.txt from callgrind runs of the unstripped release binary
## (needs valgrind; the list is checked in, so neither CI nor `make release` needs it).
startup-order: release
	packaging/startup-order.sh .build/release/verdicts
	$(MAKE) release

## install: the release binary and what goes with it, under $(DESTDIR)$(PREFIX) (PREFIX=/usr/local,
## DESTDIR empty by default): bin/verdicts; the man page docs/verdicts.1, gzip'd (share/man/man1); the
## bash, zsh and fish completions, written by the binary itself (`verdicts completion SHELL`). It
## installs .build/dist/verdicts as it is, and builds it (`make release`) only when it is missing: run
## `make release` again after changing the sources, and before a `sudo make install`, so the build is
## never root's. Folders are made only where missing (an existing one keeps its mode).
PREFIX ?= /usr/local
DESTDIR ?=
DIST_BIN = $(RELEASE_DIR)/verdicts
MANPAGE = docs/verdicts.1
COMPLETE = $(DIST_BIN) completion
# What install puts under $(DESTDIR)$(PREFIX): one list, which uninstall removes file by file and
# `make package` ships (the .deb and the tarball hold exactly these).
BIN_FILE = bin/verdicts
MAN_FILE = share/man/man1/verdicts.1.gz
BASH_FILE = share/bash-completion/completions/verdicts
ZSH_FILE = share/zsh/site-functions/_verdicts
FISH_FILE = share/fish/vendor_completions.d/verdicts.fish
INSTALL_FILES = $(BIN_FILE) $(MAN_FILE) $(BASH_FILE) $(ZSH_FILE) $(FISH_FILE)
# Every folder on the way to those files below PREFIX, parents first (share, share/man, …).
INSTALL_DIRS = $(shell for f in $(INSTALL_FILES); do d=$$(dirname $$f); \
  while [ "$$d" != . ]; do echo $$d; d=$$(dirname $$d); done; done | sort -u)
ROOT = $(DESTDIR)$(PREFIX)
# One completion: written beside its place, then moved there, so a failing `completion` leaves nothing.
install_completion = echo "$(COMPLETE) $(1) >'$(ROOT)/$(2)'"; $(COMPLETE) $(1) >'$(ROOT)/$(2).tmp' && [ -s '$(ROOT)/$(2).tmp' ] && \
  chmod 644 '$(ROOT)/$(2).tmp' && mv -f '$(ROOT)/$(2).tmp' '$(ROOT)/$(2)' || \
  { rm -f '$(ROOT)/$(2).tmp'; echo "install: \`verdicts completion $(1)\` gave no script"; exit 1; }

$(DIST_BIN):
	$(MAKE) release

install: $(DIST_BIN)
	@[ -f $(MANPAGE) ] || { echo "install: $(MANPAGE) (the man page) is missing"; exit 1; }
	@set -e; for d in $(INSTALL_DIRS); do \
	  [ -d '$(ROOT)'/$$d ] || { echo "install -d -m 755 '$(ROOT)/$$d'"; install -d -m 755 '$(ROOT)'/$$d; }; done
	install -m 755 $(DIST_BIN) '$(ROOT)/$(BIN_FILE)'
	@echo "gzip -9n <$(MANPAGE) >'$(ROOT)/$(MAN_FILE)'"; gzip -9nc $(MANPAGE) >'$(ROOT)/$(MAN_FILE)' && chmod 644 '$(ROOT)/$(MAN_FILE)'
	@$(call install_completion,bash,$(BASH_FILE))
	@$(call install_completion,zsh,$(ZSH_FILE))
	@$(call install_completion,fish,$(FISH_FILE))

## uninstall: removes the files of INSTALL_FILES from $(DESTDIR)$(PREFIX) (same PREFIX and DESTDIR as the
## install), then each folder on their way that is left empty, deepest first; a folder holding anything
## else stays. Into a live system (no DESTDIR) the prefix's own folders (PREFIX, bin, share, share/man)
## are kept even when empty: the system made them, not install. Under a DESTDIR, install made the
## whole tree, so every empty folder of it goes, up to $(DESTDIR) itself (which stays).
KEPT_DIRS = $(if $(DESTDIR),,bin share share/man)
# Under a DESTDIR, PREFIX's own folders too (/usr/local, then /usr), deepest first.
PREFIX_DIRS = $(shell d='$(PREFIX)'; while [ "$$d" != / ] && [ "$$d" != . ] && [ -n "$$d" ]; do echo $$d; d=$$(dirname $$d); done)
uninstall:
	@set -e; for f in $(INSTALL_FILES); do \
	  if [ -e '$(ROOT)'/$$f ] || [ -L '$(ROOT)'/$$f ]; then echo "rm '$(ROOT)/$$f'"; rm -f '$(ROOT)'/$$f; fi; done
	@set -e; for d in $$(printf '%s\n' $(INSTALL_DIRS) | sort -r) $(if $(DESTDIR),$(PREFIX_DIRS)); do \
	  case " $(KEPT_DIRS) " in *" $$d "*) continue;; esac; \
	  case $$d in /*) p='$(DESTDIR)'$$d;; *) p='$(ROOT)'/$$d;; esac; \
	  [ -d "$$p" ] && rmdir "$$p" 2>/dev/null && echo "rmdir '$$p'" || true; done

## package: .build/dist/verdicts_<version>_<arch>.deb and verdicts_<version>_<arch>.tar.gz, both the files
## of `make install DESTDIR=<stage> PREFIX=/usr`: the .deb with DEBIAN/control from packaging/control.in
## (its Depends and why), the tarball under verdicts-<version>/ with an INSTALL saying what the machine
## needs. The version is the one `verdicts --version` prints, the arch `dpkg --print-architecture`'s.
package: $(DIST_BIN)
	MAKE='$(MAKE)' RELEASE_DIR='$(RELEASE_DIR)' bash packaging/package.sh

demo: build
	$(SWIFT) run verdicts demo

TEST_TARGETS = MarfaWireTests DigestTests MarfaQueueTests ScriptedInstanceTests VerdictsUITests VerdictsCommandTests

## Suites that keep both cores busy for a while (a 20,000-write drain, 600 processes started in
## rounds, fifty ssh links at once): run after the others, alone,
## so the timing tests of their target are not starved by them. StatementJournalTests runs alone for
## another reason: it measures SQLite's process-wide configuration, which holds only when the engine
## opens the process's first database (a test helper that opens one directly, first, leaves the defaults).
HEAVY_SUITES = MassRefusalTests ReadersBesideADrainBinaryTests FleetScaleTests StatementJournalTests
empty :=
space := $(empty) $(empty)
HEAVY_PATTERN = $(subst $(space),|,$(HEAVY_SUITES))

## unit: each test target on its own, so one target's process-spawning tests don't starve another's
## timing; then the heavy suites alone.
unit: deps
	$(SWIFT) build --build-tests
	@set -e; for t in $(TEST_TARGETS); do echo "== $$t"; \
	  timeout 1200 $(SWIFT) test --skip-build --filter "^$$t\\." --skip "$(HEAVY_PATTERN)" ; done
	@set -e; for s in $(HEAVY_SUITES); do echo "== $$s (alone)"; timeout 1200 $(SWIFT) test --skip-build --filter "$$s" ; done

e2e: build
	bash Tests/EndToEnd/run.sh

## lint: the house style (.swift-format; Sources/MarfaQueue/.swift-format adds that every public
## declaration of the engine has a doc comment), checked by the toolchain's formatter; `swift format -i -r Sources Tests Package.swift` applies it.
## It also keeps the house's map: no folder under Sources holds more than 30 .swift files (role
## folders, docs/architecture.md "Map"), and no comment cites a design section or an issue number
## (name the doc in docs/, or say the rule).
lint:
	$(SWIFT) format lint --strict -r Sources Tests Package.swift Fuzz/Sources Fuzz/Package.swift
	@over=$$(find Sources -type d | while read -r d; do n=$$(find "$$d" -maxdepth 1 -name '*.swift' | wc -l); \
	  [ "$$n" -gt 30 ] && echo "$$d ($$n files)"; done); \
	  if [ -n "$$over" ]; then echo "lint: folders over 30 .swift files (give them role folders): $$over"; exit 1; fi
	@if grep -rnE 'DESIGN [0-9]|DESIGN\.md|[Ii]ssues? #?[0-9]+' Sources Tests --include='*.swift'; then \
	  echo "lint: the lines above cite a design section or an issue number: name the doc in docs/ or say the rule"; exit 1; fi

test: lint unit e2e fuzz-smoke

## asan / tsan: the unit targets built with AddressSanitizer / ThreadSanitizer (in .build/asan,
## .build/tsan, so the normal build is left alone), each target on its own as `make unit` runs them;
## the binaries the tests spawn are the sanitized ones beside the test bundle. Leak checking is off
## (the Swift runtime's caches read as leaks at exit). docs/reliability.md says what each found.
SANITIZE_TARGETS ?= $(TEST_TARGETS)
asan tsan: deps
	$(SWIFT) build --build-tests --sanitize=$(if $(filter asan,$@),address,thread) --scratch-path .build/$@
	@set -e; for t in $(SANITIZE_TARGETS); do echo "== $@ $$t"; \
	  VERDICTS_SANITIZER=$@ ASAN_OPTIONS=detect_leaks=0 TSAN_OPTIONS=halt_on_error=0 timeout 2400 $(SWIFT) test --skip-build \
	  --sanitize=$(if $(filter asan,$@),address,thread) --scratch-path .build/$@ --filter "^$$t\\." ; done

## fuzz: every fuzz target (Fuzz/Package.swift: libFuzzer, AddressSanitizer) for FUZZ_SECONDS each
## (default 60), from its seed corpus (Fuzz/corpus/TARGET, checked in) into a working corpus under
## .build/fuzz-corpus; prints each target's executions and coverage. A crash leaves its input in
## .build/fuzz-crashes and fails. fuzz-smoke: each target on its seeds and for FUZZ_SMOKE_SECONDS (3).
FUZZ_TARGETS = json sanitizer answer events filter theme keys uiconfig arguments scenario resolver corestore
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 3
fuzz-build: deps
	@# SwiftPM plans a path dependency's files once: when the project's files are not the ones
	@# the last fuzz build saw (one added or removed), that build is thrown away and made again.
	@list=$$(find Sources -name '*.swift' | sort | md5sum); \
	  [ "$$list" = "$$(cat Fuzz/.build/sources.md5 2>/dev/null)" ] || rm -rf Fuzz/.build
	@# Swift's own fuzzer coverage is trace-pc-guard, which libFuzzer no longer reads: without the
	@# inline 8-bit counters it runs blind ("Is the code instrumented for coverage?").
	@# Optimized (with -enable-testing, so `@testable import` still reaches internal readers):
	@# unoptimized Swift under AddressSanitizer ran the sanitizer target at 250 inputs a second.
	cd Fuzz && $(SWIFT) build -c release -Xswiftc -enable-testing --sanitize=fuzzer --sanitize=address \
	  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
	@find Sources -name '*.swift' | sort | md5sum >Fuzz/.build/sources.md5
fuzz: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do Fuzz/run.sh $$t $(FUZZ_SECONDS); done
fuzz-smoke: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do Fuzz/run.sh $$t $(FUZZ_SMOKE_SECONDS); done

## bench: the built binary in a real pty, on generated and drained stores (docs/performance.md); stores are
## kept under --dir and reused. `make bench BENCH_ARGS="--quick"` runs it all at small sizes in a few minutes.
## It measures the device binary (`make release`, .build/dist/verdicts; VERDICTS_BENCH_BINARY names
## another) and is built with the same flags, so the two builds share one .build/release.
## The drain's CPU row counts instructions under valgrind's callgrind, which it installs when missing;
## a run valgrind cannot count makes that row say why and count as missed, never the others.
## The remote section reaches a store through a real sshd on a loopback port (openssh-server and
## -client, installed when missing); without sshd its rows say so and count as missed.
BENCH_ARGS ?=
bench: release
	@command -v valgrind >/dev/null 2>&1 || { echo "installing: valgrind"; SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq valgrind; }
	@{ [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null 2>&1; } || { echo "installing: openssh-server openssh-client"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq openssh-server openssh-client; }
	$(SWIFT) build --product verdicts-bench $(RELEASE_FLAGS)
	VERDICTS_BENCH_BINARY=$${VERDICTS_BENCH_BINARY:-$(CURDIR)/$(DIST_BIN)} .build/release/verdicts-bench $(BENCH_ARGS)

## soak: the long forms of the reliability suite (docs/reliability.md), then the end-to-end checks.
soak: build
	$(SWIFT) build --build-tests
	SOAK=1 $(SWIFT) test --skip-build --filter "HostileAnswerTests|CrashSafetyTests|HostileServerTests|HostileServerBinaryTests|DroppedConnectionTests|DiskFaultBinaryTests|GroupFailureTests|InputBytesBinaryTests|SecretsTests|KeptAnswerTests"
	SOAK=1 bash Tests/EndToEnd/run.sh

clean:
	rm -rf .build
