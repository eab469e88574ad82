# verdicts: `make demo` to see it, `make test` to prove it, `make bench` to measure it.
SWIFT ?= swift
APT_PACKAGES = pkg-config libsqlite3-dev libncursesw5-dev libcurl4-openssl-dev tmux time

.PHONY: deps build release demo test lint unit e2e bench soak clean

## deps: install the system packages the build and the tests need, when they are missing.
deps:
	@missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev"; \
	pkg-config --exists ncursesw 2>/dev/null || missing="$$missing libncursesw5-dev"; \
	pkg-config --exists libcurl 2>/dev/null || missing="$$missing libcurl4-openssl-dev"; \
	command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
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
## At run time it needs only glibc and Debian's libsqlite3-0, libncursesw6 (libtinfo6), libcurl4.
RELEASE_DIR = .build/dist
COMMIT = $(shell git rev-parse HEAD 2>/dev/null || echo 0000000000000000000000000000000000000000)
DIRTY = $(shell git diff --quiet HEAD 2>/dev/null && echo 00 || echo 01)
release: deps
	$(SWIFT) build -c release --product verdicts -Xswiftc -static-stdlib \
	  -Xlinker --build-id=0x$(COMMIT)$(DIRTY)56
	mkdir -p $(RELEASE_DIR)
	strip --strip-all -o $(RELEASE_DIR)/verdicts .build/release/verdicts
	@ls -l $(RELEASE_DIR)/verdicts

demo: build
	$(SWIFT) run verdicts demo

TEST_TARGETS = MarfaWireTests DigestTests MarfaQueueTests ScriptedInstanceTests VerdictsUITests VerdictsCommandTests

## unit: each test target on its own, so one target's process-spawning tests don't starve another's timing.
unit: deps
	$(SWIFT) build --build-tests
	@set -e; for t in $(TEST_TARGETS); do echo "== $$t"; timeout 1200 $(SWIFT) test --skip-build --filter "^$$t\\." ; done

e2e: build
	bash Tests/EndToEnd/run.sh

## lint: the house style (.swift-format), checked by the toolchain's formatter; `swift format -i -r Sources Tests Package.swift` applies it.
lint:
	$(SWIFT) format lint --strict -r Sources Tests Package.swift

test: lint unit e2e

## bench: the built binary in a real pty, on generated and drained stores (docs/performance.md); stores are
## kept under --dir and reused. `make bench BENCH_ARGS="--quick"` runs it all at small sizes in a few minutes.
BENCH_ARGS ?=
bench: deps
	$(SWIFT) build -c release --product verdicts
	$(SWIFT) run -c release verdicts-bench $(BENCH_ARGS)

## soak: the long forms of the reliability suite (docs/reliability.md), then the end-to-end checks.
soak: build
	$(SWIFT) build --build-tests
	SOAK=1 $(SWIFT) test --skip-build --filter "HostileAnswerTests|CrashSafetyTests|HostileServerTests|HostileServerBinaryTests|DroppedConnectionTests|ReportsMustBeTrueTests|GroupFailureTests|InputAsGivenTests|SecretsTests|KeptAnswerTests"
	SOAK=1 bash Tests/EndToEnd/run.sh

clean:
	rm -rf .build
