"""The settings of an evening: how many games, which rules, how prizes are decided."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ..rules import FortyFivesRules, Rules, RulesError, build_rules, rules_from_json
from .events import HallError

PLACES = ("score-levels", "standard")
TIE_BREAKS = ("vote", "split", "cut", "play-off")
JAR_RULES = ("all", "most")
MAX_GAMES = 200  # games in one evening
MAX_PRIZES = 50


def _nova_scotia() -> Rules:
    return build_rules("nova-scotia")


@dataclass(frozen=True)
class Settings:
    """How an evening is run. The defaults are a Cape Breton hall's.

    - ``games``: games in the evening; ``rules``: the game played at every table
      (any preset and house rules for four players in two couples).
    - ``prizes``: how many prizes, to the couples with the most games (or, in a
      duplicate evening, the most matchpoints).
    - ``places``: ``score-levels`` (each score gets the next prize, and couples tied
      on a score take their extra prizes from the bottom: on 18, 18 and 16 games
      the 16 is second and the two 18s share first and third) or ``standard``
      (the two 18s share first and second, the 16 is third).
    - ``tie_break``: ``vote`` (each tied couple says split, cut or play off: a
      play-off if any one wants it, a split only if all do, otherwise a cut),
      or always ``split``, ``cut`` or ``play-off``.
    - ``bye_wins``: a game sat out counts as a game won.
    - ``cookie_jar``: how many games are drawn for the cookie jar (0: none);
      ``cookie_jar_rule``: ``all`` (a couple that won every drawn game wins it,
      shared if several; if none, it carries over) or ``most`` (the most of them).
    - ``booby``: a booby prize for the couple with the fewest games.
    - ``duplicate``: the same deals at every table of a game, and prizes by
      matchpoints against the couples who held the same cards.
    - ``present_to_win``: a couple that leaves early gives up its prizes.
    - ``seed``: the number every draw and deal comes from; shown as its SHA-256
      before, and itself after.
    """

    games: int = 25
    rules: Rules = field(default_factory=_nova_scotia)
    prizes: int = 3
    places: str = "score-levels"
    tie_break: str = "vote"
    bye_wins: bool = True
    cookie_jar: int = 0
    cookie_jar_rule: str = "all"
    booby: bool = False
    duplicate: bool = False
    present_to_win: bool = True
    seed: int = 0
    title: str = ""

    def __post_init__(self) -> None:
        problem = self.problem()
        if problem:
            raise HallError(problem)

    def problem(self) -> str | None:
        r = self.rules
        if r.players != 4 or (isinstance(r, FortyFivesRules) and r.teams != "pairs"):
            return (f"an evening is played by couples: the rules must be for four players "
                    f"in two pairs ({r.preset} here has {r.players} players)")
        if not 1 <= self.games <= MAX_GAMES:
            return f"games must be from 1 to {MAX_GAMES}, not {self.games}"
        if not 0 <= self.prizes <= MAX_PRIZES:
            return f"prizes must be from 0 to {MAX_PRIZES}, not {self.prizes}"
        if self.places not in PLACES:
            return f"places must be one of {', '.join(PLACES)}, not {self.places!r}"
        if self.tie_break not in TIE_BREAKS:
            return f"tie_break must be one of {', '.join(TIE_BREAKS)}, not {self.tie_break!r}"
        if not 0 <= self.cookie_jar <= self.games:
            return f"cookie_jar must be from 0 to the number of games ({self.games})"
        if self.cookie_jar_rule not in JAR_RULES:
            return f"cookie_jar_rule must be one of {', '.join(JAR_RULES)}"
        if self.seed < 0:
            return "seed must be 0 or more"
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.to_json() if f.name == "rules" else v
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Settings:
        """Read settings (missing keys take their defaults); raises HallError."""
        if not isinstance(obj, dict):
            raise HallError("settings must be an object")
        known = {f.name: f for f in fields(cls)}
        extra = sorted(set(obj) - set(known))
        if extra:
            raise HallError(f"settings: unknown key {extra[0]!r}")
        kw: dict[str, Any] = {}
        for k, v in obj.items():
            if k == "rules":
                try:
                    kw[k] = rules_from_json(v)
                except RulesError as e:
                    raise HallError(f"settings: rules: {e}") from None
                continue
            default = getattr(cls(), k)
            if type(v) is not type(default):
                raise HallError(f"settings: {k} must be {type(default).__name__}, not {v!r}")
            kw[k] = v
        return cls(**kw)
