# ssbg — every target sets up what it needs on a fresh Debian machine.
#   make demo   lanes + corpus refusal report over the bundled data/
#   make test   lint, strict types, the whole test suite (doctests, notebooks, browser)
#   make bench  ssbg vs pint vs sympy, binding and corpus throughput
#   make lab    JupyterLab on the notebooks
#   make fuzz   the seams' property tests with 20,000 inputs each (by hand: about an hour; FUZZ_EXAMPLES=2000: fewer)
#   make train  rebuild the learned reader's model file from data/gold/ (byte-identical; ADR 0021)
#   make mutation  mutmut on ssbg/units.py and ssbg/admissibility.py (by hand: CPU-heavy, not in CI)

PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.ssbg-installed
OUT    ?= out
SUDO    = $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# JupyterLab refuses to start as root unless told it may (containers and CI images run as root).
LAB_ROOT = $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)
LAB_ARGS ?=
CORPORA ?= ../shared/corpora

.PHONY: train reader-figures demo test lint typecheck pytest bench lab system-deps clean demo-corpora fingerprint alignment fuzz mutation

# Debian packages: graphviz (dot) for diagrams, chromium for the browser test and screenshots.
# --no-install-recommends: what they need and nothing else (ADR 0020: 29 packages instead of 118).
system-deps:
	@need=""; \
	command -v dot >/dev/null 2>&1 || need="$$need graphviz"; \
	command -v chromium >/dev/null 2>&1 || need="$$need chromium"; \
	if [ -n "$$need" ]; then \
	  echo "installing Debian packages:$$need"; \
	  $(SUDO) apt-get update -q && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$need; \
	fi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	touch $(STAMP)

demo: system-deps $(STAMP)
	$(VENV)/bin/ssbg lane data/lanes
	$(VENV)/bin/ssbg report data -o $(OUT)/report.html --csv-dir $(OUT)/tables --jobs 2
	@echo "ssbg is installed in $(VENV)/: run $(VENV)/bin/ssbg, or put it on PATH in this shell with: . $(VENV)/bin/activate"

# The same report over the real development corpora (see ../shared/corpora/README.md).
demo-corpora: system-deps $(STAMP)
	$(VENV)/bin/ssbg report gsm8k=$(CORPORA)/gsm8k/train.jsonl svamp=$(CORPORA)/svamp/SVAMP.json \
	  mawps=$(CORPORA)/mawps/mwptoolkit/mawps_source.json cogcomp=$(CORPORA)/cogcomp_arithmetic/data/questions.json \
	  data -o $(OUT)/report_corpora.html --csv-dir $(OUT)/tables_corpora --jobs 2

lint: $(STAMP)
	$(VENV)/bin/ruff check ssbg tests benchmarks packs tools

typecheck: $(STAMP)
	$(VENV)/bin/mypy

pytest: system-deps $(STAMP)
	$(PY) -m pytest tests ssbg notebooks README.md --nbval -q

test: lint typecheck pytest

# valgrind counts instructions for bench_instructions.py (ADR 0015): the figure the load does not move.
bench: system-deps $(STAMP)
	@command -v valgrind >/dev/null 2>&1 || { $(SUDO) apt-get update -q && \
	  $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends valgrind; }
	$(PY) benchmarks/run_all.py

# Digests of every corpus trace, bound graph and report CSV: a refactoring shows the same ones before and after.
fingerprint: $(STAMP)
	$(PY) benchmarks/fingerprint.py --corpora $(CORPORA)

# The property tests of the seams (numbers, types, text, sizes) with the "fuzz" Hypothesis profile
# (tests/conftest.py): 20,000 inputs per test instead of the normal run's few hundred (FUZZ_EXAMPLES, at least
# 1,000). tests/test_hostile_checker.py: the checker's inputs (any strings, any JSON records) and pack names.
FUZZ_EXAMPLES ?= 20000
FUZZ_TESTS = tests/test_numbers.py tests/test_values_hardening.py tests/test_units_hardening.py \
  tests/test_readers_hardening.py tests/test_hostile_checker.py
fuzz: $(STAMP)
	SSBG_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest $(FUZZ_TESTS) --hypothesis-profile=fuzz -q --durations=10 \
	  --hypothesis-show-statistics

# Mutation testing of the core (benchmarks/mutation.py: mutmut, a focused test selection per module).
# MUTATION_ARGS="--sample 300" scores a random sample instead of every mutant; "--diffs" prints survivors.
MUTATION_ARGS ?=
mutation: $(STAMP)
	$(PY) -m pip install -q -e ".[mutation]"
	$(PY) benchmarks/mutation.py $(MUTATION_ARGS)

# The learned reader (ADR 0021): ssbg/reading/learned/reader.json rebuilt byte-identically from the
# training gold of data/gold/ and the seed; TRAIN_ARGS=--check says whether the shipped file is current.
TRAIN_ARGS ?=
train: $(STAMP)
	$(PY) -m ssbg.stats.train_reader --corpora $(CORPORA) $(TRAIN_ARGS)

# The reader's figures, dev (cross-validated) and held out side by side, with the learning curve.
reader-figures: $(STAMP)
	$(PY) benchmarks/reader_figures.py --corpora $(CORPORA) --curve

# Grounding against the hand-written gold alignments of data/gold/ (ADR 0018), and CogComp's own.
alignment: $(STAMP)
	$(PY) -m ssbg.stats.alignment --corpora $(CORPORA)

# One command as root or as a user: --allow-root only when root. LAB_ARGS passes more options.
lab: system-deps $(STAMP)
	$(VENV)/bin/jupyter lab $(LAB_ROOT) $(LAB_ARGS) notebooks

clean:
	rm -rf $(OUT) .pytest_cache .mypy_cache .ruff_cache .mutation
