# linkdyn: top-level entry points. `make run`, `make test`, `make check-sanitize` and `make tidy`
# install what they need (the `deps` step).
BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SANITIZE_DIR ?= build-sanitize
# Debian packages the build, tests, benchmarks and checks need (chromium: the browser test of
# the report; clang-tidy: `make tidy`; pybind11, numpy, pytest, matplotlib: the Python package,
# its tests and examples). Tests never install anything themselves.
DEB_PACKAGES = build-essential cmake pkg-config libeigen3-dev libyaml-cpp-dev libcli11-dev \
               libfmt-dev nlohmann-json3-dev libboost-dev libgtest-dev libgmock-dev libbenchmark-dev \
               liburdfdom-dev libtinyxml-dev libconsole-bridge-dev python3 chromium clang-tidy clang-format \
               pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib \
               libnlopt-cxx-dev libopenmpi-dev openmpi-bin libjs-chart.js libjs-dygraphs
# AddressSanitizer and UndefinedBehaviorSanitizer (CMake's LINKDYN_SANITIZE): any finding stops
# the program and fails its test.
SANITIZE_ENV = ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_init_order=1 \
               UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

.PHONY: all deps build build-cli run test check-sanitize tidy tidy-changed format format-check bench install clean fuzz

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

# The whole ctest suite built with the sanitizers, in its own folder. -O1 -g1 with assertions on
# (Eigen's index checks too): about 1.5 times the compile time of Release, where -O2 -g takes 5
# times; line numbers in the reports. The benchmarks are left out (no test runs them).
check-sanitize: deps
	cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
	  -DLINKDYN_SANITIZE=ON -DLINKDYN_BUILD_BENCH=OFF
	cmake --build $(SANITIZE_DIR) -j $(JOBS)
	cd $(SANITIZE_DIR) && $(SANITIZE_ENV) ctest --output-on-failure -j $(JOBS)

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

# libFuzzer (tests/fuzz/) on the readers (the model file, robots, CSV tables) and on whole analyses
# of a mutated model (check, kinematics, kinetostatics, reduce, simulate by each method, flex,
# report, a study); the targets are those CMake lists (LINKDYN_FUZZ_TARGETS). Each target runs FUZZ_SECONDS from the examples and its regression corpus
# (tests/fuzz/corpus/<target>/); an input that makes it fail is written to
# $(FUZZ_DIR)/findings/<target>/ and fails the run: add it to the regression corpus with the fix.
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_PACKAGES = clang libclang-rt-14-dev
fuzz: deps
	@missing=""; for p in $(FUZZ_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
	  -DLINKDYN_FUZZ=ON -DLINKDYN_BUILD_TESTS=OFF -DLINKDYN_BUILD_BENCH=OFF -DLINKDYN_BUILD_APPS=OFF \
	  -DLINKDYN_BUILD_PYTHON=OFF -DLINKDYN_WITH_MPI=OFF -DLINKDYN_WARNINGS_AS_ERRORS=OFF
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target fuzz_targets
	@set -e; for t in $${FUZZ_TARGETS:-$$(cat $(FUZZ_DIR)/fuzz-targets.txt)}; do \
	  mkdir -p $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/findings/$$t; \
	  case $$t in \
	    model_file) cp examples/*.yaml $(FUZZ_DIR)/corpus/$$t/ ;; \
	    robot_file) cp examples/robots/*.urdf examples/robots/*.yaml $(FUZZ_DIR)/corpus/$$t/ ;; \
	    csv_table) cp examples/*.csv examples/robots/*.csv $(FUZZ_DIR)/corpus/$$t/ ;; \
	    *) cp examples/*.yaml $(FUZZ_DIR)/corpus/$$t/ ;; \
	  esac; \
	  echo "fuzzing $$t for $(FUZZ_SECONDS) s"; \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp \
	  $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
	    -artifact_prefix=$(FUZZ_DIR)/findings/$$t/ -print_final_stats=1 \
	    $(FUZZ_DIR)/corpus/$$t tests/fuzz/corpus/$$t 2>$(FUZZ_DIR)/fuzz_$$t.log \
	    || { tail -40 $(FUZZ_DIR)/fuzz_$$t.log; echo "fuzz_$$t found a defect: $(FUZZ_DIR)/findings/$$t/"; exit 1; }; \
	  grep -E "stat::number_of_executed_units|stat::new_units_added" $(FUZZ_DIR)/fuzz_$$t.log; \
	done
	@echo "fuzzing: no finding"

install: build
	cmake --install $(BUILD_DIR)

bench: build
	$(BUILD_DIR)/bench/linkdyn_bench --benchmark_min_time=0.2

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR) $(FUZZ_DIR) out
