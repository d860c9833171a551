"""Every shell command the README or a notebook shows, run as written.

The commands are read from the documents themselves: each line of a fenced
code block that is not Python, and each inline code span that starts a command
(``make X``, ``python ...``, ``papermill ...``, ``jupyter ...``, or ``ssbg``
with arguments).  Each must be in :data:`HOW`: run here as written, in a copy
of the project's layout (its ``data/``, ``notebooks/``, ``pyproject.toml`` and
the corpora beside it, linked; outputs land in a temporary folder), or run by
a named test elsewhere, or not run with the reason why.  A command added to a
document without an entry fails :func:`test_every_documented_command_is_known`.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import BACKGROUND, CORPORA, corpora_dir

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = (REPO / "README.md", *sorted((REPO / "notebooks").glob("*.ipynb")))
_STARTS = re.compile(r"^(?:make \S+|python3? |papermill |jupyter |ssbg \S+ \S)")

RUN = "run here"  # run as written in a copy of the project's layout
CORPORA_RUN = "run here, reads the corpora"
ELSEWHERE = "tests/"  # a prefix: run by that test
HOW: dict[str, str] = {
    "make demo": ELSEWHERE + "test_make_targets.py::test_make_demo_names_the_report_once_and_says_to_open_it",
    "make lab": ELSEWHERE + "test_make_targets.py::test_make_lab_serves_its_status_page_for_this_user",
    "make test": "not run: it is this test suite",
    "make bench": "not run: minutes of benchmarks on a shared machine, whose figures the README reports",
    "make demo-corpora": CORPORA_RUN,
    "make alignment": CORPORA_RUN,
    "make train": ELSEWHERE + "test_learned_reader.py::test_make_train_rebuilds_the_shipped_model_byte_identically",
    "make reader-figures": "not run: minutes of cross-validation and re-training on a shared machine, whose figures "
    "the README reports; tests/test_learned_reader.py runs its parts (training, calibration on the held-out half)",
    "python benchmarks/reader_corpus.py": ELSEWHERE + "test_learned_reader.py::test_reader_corpus_runs_on_a_sample",
    "python benchmarks/checker_halves.py --alone": CORPORA_RUN,
    "python benchmarks/train_gold_verdicts.py": CORPORA_RUN,
    "python benchmarks/modern_dev.py": CORPORA_RUN,
    "ssbg report gsm8k=.../train.jsonl --jobs 2": "not run: the speed table's name for what "
    "benchmarks/bench_cli_report.py times (GSM8K train, a fresh process, three rounds); tests/test_speed_table.py "
    "checks what the runs recorded",
    "make fuzz": "not run: the hostile-input property tests with thousands of examples each, minutes; the suite "
    "runs the same tests with fewer",
    "make mutation": "not run: mutation testing re-runs the core's tests per mutant, tens of minutes",
    "ssbg lane data/lanes": RUN,
    'python -c "from ssbg.stats.gold import measure; print(measure(\'../shared/corpora\'))"': CORPORA_RUN,
    "ssbg bind data/problem.json": RUN,
    "ssbg bind data/lanes/kinds.jsonl --id kind-divide-admitted": RUN,
    "ssbg bind gsm8k=data/samples/gsm8k_sample.jsonl --id gsm8k_sample-2": RUN,
    "ssbg render ../shared/corpora/gsm8k/train.jsonl --id 1 -o train-1.svg": CORPORA_RUN,
    "ssbg check multiply dollars -": RUN,
    "ssbg pack init mine && ssbg pack check mine && ssbg check apply_rate furlongs_per_hour hours --lhs miles "
    "--pack en_units_v1+./mine": RUN,
    "ssbg check apply_rate dollars_per_hourz hours": RUN,
    "ssbg report README.md -o report.html": RUN,
    "ssbg check-solutions ../shared/corpora/gsm8k_model_solutions/dev.jsonl --question-field question "
    "--solution-field solution --label-field is_correct --id-field test_index --solver-key 6b_finetuning "
    "--solver-key 6b_verification --solver-key 175b_finetuning --solver-key 175b_verification "
    "--reference-field ground_truth --error-steps data/checking/first_error_steps_dev.csv "
    "-o out/verdicts.csv --html out/verdicts.html --jobs 2": CORPORA_RUN,
    "python benchmarks/run_all.py --only bench_binding.py": "not run: a benchmark of a minute or more on a shared "
    "machine; tests/test_speed_table.py checks what the runs recorded",
    "ssbg render data/problem.json --view equations --proofs -o graph.svg": RUN,
    "ssbg render data/problem.json --view symbols -o graph.png": RUN,
    "ssbg render data/problem.json -o graph.dot": RUN,
    "ssbg render data/lanes/kinds.jsonl --id kind-apply_rate-admitted -o lane.svg": RUN,
    "mkdir -p out && papermill notebooks/03_corpus_refusal_statistics.ipynb out/03_corpus_refusal_statistics.ipynb -y "
    "'CORPUS_SPECS: [\"../shared/corpora/gsm8k/train.jsonl\"]' -p JOBS 2": CORPORA_RUN,
    "ssbg report data/ -o build/report.html --csv-dir build/report_tables": RUN,
    "ssbg report ../shared/corpora/gsm8k/train.jsonl ../shared/corpora/svamp/SVAMP.json data/ "
    "-o build/corpora.html --jobs 2": CORPORA_RUN,
}
# A command the document shows failing on purpose: its exit code and what it must say (others exit 0).
EXPECT: dict[str, tuple[int, str]] = {
    "ssbg check apply_rate dollars_per_hourz hours": (1, "close entries: dollars_per_hour"),
    "ssbg report README.md -o report.html": (2, "ssbg reads no '.md' file"),
}


def _commands_in(text: str) -> list[str]:
    """The commands of a Markdown text: lines of non-Python fenced blocks, inline spans that start one."""
    found: list[str] = []
    for match in re.finditer(r"```(\w*)\n(.*?)```", text, re.DOTALL):
        if match.group(1) in ("", "sh", "bash", "shell", "console"):
            block = re.sub(r"\\\n\s*", "", match.group(2))  # a line ending in "\" goes on on the next one
            for line in block.splitlines():
                command = re.sub(r"\s+#.*$", "", line).strip()  # a trailing "# comment" is not the command
                if command:
                    found.append(command)
    prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    found += [span for span in re.findall(r"`([^`\n]+)`", prose) if _STARTS.match(span)]
    return found


def _markdown(path: Path) -> str:
    if path.suffix != ".ipynb":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def documented_commands() -> dict[str, list[str]]:
    """Each command shown, with the documents that show it (in document order)."""
    out: dict[str, list[str]] = {}
    for path in DOCUMENTS:
        for command in _commands_in(_markdown(path)):
            out.setdefault(command, []).append(path.name)
    return out


def test_every_documented_command_is_known() -> None:
    shown = documented_commands()
    assert sorted(set(shown) - set(HOW)) == []  # a command shown with no way to run it here
    assert sorted(set(HOW) - set(shown)) == []  # an entry for a command no document shows any more


@pytest.mark.parametrize("command", [c for c, how in HOW.items() if how.startswith(ELSEWHERE)])
def test_the_test_that_runs_a_command_exists(command: str) -> None:
    module, _, name = HOW[command].removeprefix(ELSEWHERE).partition("::")
    source = (REPO / "tests" / module).read_text(encoding="utf-8")
    assert f"def {name}(" in source


def _layout(tmp_path: Path) -> Path:
    """A copy of the project's layout in which a command writes only below ``tmp_path``."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("data", "notebooks", "benchmarks", "pyproject.toml", "README.md", "Makefile"):
        (project / name).symlink_to(REPO / name)
    if CORPORA.is_dir():
        (tmp_path / "shared").mkdir()
        (tmp_path / "shared" / "corpora").symlink_to(CORPORA)
    return project


