"""The project's errors have one base (``forties.errors.FortiesError``), and its refusals
one shape (``forties.errors.Refused``: a message, a code and the words for it), each still
the ``ValueError`` it was where callers catch that."""

from __future__ import annotations

import ast
from pathlib import Path

from forties import IllegalActionError, new_game
from forties.actions import Action, ActionSyntaxError
from forties.errors import FortiesError, Refused
from forties.pad import PadError
from forties.rules import RulesError
from forties.table import TableError
from forties.web.http import Refused as HttpRefused

SRC = Path(__file__).parents[1] / "src" / "forties"
BUILT_IN = {"Exception", "ValueError", "RuntimeError", "TypeError", "KeyError", "OSError"}


def test_every_error_class_of_the_project_has_the_one_base() -> None:
    bare = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = {ast.unparse(b) for b in node.bases}
            if bases & BUILT_IN and not bases & {"FortiesError", "Refused", "errors.Refused"} \
                    and node.name != "FortiesError":
                bare.append(f"{path.relative_to(SRC)}: {node.name}")
    assert bare == []


def test_the_refusals_are_one_shape_and_stay_value_errors() -> None:
    for refused in (TableError("turn", "not now", "not-turn", {"seat": 1}),
                    PadError("the bid is 15 to 30", "bid", low=15),
                    HttpRefused("no such pad", 404, "pad")):
        assert isinstance(refused, Refused) and isinstance(refused, FortiesError)
        assert refused.message == str(refused) and refused.code
    assert isinstance(TableError("bad", "no"), ValueError)
    assert isinstance(PadError("no"), ValueError)
    assert PadError("the bid is 15 to 30", "bid", low=15).params == {"low": 15}
    g = new_game("merrimack-valley", seed=1)
    action = Action.parse(f"{g.turn} bid 5")
    try:
        g.apply(action)
    except IllegalActionError as e:
        assert isinstance(e, Refused) and isinstance(e, ValueError)
        assert (e.code, e.message) == (getattr(e.reason, "code", None), f"{action}: {e.reason}")
        assert e.code
    else:
        raise AssertionError("bid 5 was taken")
    assert issubclass(RulesError, FortiesError) and issubclass(RulesError, ValueError)
    assert issubclass(ActionSyntaxError, FortiesError)
