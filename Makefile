# Thin convenience wrapper around CMake. The real build is CMakeLists.txt.
#   make demo   install missing Debian packages (as root), build in Release, play a full game
#   make test   the same set-up, then every test through ctest
#   make bench  build the benchmarks in Release and print the summary table
#   make sanitize  the tests in Debug (-O1) under ASan + UBSan (heavy loops at WG_GAMES_PERCENT, default 3)
#   make soak   SOAK_GAMES random games across the rulesets (invariants, save/load continuation)
#   make fuzz   builds the libFuzzer targets with clang and runs each for FUZZ_SECONDS (FUZZ_TARGETS: some only)
#   make serve  the same set-up, then Perryville in the browser against the computer (SERVE_ARGS)
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
PACKAGES := libboost-graph-dev libboost-program-options-dev libyaml-cpp-dev libgtest-dev libbenchmark-dev pybind11-dev python3-dev python3-numpy python3-pytest libboost-dev nlohmann-json3-dev libssl-dev libsqlite3-dev libpq-dev postgresql-15 libedit-dev chromium universal-ctags
FUZZ_PACKAGES := clang-14 libclang-rt-14-dev
SANITIZE_GAMES_PERCENT ?= 3
SOAK_GAMES ?= 10000
FUZZ_SECONDS ?= 180
FUZZ_TARGETS ?=
DEMO_ARGS ?= play stars_and_bars --players ai,ai --seed 1 --svg $(BUILD_DIR)/demo.svg
SERVE_ARGS ?= serve stars_and_bars --players human,ai

.PHONY: all deps configure build demo serve test bench sanitize soak fuzz install clean

all: build

deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "Missing Debian packages. Run as root:"; \
	    echo "  apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

demo: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target wargame_cli
	$(BUILD_DIR)/examples/wargame/wargame $(DEMO_ARGS)

serve: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target wargame_cli
	$(BUILD_DIR)/examples/wargame/wargame $(SERVE_ARGS)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

bench: deps
	cmake -S . -B $(BUILD_DIR)-bench -DCMAKE_BUILD_TYPE=Release -DWG_BUILD_TESTS=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD_DIR)-bench -j $(JOBS) --target wg_benchmarks wargame_cli
	$(BUILD_DIR)-bench/benchmarks/run_benchmarks.sh $(BUILD_DIR)-bench

sanitize:
	WG_GAMES_PERCENT=$${WG_GAMES_PERCENT:-$(SANITIZE_GAMES_PERCENT)} $(MAKE) test BUILD_DIR=build-asan BUILD_TYPE=Debug \
	  CMAKE_FLAGS="-DWG_SANITIZE=ON -DWG_BUILD_BENCHMARKS=OFF $(CMAKE_FLAGS)"

soak: build
	$(BUILD_DIR)/fuzz/wg_soak --games $(SOAK_GAMES)

fuzz: PACKAGES += $(FUZZ_PACKAGES)
fuzz: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target wargame_cli
	CC=clang-14 CXX=clang++-14 cmake -S . -B $(BUILD_DIR)-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWG_FUZZ=ON \
	  -DWG_BUILD_TESTS=OFF -DWG_BUILD_BENCHMARKS=OFF -DWG_BUILD_EXAMPLES=ON -DWG_BUILD_PYTHON=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD_DIR)-fuzz -j $(JOBS) --target $(if $(strip $(FUZZ_TARGETS)),$(addprefix fuzz_,$(FUZZ_TARGETS)),fuzz_targets)
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run.sh $(BUILD_DIR)-fuzz $(BUILD_DIR)/examples/wargame/wargame $(FUZZ_TARGETS)

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR)-bench $(BUILD_DIR)-fuzz build-asan
