# linkdyn: top-level entry points. `make run`, `make test`, `make check-sanitize` and `make tidy`
# install what they need (the `deps` step).
BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SANITIZE_DIR ?= build-sanitize
# Debian packages the build, tests, benchmarks and checks need (chromium: the browser test of
# the report; clang and its runtimes: the sanitizer and fuzz build; clang-tidy: `make tidy`; pybind11, numpy, pytest, matplotlib: the Python package,
# its tests and examples). Tests never install anything themselves.
DEB_PACKAGES = build-essential cmake pkg-config libeigen3-dev libyaml-cpp-dev libcli11-dev \
               libfmt-dev nlohmann-json3-dev libboost-dev libgtest-dev libgmock-dev libbenchmark-dev \
               liburdfdom-dev libtinyxml-dev libconsole-bridge-dev python3 chromium clang-tidy clang-format \
               pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib \
               libnlopt-cxx-dev libopenmpi-dev openmpi-bin libjs-chart.js libjs-dygraphs \
               clang libclang-rt-14-dev
# AddressSanitizer and UndefinedBehaviorSanitizer (CMake's LINKDYN_SANITIZE): any finding stops
# the program and fails its test.
SANITIZE_ENV = ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_init_order=1 \
               UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

.PHONY: all deps build build-cli run test check-sanitize tidy tidy-changed format format-check bench install clean fuzz fuzz-run

all: build

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD_DIR) -j $(JOBS)

# `make run` builds only what it runs: the library and the command line (the tests, benchmarks
# and Python module wait for `make test`).
build-cli: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD_DIR) --target linkdyn_cli -j $(JOBS)

run: build-cli
	@mkdir -p out
	$(BUILD_DIR)/apps/linkdyn/linkdyn check examples/seed001-fourbar.yaml
	$(BUILD_DIR)/apps/linkdyn/linkdyn kinematics examples/seed001-fourbar.yaml --steps 360 \
	  --csv out/seed001-fourbar.kinematics.csv --json out/seed001-fourbar.kinematics.json
	$(BUILD_DIR)/apps/linkdyn/linkdyn kinetostatics examples/seed001-fourbar.yaml --steps 360 \
	  --csv out/seed001-fourbar.kinetostatics.csv --json out/seed001-fourbar.kinetostatics.json
	$(BUILD_DIR)/apps/linkdyn/linkdyn report examples/seed001-fourbar.yaml -o out/seed001-fourbar.report.html
	@echo "results written under out/"

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The whole ctest suite built with clang, AddressSanitizer and UndefinedBehaviorSanitizer, in its
# own folder, -O1 -g1 with assertions on (Eigen's index checks too): line numbers in the reports.
# The same build holds the libFuzzer targets (tests/fuzz/, every object instrumented for them):
# after the suite, a smoke run of each target for FUZZ_SMOKE_SECONDS; a finding fails it. The
# benchmarks are left out (no test runs them).
SANITIZE_CONFIGURE = cmake -S . -B $(SANITIZE_DIR) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DLINKDYN_FUZZ=ON -DLINKDYN_BUILD_BENCH=OFF
FUZZ_SMOKE_SECONDS ?= 10
check-sanitize: deps
	$(SANITIZE_CONFIGURE)
	cmake --build $(SANITIZE_DIR) -j $(JOBS)
	cd $(SANITIZE_DIR) && $(SANITIZE_ENV) ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory fuzz-run FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS)

# clang-tidy (checks in .clang-tidy) on every source of the library, with the compile commands
# of $(BUILD_DIR) (configuring is enough: nothing is built). A finding fails the target. The
# whole tree costs about 30 CPU minutes (15 minutes on 2 idle cores), so CI (.ci/run) runs
# `make tidy-changed`: the sources changed since the last release tag or the merge base with
# main, and those including a changed header (tools/tidy_changed.sh).
TIDY_LOG = $(BUILD_DIR)/clang-tidy.log
TIDY_FAIL = { grep -E "(warning|error):" $(TIDY_LOG); echo "clang-tidy found the above (log: $(TIDY_LOG))"; exit 1; }
tidy: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release >/dev/null
	run-clang-tidy -p $(BUILD_DIR) -j $(JOBS) -quiet "$(CURDIR)/src/" > $(TIDY_LOG) 2>&1 || $(TIDY_FAIL)
	@! grep -qE "(warning|error):" $(TIDY_LOG) || $(TIDY_FAIL)
	@echo "clang-tidy: no finding in src/"

