# pstswm — the two commands a new user needs: `make run` and `make test`.
# MPI=openmpi (default for run) | mpich | system (the MPI already on PATH, e.g. a cluster module).
# `make test` without MPI= tests both Open MPI and MPICH.
MPI ?=
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
RUN_MPI := $(if $(MPI),$(MPI),openmpi)
TEST_MPIS := $(if $(MPI),$(MPI),openmpi mpich)

.PHONY: all setup build run test clean help

help:
	@echo "make run   [MPI=openmpi|mpich|system]  install what is missing, build, run the quick suite"
	@echo "make test  [MPI=openmpi|mpich|system]  install what is missing, build, run every test (both MPIs by default),"
	@echo "                                        then the sanitizer build's unit, fuzz, bad-input and 1-2 rank tests"
	@echo "make build [MPI=...]                   configure and build only"
	@echo "make clean                             remove build/ and .venv/"

setup:
	@scripts/setup.sh $(TEST_MPIS)

build:
	@scripts/setup.sh $(RUN_MPI)
	@scripts/build.sh $(RUN_MPI) $(BUILD_TYPE) $(JOBS)

run:
	@scripts/setup.sh $(RUN_MPI)
	@scripts/build.sh $(RUN_MPI) $(BUILD_TYPE) $(JOBS)
	@scripts/run-quick.sh $(RUN_MPI)

test:
	@scripts/setup.sh $(TEST_MPIS) cluster
	@set -e; for m in $(TEST_MPIS); do \
	  scripts/build.sh $$m $(BUILD_TYPE) $(JOBS); \
	  scripts/test.sh $$m; \
	  scripts/test-sanitize.sh $$m; \
	done

clean:
	rm -rf build .venv
