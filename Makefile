# Two commands do the whole set-up on a fresh Debian 12 machine:
#   make run    install missing packages, build Release in build/, check cases/
#   make test   same set-up, then the whole Catch2 suite through ctest and a
#               bounded libFuzzer run of the case parser and input decoder
# Also: make sanitize (the suite under ASan+UBSan), make tables, make fuzz.
BUILD ?= build
JOBS ?= 2
FUZZ_BUILD ?= build-fuzz
SANITIZE_BUILD ?= build-sanitize
FUZZ_SECONDS ?= 30

.PHONY: run test deps configure build clean tables fuzz sanitize

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: configure
	cmake --build $(BUILD) -j$(JOBS)

run: build
	rm -rf $(BUILD)/certificates
	$(BUILD)/lgcheck check cases/ --certificates $(BUILD)/certificates
	$(BUILD)/lgcheck replay $(BUILD)/certificates | tail -n 1

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)
	$(MAKE) --no-print-directory fuzz

# libFuzzer (clang): each target runs FUZZ_SECONDS on the committed corpus;
# new inputs go to a scratch directory, the corpus stays as committed.
fuzz: deps
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
	  -DLGCHECK_FUZZ=ON -DLGCHECK_BUILD_TESTS=OFF
	cmake --build $(FUZZ_BUILD) -j$(JOBS) --target case_parser_fuzzer input_decoder_fuzzer
	for t in case_parser input_decoder; do \
	  rm -rf $(FUZZ_BUILD)/new-$$t && mkdir -p $(FUZZ_BUILD)/new-$$t && \
	  $(FUZZ_BUILD)/fuzz/$${t}_fuzzer -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
	    $(FUZZ_BUILD)/new-$$t fuzz/corpus/$$t || exit 1; \
	done

# The whole test suite built with AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize: deps
	cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLGCHECK_SANITIZE=ON
	cmake --build $(SANITIZE_BUILD) -j$(JOBS)
	cd $(SANITIZE_BUILD) && ctest --output-on-failure -j$(JOBS)

# Regenerate the tables in docs/tables/ from the bundled cases.
tables: build
	$(BUILD)/lgcheck table t41 --format md --out docs/tables/t41.md
	$(BUILD)/lgcheck table t41 --format json --out docs/tables/t41.json
	$(BUILD)/lgcheck table sim_lengths --format md --out docs/tables/sim_lengths.md
	$(BUILD)/lgcheck table sim_lengths --format json --out docs/tables/sim_lengths.json
	$(BUILD)/lgcheck table t52 --format md --out docs/tables/t52.md
	$(BUILD)/lgcheck table t52 --format json --out docs/tables/t52.json

clean:
	rm -rf $(BUILD)
