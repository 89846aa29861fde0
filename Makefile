# Thin front over Meson: the real build lives in meson.build.
BUILD ?= build
PREFIX ?= /usr/local
MESON_FLAGS ?=

.PHONY: all deps demo check asan install uninstall deb clean fuzz fuzz-long kernel-examples

all: $(BUILD)/build.ninja
	ninja -C $(BUILD)

$(BUILD)/build.ninja:
	meson setup $(BUILD) --prefix=$(PREFIX) $(MESON_FLAGS)

deps:
	scripts/install-deps.sh

# make demo: everything a new user needs, then the main job on a bundled example.
demo: deps all
	scripts/demo.sh $(BUILD)/tracekit

# make check: dependencies, build, and every test.
check: deps all
	meson test -C $(BUILD) --print-errorlogs

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer (not suite slow:
# the package test builds its own .deb, sanitizers change nothing there).
asan: deps
	[ -f build-asan/build.ninja ] || meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false
	ninja -C build-asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		meson test -C build-asan --print-errorlogs --no-suite slow

# make install [PREFIX=/usr] [DESTDIR=/tmp/stage]: binary, man pages, completion, headers.
install: all
	meson configure $(BUILD) -Dprefix=$(PREFIX)
	DESTDIR="$(DESTDIR)" meson install -C $(BUILD)

# Removes what the last make install put there (meson's install log).
uninstall:
	DESTDIR="$(DESTDIR)" ninja -C $(BUILD) uninstall

# make deb: tracekit_VERSION_amd64.deb (and -dev) in $(BUILD)/deb, checked by lintian.
deb:
	scripts/deb.sh $(BUILD)/deb

clean:
	rm -rf $(BUILD) build-asan build-fuzz

# Coverage-guided fuzzing with clang's libFuzzer: each target for FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
fuzz: deps
	[ -f build-fuzz/build.ninja ] || CC=clang CFLAGS=-fsanitize=fuzzer-no-link meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false -Dwerror=false
	ninja -C build-fuzz
	for t in decoders filter reader merge errorlog probe cexpr oops ust report-filter view-request net agent; do \
		mkdir -p tests/fuzz/corpus-$$t && \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp build-fuzz/tests/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) tests/fuzz/corpus-$$t tests/fuzz/corpus/$$t || exit 1; \
	done

# The lectures' kernel modules (examples/kernel), against the installed kernel headers.
kernel-examples:
	$(MAKE) -C examples/kernel

# Before a parser change is done: every target for minutes, not the replay of make check.
FUZZ_LONG_SECONDS ?= 300
fuzz-long:
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_LONG_SECONDS)