def _run(command: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    cwd = _layout(tmp_path)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    if command.startswith("make "):  # the venv the tests run in, outputs in the temporary folder, nothing installed
        venv = Path(sys.prefix)
        command = (f"make -o system-deps -o {shlex.quote(str(venv / '.ssbg-installed'))} VENV={shlex.quote(str(venv))} "
                   f"OUT={shlex.quote(str(tmp_path / 'out'))} {command.removeprefix('make ')}")
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
                          check=False)


def _check(command: str, done: subprocess.CompletedProcess[str]) -> None:
    code, says = EXPECT.get(command, (0, ""))
    output = done.stdout + done.stderr
    assert (done.returncode, says in output) == (code, True), f"{command}\n{output[-3000:]}"


@pytest.mark.slow
@pytest.mark.parametrize("command", [c for c, how in HOW.items() if how == RUN])
def test_a_documented_command_runs_as_written(command: str, tmp_path: Path) -> None:
    _check(command, _run(command, tmp_path))


@pytest.mark.slow
@pytest.mark.corpora
@pytest.mark.parametrize("command", [c for c, how in HOW.items() if how == CORPORA_RUN])
def test_a_documented_corpus_command_runs_as_written(command: str, tmp_path: Path) -> None:
    corpora_dir()  # skips outside CI when the corpora are absent
    _check(command, BACKGROUND.result(("corpus", command), lambda: _run(command, tmp_path)))


def background_jobs(item: pytest.Item) -> list[tuple[object, Callable[[], subprocess.CompletedProcess[str]]]]:
    """The corpus commands, each a minute or less, run from collection on beside the other tests (tests/conftest.py,
    Background), each in a layout of its own."""
    if item.originalname != "test_a_documented_corpus_command_runs_as_written" or not CORPORA.is_dir():
        return []
    command = item.callspec.params["command"]  # type: ignore[attr-defined]
    return [(("corpus", command), lambda: _run(command, Path(tempfile.mkdtemp(prefix="ssbg-command-"))))]
