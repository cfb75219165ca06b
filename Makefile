# Two commands do the whole set-up on a fresh Debian 12 machine:
#   make run    install missing packages, build Release in build/, check cases/
#   make test   same set-up, then the whole Catch2 suite through ctest
BUILD ?= build
JOBS ?= 2

.PHONY: run test deps configure build clean tables

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: configure
	cmake --build $(BUILD) -j$(JOBS)

run: build
	$(BUILD)/lgcheck check cases/

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# Regenerate the tables in docs/tables/ from the bundled cases.
tables: build
	$(BUILD)/lgcheck table t41 --format md --out docs/tables/t41.md
	$(BUILD)/lgcheck table t41 --format json --out docs/tables/t41.json

clean:
	rm -rf $(BUILD)
