# linkdyn: top-level entry points. `make run` and `make test` install what they need.
BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Debian packages the build, tests and benchmarks need.
DEB_PACKAGES = build-essential cmake pkg-config libeigen3-dev libyaml-cpp-dev libcli11-dev \
               libfmt-dev nlohmann-json3-dev libboost-dev libgtest-dev libgmock-dev libbenchmark-dev \
               liburdfdom-dev libtinyxml-dev libconsole-bridge-dev python3

.PHONY: all deps build run test bench install clean

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

run: build
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

install: build
	cmake --install $(BUILD_DIR)

bench: build
	$(BUILD_DIR)/bench/linkdyn_bench --benchmark_min_time=0.2

clean:
	rm -rf $(BUILD_DIR) out
