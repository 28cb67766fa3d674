# pstswm — the two commands a new user needs: `make run` and `make test`; a developer's after a
# change: `make check` (CONTRIBUTING.md).
# MPI=openmpi (default for run) | mpich | system (the MPI already on PATH, e.g. a cluster module)
#   | smpi (SimGrid's SMPI: pstswm on a simulated platform, docs/predict.md).
# `make test` without MPI= tests Open MPI, MPICH and the SMPI build.
MPI ?=
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
RUN_MPI := $(if $(MPI),$(MPI),openmpi)
TEST_MPIS := $(if $(MPI),$(filter-out smpi,$(MPI)),openmpi mpich)
# The SMPI build's tests compare its model with the Open MPI build's, so that one is built too.
TEST_SMPI := $(if $(MPI),$(filter smpi,$(MPI)),smpi)
SMPI_PLATFORM ?= platforms/t3e-900.toml
PREFIX ?=

AREA ?=

.PHONY: all setup build run check test install dist clean help

help:
	@echo "make run   [MPI=openmpi|mpich|system]  install what is missing, build, run the quick suite"
	@echo "           MPI=smpi                      the model on the simulated T3E-900 (SMPI_PLATFORM=FILE for another)"
	@echo "make test  [MPI=openmpi|mpich|system|smpi] install what is missing, build, run every test (all three by default),"
	@echo "                                        then the sanitizer build's unit, fuzz, bad-input and 1-2 rank tests"
	@echo "make check [MPI=openmpi|mpich] [AREA=A] after a change (minutes): unit and tree tests, a 2-rank smoke of"
	@echo "                                        each subcommand, pstlab's tests without MPI; AREA=model (a CTest"
	@echo "                                        area or pstlab layer) narrows it"
	@echo "make build [MPI=...]                   configure and build only"
	@echo "make install PREFIX=DIR [MPI=...]      build, then install pstswm, pstrun, suites, docs into DIR"
	@echo "make dist                              the source tarball dist/pstswm-<version>.tar.gz (docs/install.md)"
	@echo "make clean                             remove build/ and .venv/"

setup:
	@scripts/dev/setup.sh $(TEST_MPIS)

build:
	@scripts/dev/setup.sh $(RUN_MPI)
	@scripts/dev/build.sh $(RUN_MPI) $(BUILD_TYPE) $(JOBS)

run:
	@scripts/dev/setup.sh $(RUN_MPI)
	@scripts/dev/build.sh $(RUN_MPI) $(BUILD_TYPE) $(JOBS)
ifeq ($(RUN_MPI),smpi)
	@echo "== the model, T42L16 on a 4x4 grid of the simulated $(SMPI_PLATFORM) (compute: this host's time) =="
	@scripts/pstrun --mpi smpi --platform $(SMPI_PLATFORM) -n 16 build/smpi/pstswm model --case 2 --trunc 42 \
	  --levels 16 --grid 4x4 --steps 12 --fftw-plan estimate
else
	@scripts/dev/run-quick.sh $(RUN_MPI)
endif

check:
	@scripts/dev/check.sh $(RUN_MPI) $(AREA)

test:
	@scripts/dev/setup.sh $(TEST_MPIS) cluster $(if $(TEST_SMPI),smpi openmpi)
	@set -e; for m in $(TEST_MPIS); do \
	  scripts/dev/build.sh $$m $(BUILD_TYPE) $(JOBS); \
	  once=; [ "$$m" = mpich ] && [ -n "$(filter openmpi,$(TEST_MPIS))" ] && once=--mpi-runs-only; \
	  scripts/dev/test.sh $$m $$once; \
	  paths=; [ "$$m" = openmpi ] && [ -n "$(filter mpich,$(TEST_MPIS))" ] && paths=--mpi-paths-only; \
	  scripts/dev/test-sanitize.sh $$m $$paths; \
	done
ifneq ($(TEST_SMPI),)
	@scripts/dev/build.sh openmpi $(BUILD_TYPE) $(JOBS)
	@scripts/dev/build.sh smpi $(BUILD_TYPE) $(JOBS)
	@echo "== tests with smpi =="
	@ctest --test-dir build/smpi --output-on-failure -j 2 --timeout 300
	@PSTSWM_BUILD=build/smpi PSTSWM_MPI=smpi .venv/bin/python -m pytest -q tests/python/test_platform.py tests/python/test_platform_node.py tests/python/test_calibrate.py \
	  tests/python/test_predict.py::test_a_dry_run_lists_the_suite_without_an_internal_error
endif

install:
	@[ -n "$(PREFIX)" ] || { echo "make install: name the prefix: make install PREFIX=DIR" >&2; exit 2; }
	@scripts/dev/setup.sh $(RUN_MPI)
	@scripts/dev/build.sh $(RUN_MPI) $(BUILD_TYPE) $(JOBS)
	@scripts/install.sh build/$(RUN_MPI) "$(PREFIX)"

dist:
	@scripts/dev/dist.sh dist

clean:
	rm -rf build .venv
