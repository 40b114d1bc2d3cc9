"""The rules reference, docs/rules.md, covers every preset and every option (values and
sources included), and nothing a player reads cites the project's internal notes.

A new option, value or preset fails here until docs/rules.md explains it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forties.rules import OPTIONS, PRESETS, SOURCES, OptionSpec, format_value

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "rules.md"
# What a player never reads: the internal name of a source document, or a path outside
# the repository. docs/rules-decisions.md, written for the developers, may cite them.
INTERNAL = ("seed 00", "../shared")
OPTION_SECTIONS = {"forty-fives": "## Options of Forty-Fives",
                   "forty-one": "## Options of Forty One"}


def reference() -> str:
    return REFERENCE.read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of the ``## title`` section, up to the next ``## ``."""
    text = reference()
    assert title + "\n" in text, f"docs/rules.md has no section {title!r}"
    return text.split(title + "\n", 1)[1].split("\n## ", 1)[0]


def entries(title: str) -> dict[str, str]:
    """Each option's entry in an options section: ``- **`name`** ...`` up to the next."""
    found = re.findall(r"^- \*\*`([a-z_0-9]+)`\*\*(.*?)(?=^- \*\*|^#|\Z)", section(title),
                       re.S | re.M)
    return {name: " ".join(body.split()) for name, body in found}


def player_facing_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in (ROOT / "src", ROOT / "docs"):
        files += [p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                  and p.name != "rules-decisions.md"]
    return sorted(files)


def test_nothing_a_player_reads_cites_internal_notes() -> None:
    """src/, README.md and docs/ (but rules-decisions.md) name sources as documents."""
    bad = []
    for path in player_facing_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # a picture
            continue
        for n, line in enumerate(text.splitlines(), 1):
            bad += [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for word in INTERNAL
                    if word in line.lower()]
    assert not bad, "\n".join(bad)


def test_the_check_sees_the_files_it_is_about() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in player_facing_files()}
    assert {"README.md", "docs/rules.md", "src/forties/rules.py", "src/forties/cli.py"} <= names
    assert "docs/rules-decisions.md" not in names


def option_id(spec: OptionSpec) -> str:
    return f"{spec.game}:{spec.name}"


@pytest.mark.parametrize("spec", OPTIONS, ids=map(option_id, OPTIONS))
def test_every_option_is_in_the_reference_with_its_values(spec: OptionSpec) -> None:
    """Each option has an entry in its game's options section, naming every value it
    takes (or its range of numbers)."""
    entry = entries(OPTION_SECTIONS[spec.game]).get(spec.name)
    assert entry is not None, f"docs/rules.md does not explain {spec.game} option {spec.name}"
    if spec.values is None:
        lo, hi = spec.int_range or (1, 10**6)
        assert f"{lo:,} to {hi:,}" in entry, f"{spec.name}: the range {lo} to {hi}"
    else:
        missing = [v for v in spec.values if f"`{format_value(v)}`" not in entry]
        assert not missing, f"{spec.name}: values {missing} are not explained in docs/rules.md"


@pytest.mark.parametrize("spec", OPTIONS, ids=map(option_id, OPTIONS))
def test_every_option_cites_the_documents_the_reference_names(spec: OptionSpec) -> None:
    """An option's ``source`` is the list of documents its entry in docs/rules.md ends
    with, each one of the sources the reference lists."""
    entry = entries(OPTION_SECTIONS[spec.game])[spec.name]
    cited = re.findall(r"\*([^*]+)\*$", entry)
    assert cited and cited[-1].rstrip(".") == spec.source
    for item in spec.source.split("; "):
        assert any(item == s or item.startswith(s + ", variation") for s in SOURCES), item


def test_every_source_is_described() -> None:
    table = section("## Sources")
    for s in SOURCES:
        assert f"| **{s}** |" in table, s


def test_no_entry_for_an_option_that_does_not_exist() -> None:
    for game, title in OPTION_SECTIONS.items():
        names = {o.name for o in OPTIONS if o.game == game}
        assert set(entries(title)) == names


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_is_in_the_reference(name: str) -> None:
    """Each preset has its own heading under Presets, which names its aliases too."""
    presets = section("## Presets")
    heading = f"### `{name}`\n"
    assert heading in presets, f"docs/rules.md has no heading for preset {name}"
    text = presets.split(heading, 1)[1].split("\n### ", 1)[0]
    for alias in PRESETS[name].aliases:
        assert f"`{alias}`" in text, f"{name}: alias {alias} is not mentioned"


def test_preset_summaries_name_the_game_first() -> None:
    """``forties rules list`` and the screens show a summary's head as the game's name."""
    for p in PRESETS.values():
        head = p.summary.split(":")[0]
        assert head and "(" not in head, p.summary
