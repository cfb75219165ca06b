# Two commands do the whole set-up on a fresh Debian 12 machine:
#   make run    install missing packages, build Release in build/, check cases/
#   make test   same set-up, then the whole Catch2 suite through ctest and a
#               bounded libFuzzer run of the case parser, the input decoder,
#               the kernel's certificate check, the shard merge and random
#               command lines
# Also: make sanitize (the suite under ASan+UBSan, in the fuzzers' clang build),
# make tables, make fuzz,
# make bench (Google Benchmark ratios, docs/performance.md).
BUILD ?= build
JOBS ?= 2
SANITIZE_BUILD ?= build-sanitize
BENCH_BUILD ?= build-bench
FUZZ_SECONDS ?= 30

.PHONY: run test deps configure build clean tables fuzz sanitize bench

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: configure
	cmake --build $(BUILD) -j$(JOBS)

run: build
	rm -rf $(BUILD)/certificates
	$(BUILD)/lgcheck check cases/ --certificates $(BUILD)/certificates
	$(BUILD)/lgcheck replay --quiet $(BUILD)/certificates

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)
	$(MAKE) --no-print-directory fuzz

# One clang build serves the fuzzers and the sanitized suite: AddressSanitizer
# and UndefinedBehaviorSanitizer in every object, libFuzzer's coverage
# instrumentation too (-g1: line tables for the reports' stack traces, without
# the full debug information that would double the build time).
SANITIZE_CONFIG = -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DLGCHECK_SANITIZE=ON -DLGCHECK_FUZZ=ON "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
FUZZ_TARGETS = case_parser input_decoder certificate shard_merge command_line

# libFuzzer: each target runs FUZZ_SECONDS on the committed corpus; new
# inputs, and any crash or slow unit, go to a scratch directory in
# $(SANITIZE_BUILD); the corpus and the working tree stay as committed.
fuzz: deps
	cmake -S . -B $(SANITIZE_BUILD) $(SANITIZE_CONFIG)
	cmake --build $(SANITIZE_BUILD) -j$(JOBS) --target $(addsuffix _fuzzer,$(FUZZ_TARGETS))
	for t in $(FUZZ_TARGETS); do \
	  rm -rf $(SANITIZE_BUILD)/new-$$t && mkdir -p $(SANITIZE_BUILD)/new-$$t && \
	  $(SANITIZE_BUILD)/fuzz/$${t}_fuzzer -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=60 -rss_limit_mb=4096 -close_fd_mask=1 \
	    -artifact_prefix=$(SANITIZE_BUILD)/new-$$t/ \
	    -print_final_stats=1 $(SANITIZE_BUILD)/new-$$t fuzz/corpus/$$t || exit 1; \
	done

# The whole test suite in the same sanitizer build (after make test, which
# ran the fuzzers, only the test programs remain to be compiled).
# AddressSanitizer records no allocation stacks here (malloc_context_size=0):
# every error is still caught and reported with the stack of the bad access,
# but the suite, whose exact arithmetic allocates at nearly every operation,
# runs about a quarter faster. To see where a reported block was allocated
# and freed, re-run that one test with
# SANITIZE_ASAN_OPTIONS=malloc_context_size=30 (the sanitizer's default).
SANITIZE_ASAN_OPTIONS ?= malloc_context_size=0
sanitize: deps
	cmake -S . -B $(SANITIZE_BUILD) $(SANITIZE_CONFIG)
	cmake --build $(SANITIZE_BUILD) -j$(JOBS)
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=$(SANITIZE_ASAN_OPTIONS) ctest --output-on-failure -j$(JOBS)

# The benchmarks (bench/, Google Benchmark): each figure a ratio of two
# benchmarks measured in one run, printed with its target.
bench: deps
	cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release -DLGCHECK_BENCH=ON -DLGCHECK_BUILD_TESTS=OFF
	cmake --build $(BENCH_BUILD) -j$(JOBS) --target lgcheck_bench
	$(BENCH_BUILD)/bench/lgcheck_bench

# Regenerate the tables (every format) and plots in docs/tables/ from the
# bundled cases; a test checks the committed files are what this writes.
TABLES = t41 threshold margin t42 t52 scaling sim_lengths teeth
PLOTS = n_vs_omega n_vs_delta n_vs_k n_vs_farey n_vs_inverse_margin subsample distance
tables: build
	for t in $(TABLES); do for f in md csv tex json; do \
	  $(BUILD)/lgcheck table $$t --format $$f --out docs/tables/$$t.$$f || exit 1; done; done
	for p in $(PLOTS); do $(BUILD)/lgcheck plot $$p --out docs/tables/$$p.svg || exit 1; done

clean:
	rm -rf $(BUILD)