tidy-changed: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release >/dev/null
	tools/tidy_changed.sh $(BUILD_DIR) $(JOBS) > $(TIDY_LOG) 2>&1 || $(TIDY_FAIL)
	@! grep -qE "(warning|error):" $(TIDY_LOG) || $(TIDY_FAIL)
	@grep "^tidy-changed:" $(TIDY_LOG)
	@echo "clang-tidy: no finding in the changed sources"

# The layout of .clang-format on every C++ file of the project; format-check changes nothing and
# fails on the first file that differs.
CXX_SOURCES = $(shell git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' 2>/dev/null || find src include apps tests bench -name '*.[ch]pp')
format: deps
	@clang-format -i $(CXX_SOURCES)

format-check: deps
	@clang-format --dry-run -Werror $(CXX_SOURCES)
	@echo "clang-format: every file as .clang-format lays it out"

# libFuzzer (tests/fuzz/): the readers (model file, robots, CSV tables) and whole analyses of a
# mutated model, built in the sanitizer folder. Each target (FUZZ_TARGETS, default every one)
# runs FUZZ_SECONDS from the examples, its regression corpus (tests/fuzz/corpus/<target>/) and
# what earlier runs found ($(SANITIZE_DIR)/fuzz/corpus/<target>/); an input that makes it fail is
# written to $(SANITIZE_DIR)/fuzz/findings/<target>/ and fails the run: add it to the regression
# corpus with the fix.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_DIR = $(SANITIZE_DIR)/fuzz
fuzz: deps
	$(SANITIZE_CONFIGURE)
	cmake --build $(SANITIZE_DIR) -j $(JOBS) --target fuzz_targets
	@$(MAKE) --no-print-directory fuzz-run

# The run of `make fuzz` without the build (the targets listed by CMake in fuzz-targets.txt).
fuzz-run:
	@set -e; targets="$(FUZZ_TARGETS)"; [ -n "$$targets" ] || targets=$$(cat $(SANITIZE_DIR)/fuzz-targets.txt); \
	for t in $$targets; do \
	  mkdir -p $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/findings/$$t; \
	  case $$t in \
	    robot_file) seeds="examples/robots/*.urdf examples/robots/*.yaml" ;; \
	    csv_table) seeds="examples/*.csv examples/robots/*.csv" ;; \
	    *) seeds="examples/*.yaml" ;; \
	  esac; \
	  cp $$seeds $(FUZZ_DIR)/corpus/$$t/; \
	  regression=tests/fuzz/corpus/$$t; [ -d $$regression ] || regression=; \
	  echo "fuzzing $$t for $(FUZZ_SECONDS) s"; \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp \
	  $(SANITIZE_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
	    -artifact_prefix=$(FUZZ_DIR)/findings/$$t/ -print_final_stats=1 \
	    $(FUZZ_DIR)/corpus/$$t $$regression 2>$(FUZZ_DIR)/$$t.log \
	    || { tail -40 $(FUZZ_DIR)/$$t.log; echo "fuzz_$$t found a defect: $(FUZZ_DIR)/findings/$$t/"; exit 1; }; \
	  echo "fuzz_$$t: $$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_DIR)/$$t.log) runs," \
	    "$$(sed -n 's/^stat::new_units_added: *//p' $(FUZZ_DIR)/$$t.log) new inputs, no finding"; \
	done
	@echo "fuzzing: no finding"

install: build
	cmake --install $(BUILD_DIR)

bench: build
	$(BUILD_DIR)/bench/linkdyn_bench --benchmark_min_time=0.2

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR) out
