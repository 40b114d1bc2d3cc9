"""Rules as frozen, validated values: a preset plus option overrides.

Every option of the rules reference (docs/rules.md) is declared once in ``OPTIONS``
(its values, its meaning, the documents it comes from). A preset is a named set of
values; ``build_rules`` applies overrides and refuses combinations that cannot work,
naming the options.
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from pathlib import Path
from typing import Any, Literal

from .errors import FortiesError

# Each game's one name: the engine, its views, the records and every JSON the server sends.
FORTY_FIVES = "forty-fives"
FORTY_ONE = "forty-one"

Value = int | bool | str | None


class RulesError(FortiesError, ValueError):
    """Rules that cannot be built: an unknown preset or option, a bad value, a conflict."""


@dataclass(frozen=True)
class OptionSpec:
    name: str
    values: tuple[Value, ...] | None  # None: any integer in int_range
    doc: str
    source: str
    game: str = FORTY_FIVES
    int_range: tuple[int, int] | None = None

    def describe_values(self) -> str:
        if self.values is None:
            lo, hi = self.int_range or (1, 10**6)
            return f"integer {lo}..{hi}"
        return ", ".join(format_value(v) for v in self.values)


def format_value(v: Value) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# The documents the rules come from, as the rules reference (docs/rules.md) names them.
DOW = "Merrimack Valley 45s rules by Jerry Dow"
NS45 = "Nova Scotia 45-Card-Games and Traditional 45"
AUCTION45 = "Nova Scotia Auction 45 / Call Your Partner"
MV_GENERAL = "Forty-fives: Merrimack Valley variant (general description)"
SYRIA = "Forty One (Syria)"
SOURCES = (DOW, NS45, AUCTION45, MV_GENERAL, SYRIA)


def cite(*sources: str) -> str:
    """An option's ``source``: the documents it follows, as docs/rules.md cites them."""
    return "; ".join(sources)


_FF = FORTY_FIVES
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("players", tuple(range(2, 11)),
               "number of players (as many as the deck can deal: five cards each, the "
               "kitty, and the turned-up card or the draw)", cite(DOW, NS45, MV_GENERAL)),
    OptionSpec("teams", ("individual", "pairs", "three-pairs", "two-threes", "two-teams",
                         "three-threes"),
               "who scores together: everyone alone; pairs, partners opposite (4: seats 0+2, "
               "1+3; 8 and 10 likewise); three pairs (6: seats k and k+3); two teams of "
               "three (6: 0,2,4 and 1,3,5); two teams sitting alternately (8 or 10); three "
               "teams of three (9: seats k, k+3, k+6)",
               cite(DOW, NS45, MV_GENERAL)),
    OptionSpec("kitty", (3, 0, 4), "cards dealt to the kitty (4: two after each time round)",
               cite(f"{DOW}, variation 9", AUCTION45, MV_GENERAL)),
    OptionSpec("auction", ("single", "none", "hold-reopens", "open"),
               "how trump is won: none (a card turned up), single (each bids once, dealer "
               "last), hold-reopens (a dealer's hold reopens the bidding), open (goes round "
               "until all but one have passed)", cite(DOW, AUCTION45)),
    OptionSpec("min_bid", (15, 20, 5), "lowest bid; bids go up in fives to 30",
               cite(f"{DOW}, variation 5", AUCTION45)),
    OptionSpec("bid_30_for_60", (False, True),
               "a bid '30for60' ranks above 30: make 30 to score 60, else lose 60",
               cite(MV_GENERAL)),
    OptionSpec("bid_60_for_120", (False, True),
               "a bid '60for120' ranks above 30for60: make 30 to score 120, else lose 120",
               cite(MV_GENERAL)),
    OptionSpec("dealer_may_hold", (False, True),
               "the dealer may take the bid at the current high without raising",
               cite(f"{DOW}, variations 4 and 6", AUCTION45)),
    OptionSpec("all_pass", ("dealer-bagged", "redeal"),
               "when nobody bids: the dealer must bid at least the minimum, or the hand is "
               "thrown in", cite(MV_GENERAL, AUCTION45)),
    OptionSpec("min_bid_at_100", (None, 20), "a side on 100 or more may not bid less",
               cite(f"{DOW}, variation 11")),
    OptionSpec("winner_may_raise", (False, True),
               "the auction winner at 20 or 25 may raise to 30 before naming trump",
               cite(AUCTION45)),
    OptionSpec("trump_needs_card", (False, True),
               "the bidder may name only a suit of which he holds a trump (AH counts for any)",
               cite(AUCTION45)),
    OptionSpec("kitty_before_trump", (False, True), "the bidder sees the kitty before naming trump",
               cite(AUCTION45)),
    OptionSpec("go_on_kitty", (False, True),
               "the bidder may throw in his hand and name trump from the kitty", cite(AUCTION45)),
    OptionSpec("go_on_top_card", (False, True),
               "having gone on the kitty, the bidder may throw it in too and take one card "
               "from the stock, whose suit is trump (the ace of hearts: any suit)",
               cite(AUCTION45)),
    OptionSpec("keep_min", (1, 0, 2), "cards a player must keep when discarding",
               cite(f"{DOW}, variation 7", AUCTION45, MV_GENERAL)),
    OptionSpec("four_and_a_flip", (False, True),
               "one may discard all five; the fifth card replenished is dealt face up",
               cite(MV_GENERAL)),
    OptionSpec("replenish", ("all-at-once", "by-threes"),
               "how the dealer restores hands to five: all at once, or at most three a time "
               "round", cite(DOW, AUCTION45)),
    OptionSpec("dealer_robs_pack", (False, True),
               "after the draw the dealer may take any of the discards, discarding as many",
               cite(f"{DOW}, variation 8")),
    OptionSpec("robbing", (False, True),
               "the holder of the ace of trumps (the dealer, if an ace is turned) may take the "
               "turned-up card for any card", cite(NS45)),
    OptionSpec("lead", ("bidder", "left-of-bidder", "left-of-dealer"),
               "who leads the first trick", cite(f"{DOW}, variation 10", NS45)),
    OptionSpec("follow", ("trump-only", "suit-or-trump"),
               "a trump lead must be followed with a trump; with suit-or-trump an off-suit lead "
               "must also be followed or trumped", cite(f"{DOW}, variation 2", NS45)),
    OptionSpec("renege", ("top3", "five-only", "none"),
               "which top trumps may be withheld when a lower trump is led",
               cite(DOW, AUCTION45, MV_GENERAL)),
    OptionSpec("hearts_on_hearts", (False, True),
               "when AH is led no trump may be withheld, and one with no trump must play a heart",
               cite(NS45)),
    OptionSpec("bonus", ("best-trump", "five-only"),
               "5 more to the trick holding the highest trump played, or only to the 5 of trumps",
               cite(DOW, NS45, MV_GENERAL)),
    OptionSpec("bidder_scores", ("taken", "bid"),
               "a bidder who makes it scores all his side took, or only the bid",
               cite(DOW, AUCTION45)),
    OptionSpec("made_30_scores_60", (False, True), "a made bid of 30 scores 60",
               cite(f"{DOW}, variation 1", AUCTION45)),
    OptionSpec("lock_at", (None, 100),
               "a side on this score or more scores only on hands it won the bid for",
               cite(AUCTION45)),
    OptionSpec("target", None, "game score", cite(DOW, NS45, MV_GENERAL), int_range=(5, 10000)),
    OptionSpec("forty_five_resets", (False, True),
               "a score landing exactly on 45 goes back to 0", cite(MV_GENERAL)),
    OptionSpec("end", ("bidder-goes-out", "must-bid-on-green"),
               "several sides past the target: the bidders win if among them, else the highest; "
               "must-bid-on-green: once two sides are within 30 of the target, only a bidding "
               "side can go out, until a side falls off the green",
               cite(f"{DOW}, variation 3", MV_GENERAL)),
    OptionSpec("match", ("single", "best-of-3"), "one game, or the best two games of three",
               cite(NS45)),
    OptionSpec("call_partner", (False, True),
               "5 players: the bidder calls a card whose holder is his partner for the hand",
               cite(AUCTION45)),
    OptionSpec("booked", (False, True),
               "after the draw the bidder may ask one opponent 'booked?' (holding only "
               "trumps); told yes, he may fold: he goes down his bid and nobody else scores",
               cite(MV_GENERAL)),
    OptionSpec("target", None, "a player's score that wins, with a positive partner", cite(SYRIA),
               game=FORTY_ONE, int_range=(1, 10000)),
    OptionSpec("min_total", None, "the bids must total at least this, or the hand is thrown in",
               cite(SYRIA), game=FORTY_ONE, int_range=(4, 52)),
    OptionSpec("double_from", None, "bids of this many tricks or more score double", cite(SYRIA),
               game=FORTY_ONE, int_range=(1, 14)),
    OptionSpec("partner_positive", (True, False), "a winner's partner must be above 0", cite(SYRIA),
               game=FORTY_ONE),
    OptionSpec("tie", ("lower-partner", "team-total"),
               "both teams qualify: the team whose lower player is higher wins, or the higher "
               "total; a tie plays on", cite(SYRIA), game=FORTY_ONE),
)


def option_specs(game: str) -> dict[str, OptionSpec]:
    return {o.name: o for o in OPTIONS if o.game == game}


Teams = Literal["individual", "pairs", "three-pairs", "two-threes", "two-teams",
                "three-threes"]

# The player counts each team layout is for (individual: any).
TEAM_PLAYERS: dict[str, tuple[int, ...]] = {
    "pairs": (4, 8, 10), "three-pairs": (6,), "two-threes": (6,), "two-teams": (8, 10),
    "three-threes": (9,),
}


def team_sides(teams: str, n: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each side: teams spread evenly round the table, so that the seats
    alternate between sides (partners opposite when they are pairs)."""
    size = {"pairs": 2, "three-pairs": 2, "two-threes": 3, "two-teams": n // 2,
            "three-threes": 3}.get(teams, 1)
    count = n // size
    return tuple(tuple(s + count * i for i in range(size)) for s in range(count))


@dataclass(frozen=True)
class Rules:
    """Base of every game's rules: the preset they were built from and the overrides."""

    preset: str
    overrides: tuple[tuple[str, Value], ...] = field(default=(), compare=False)

    game = ""  # set by each subclass

    @property
    def players(self) -> int:  # pragma: no cover - overridden
        """How many play."""
        raise NotImplementedError

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:  # pragma: no cover - overridden
        """The seats that score together, side by side (a seat alone is a side of one)."""
        raise NotImplementedError

    @property
    def target(self) -> int:  # pragma: no cover - overridden
        """The score that wins the game."""
        raise NotImplementedError

    def options(self) -> dict[str, Value]:
        """Every option with its value, in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name not in ("preset", "overrides")}

    def to_json(self) -> dict[str, Any]:
        """The record form: the preset and the options that differ from it (a new dict
        each time; the difference is worked out once, since every view carries it)."""
        diff: dict[str, Value] | None = self.__dict__.get("_diff")
        if diff is None:
            base = _preset_options(self.preset)
            diff = {k: v for k, v in self.options().items() if base[k] != v}
            object.__setattr__(self, "_diff", diff)  # frozen: a cache, not a field
        out: dict[str, Any] = {"preset": self.preset}
        if diff:
            out["options"] = dict(diff)
        return out


@dataclass(frozen=True)
class FortyFivesRules(Rules):
    game = FORTY_FIVES
    players: int = 4
    teams: str = "pairs"
    kitty: int = 3
    auction: str = "single"
    min_bid: int = 15
    bid_30_for_60: bool = False
    bid_60_for_120: bool = False
    dealer_may_hold: bool = False
    all_pass: str = "dealer-bagged"
    min_bid_at_100: int | None = None
    winner_may_raise: bool = False
    trump_needs_card: bool = False
    kitty_before_trump: bool = False
    go_on_kitty: bool = False
    go_on_top_card: bool = False
    keep_min: int = 1
    four_and_a_flip: bool = False
    replenish: str = "all-at-once"
    dealer_robs_pack: bool = False
    robbing: bool = False
    lead: str = "bidder"
    follow: str = "trump-only"
    renege: str = "top3"
    hearts_on_hearts: bool = False
    bonus: str = "best-trump"
    bidder_scores: str = "taken"
    made_30_scores_60: bool = False
    lock_at: int | None = None
    target: int = 120
    forty_five_resets: bool = False
    end: str = "bidder-goes-out"
    match: str = "single"
    call_partner: bool = False
    booked: bool = False

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return team_sides(self.teams, self.players)

    def replacements_needed(self) -> int:
        """The most cards the stock may have to supply after the deal, in the worst case.

        Where this is more than the stock holds, the draw limits each discard to what
        the stock can still replace."""
        if self.auction == "none":
            return 1  # the turned-up card
        keep = 0 if self.four_and_a_flip else self.keep_min
        need = self.players * (5 - keep)
        if self.go_on_top_card:
            # the top card itself; then the bidder holds that one card, keeps at most it,
            # and may draw four: keep_min - 1 more than the others' worst case
            need += 1 + max(keep - 1, 0)
        return need

    def stock_size(self) -> int:
        return 52 - 5 * self.players - self.kitty

    def cards_dealt(self) -> int:
        """The cards the deal itself takes: five each, the kitty, the turned-up card."""
        return 5 * self.players + self.kitty + (1 if self.auction == "none" else 0)


@dataclass(frozen=True)
class FortyOneRules(Rules):
    game = FORTY_ONE
    target: int = 41
    min_total: int = 11
    double_from: int = 7
    partner_positive: bool = True
    tie: str = "lower-partner"

    @property
    def players(self) -> int:
        return 4

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return ((0,), (1,), (2,), (3,))

    @property
    def teams(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return ((0, 2), (1, 3))


@dataclass(frozen=True)
class Preset:
    name: str
    game: str
    summary: str
    values: Mapping[str, Value]
    aliases: tuple[str, ...] = ()

    def build(self, overrides: Mapping[str, Value]) -> Rules:
        vals: dict[str, Value] = dict(self.values)
        vals.update(overrides)
        if self.game == FORTY_ONE:
            rules: Rules = FortyOneRules(preset=self.name, **vals)  # type: ignore[arg-type]
        else:
            players = vals.get("players", 4)
            if "teams" not in overrides:
                vals["teams"] = _default_teams(self.name, players)
            if "keep_min" not in overrides:
                vals["keep_min"] = _default_keep(vals)
            rules = FortyFivesRules(preset=self.name, **vals)  # type: ignore[arg-type]
        return replace(rules, overrides=tuple(sorted(overrides.items())))


@cache
def _preset_options(name: str) -> dict[str, Value]:
    """Every option of preset ``name`` as it stands (read only)."""
    return PRESETS[name].build({}).options()


def _default_teams(preset: str, players: Any) -> str:
    if players in (4, 8, 10):
        return "pairs"
    if players == 6:
        return "two-threes" if preset == "nova-scotia" else "three-pairs"
    return "individual"


def _default_keep(vals: dict[str, Value]) -> int:
    """The preset's keep_min; six players or more keep up to two, as far as the stock
    needs ("if it is a six player game, each player must keep two cards to ensure cards
    don't run out"). Fewer players keep the preset's own: where the stock could still run
    short, each discard is limited when it is made (``FortyFivesState``)."""
    keep = vals.get("keep_min", 1)
    assert isinstance(keep, int)
    players = vals.get("players", 4)
    if not isinstance(players, int) or players < 6:
        return keep
    probe = FortyFivesRules(preset="", **{k: v for k, v in vals.items()  # type: ignore[arg-type]
                                          if k != "keep_min"})
    for k in sorted({0, 1, 2} - set(range(keep))):
        if replace(probe, keep_min=k).replacements_needed() <= probe.stock_size():
            return k
    return keep


PRESETS: dict[str, Preset] = {}


def _register(p: Preset) -> None:
    PRESETS[p.name] = p


_register(Preset(
    "merrimack-valley", FORTY_FIVES,
    "Merrimack Valley 45s: 4 in pairs, kitty 3, one round of bidding 15-30, "
    "dealer bagged, bidder leads, trumps must follow, 5/J/AH may renege, game 120",
    {}, aliases=("mv", "merrimack")))
_register(Preset(
    "nova-scotia", FORTY_FIVES,
    "Traditional Nova Scotia 45: trump turned up, robbing, left of dealer leads, "
    "follow suit or trump, first to 45 wins",
    {"auction": "none", "kitty": 0, "robbing": True, "lead": "left-of-dealer",
     "follow": "suit-or-trump", "target": 45}, aliases=("ns", "traditional", "45")))
_AUCTION_45: dict[str, Value] = {
    "auction": "open", "min_bid": 20, "dealer_may_hold": True, "all_pass": "redeal",
    "winner_may_raise": True, "trump_needs_card": True, "keep_min": 0,
    "replenish": "by-threes", "lead": "left-of-bidder", "follow": "suit-or-trump",
    "bidder_scores": "bid", "made_30_scores_60": True, "lock_at": 100,
}
_register(Preset(
    "auction-45", FORTY_FIVES,
    "Nova Scotia Auction 45: open bidding 20-30 with dealer hold, raise to 30, "
    "30 for 60, discard any number, locked at 100, game 120",
    _AUCTION_45, aliases=("auction", "a45")))
_register(Preset(
    "call-your-partner", FORTY_FIVES,
    "Call Your Partner: Auction 45 for 5 players; the bidder calls a card and its "
    "holder partners him for the hand",
    {**_AUCTION_45, "players": 5, "call_partner": True}, aliases=("cyp",)))
_register(Preset(
    "forty-one", FORTY_ONE,
    "Forty One: the Syrian partnership game; 13 cards, hearts trump, each bids his tricks, "
    "bids total 11 or more, 7+ scores double, 41 with a positive partner wins",
    {}, aliases=("41", "fortyone")))

_ALIASES = {a: p.name for p in PRESETS.values() for a in (p.name, *p.aliases)}


def find_preset(name: str) -> Preset:
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key in _ALIASES:
        return PRESETS[_ALIASES[key]]
    hint = difflib.get_close_matches(key, list(_ALIASES), n=1)
    more = f" (did you mean {_ALIASES[hint[0]]!r}?)" if hint else ""
    raise RulesError(f"unknown preset {name!r}{more}; presets: {', '.join(PRESETS)}")


def _shown(raw: Any) -> str:
    """``raw`` as it goes into a one-line message: JSON where it can be, never a newline."""
    try:
        return json.dumps(raw, default=str, ensure_ascii=False)
    except (TypeError, ValueError):  # keys that are not strings, a number of 5000 digits
        return f"a {type(raw).__name__}"


def parse_value(spec: OptionSpec, raw: Any) -> Value:
    """Check ``raw`` (a JSON/TOML value or a command-line string) against ``spec``."""
    value: Any = raw
    if isinstance(raw, str):
        text = raw.strip()
        low = text.lower()
        if low in ("null", "none", "off") and None in (spec.values or ()):
            value = None
        elif low in ("true", "yes", "on") and True in (spec.values or ()):
            value = True
        elif low in ("false", "no", "off") and False in (spec.values or ()):
            value = False
        elif re.fullmatch(r"-?[0-9]{1,100}", low) and (spec.values is None or any(
                type(v) is int for v in spec.values)):
            value = int(low)
        else:
            value = text
    if spec.values is None:
        lo, hi = spec.int_range or (1, 10**6)
        if type(value) is not int or not lo <= value <= hi:
            shown = raw if isinstance(raw, str) and raw.isprintable() else _shown(raw)
            raise RulesError(f"option {spec.name}: {shown} is not an integer from {lo} to {hi}")
        return int(value)
    for v in spec.values:
        if type(v) is type(value) and v == value:
            return v
    raise RulesError(f"option {spec.name}: {_shown(raw)} is not one of "
                     f"{spec.describe_values()}")


def build_rules(preset: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of ``preset`` with ``options`` overriding it; raises RulesError."""
    p = find_preset(preset)
    specs = option_specs(p.game)
    overrides: dict[str, Value] = {}
    for name, raw in (options or {}).items():
        key = str(name).strip().replace("-", "_")
        if key not in specs:
            hint = difflib.get_close_matches(key, list(specs), n=1)
            more = f" (did you mean {hint[0]!r}?)" if hint else ""
            raise RulesError(f"unknown option {name!r} for {p.name}{more}")
        overrides[key] = parse_value(specs[key], raw)
    rules = p.build(overrides)
    problems = conflicts(rules)
    if problems:
        raise RulesError(f"{p.name}: " + "; ".join(problems))
    return rules


def rules_from_json(obj: Any) -> Rules:
    """Rules from a record's ``"rules"``: a preset name or ``{"preset", "options"}``."""
    if isinstance(obj, str):
        return build_rules(obj)
    if not isinstance(obj, dict) or not isinstance(obj.get("preset"), str):
        raise RulesError('rules must be a preset name or {"preset": NAME, "options": {...}}')
    extra = set(obj) - {"preset", "options"}
    if extra:
        raise RulesError(f"rules: unknown key {sorted(extra)[0]!r}")
    opts = obj.get("options", {})
    if not isinstance(opts, dict):
        raise RulesError("rules: options must be an object of name: value")
    return build_rules(obj["preset"], opts)


def load_rules_file(path: str | Path) -> Rules:
    """House rules from a TOML or JSON file: ``preset = "..."`` and an ``[options]`` table."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")  # a BOM (Windows Notepad's) is let be
    except OSError as e:
        raise RulesError(f"{p}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RulesError(f"{p}: not a UTF-8 text file") from None
    kind = "JSON" if p.suffix.lower() == ".json" else "TOML"
    try:
        data: Any = json.loads(text) if kind == "JSON" else tomllib.loads(text)
    except RecursionError:
        raise RulesError(f"{p}: not valid {kind}: nested too deep") from None
    except ValueError as e:  # a decode error, or a number past int()'s digit limit
        raise RulesError(f"{p}: not valid {kind}: {e}") from None
    try:
        return rules_from_json(data)
    except RulesError as e:
        raise RulesError(f"{p}: {e}") from None


def conflicts(rules: Rules) -> list[str]:
    """Every reason these rules cannot be played, each naming the options involved."""
    if isinstance(rules, FortyOneRules):
        out = []
        if rules.double_from < 1:
            out.append("double_from must be at least 1")
        return out
    assert isinstance(rules, FortyFivesRules)
    r = rules
    out = []
    counts = TEAM_PLAYERS.get(r.teams)
    if counts is not None and r.players not in counts:
        want = " or ".join(str(c) for c in counts)
        out.append(f"teams={r.teams} needs players={want}, not {r.players}")
    if r.cards_dealt() > 52:
        what = f"five cards each and a kitty of {r.kitty}" if r.kitty else "five cards each"
        if r.auction == "none":
            what += " and the turned-up card"
        out.append(f"players={r.players} with kitty={r.kitty}: {what} take "
                   f"{r.cards_dealt()} cards, and the deck has 52")
    if r.call_partner:
        if r.players != 5:
            out.append(f"call_partner needs players=5, not {r.players}")
        if r.teams != "individual":
            out.append("call_partner needs teams=individual")
        if r.auction == "none":
            out.append("call_partner needs an auction (auction=none has no bidder)")
        if r.match == "best-of-3":
            out.append("call_partner and match=best-of-3 conflict: partners for a hand "
                       "cannot share a game won")
    if r.auction == "none":
        if r.kitty:
            out.append(f"kitty={r.kitty} needs an auction: with auction=none nobody takes it")
        if r.lead != "left-of-dealer":
            out.append(f"lead={r.lead} needs an auction: with auction=none there is no bidder, "
                       "so lead must be left-of-dealer")
        for name in ("dealer_may_hold", "winner_may_raise", "trump_needs_card",
                     "bid_30_for_60", "dealer_robs_pack", "four_and_a_flip",
                     "kitty_before_trump", "go_on_kitty"):
            if getattr(r, name):
                out.append(f"{name} needs an auction (auction=none)")
        if r.min_bid_at_100 is not None:
            out.append("min_bid_at_100 needs an auction (auction=none)")
        if r.lock_at is not None:
            out.append("lock_at needs an auction: with auction=none nobody wins a bid")
        if r.end == "must-bid-on-green":
            out.append("end=must-bid-on-green needs an auction (auction=none)")
        if r.booked:
            out.append("booked needs an auction: with auction=none there is no bidder to ask")
    elif r.robbing:
        out.append(f"robbing needs a turned-up trump (auction=none), not auction={r.auction}")
    if r.bid_60_for_120 and not r.bid_30_for_60:
        out.append("bid_60_for_120 needs bid_30_for_60")
    if r.kitty == 0 and (r.kitty_before_trump or r.go_on_kitty):
        name = "kitty_before_trump" if r.kitty_before_trump else "go_on_kitty"
        out.append(f"{name} needs a kitty (kitty=0)")
    if r.go_on_top_card and not r.go_on_kitty:
        out.append("go_on_top_card needs go_on_kitty")
    if r.go_on_kitty and r.kitty_before_trump:
        out.append("go_on_kitty and kitty_before_trump conflict: going on the kitty takes "
                   "it unseen")
    if r.four_and_a_flip and r.keep_min == 2:
        out.append("four_and_a_flip and keep_min=2 conflict: one lets a player discard all "
                   "five, the other makes him keep two")
    if r.lock_at is not None and r.lock_at >= r.target:
        out.append(f"lock_at={r.lock_at} must be below target={r.target}")
    if r.forty_five_resets and r.target <= 45:
        out.append(f"forty_five_resets with target={r.target}: a score of 45 would end the game")
    if r.auction != "none" and r.dealer_may_hold is False and r.auction == "hold-reopens":
        out.append("auction=hold-reopens needs dealer_may_hold")
    if r.min_bid_at_100 is not None and r.min_bid_at_100 < r.min_bid:
        out.append(f"min_bid_at_100={r.min_bid_at_100} is below min_bid={r.min_bid}")
    stock = r.stock_size()
    if not out and r.auction != "none" and stock < 1:
        out.append(f"players={r.players} with kitty={r.kitty} leave no card for the draw: "
                   "use a smaller kitty or fewer players")
    if not out and r.go_on_top_card and stock < 5:
        # the top card, then four more to make the bidder's hand up to five again
        out.append(f"go_on_top_card with players={r.players} and kitty={r.kitty}: the stock "
                   f"holds {stock} cards, and going on the top card may need 5")
    return out


def describe(rules: Rules) -> str:
    """A readable listing of every option and its value, for people."""
    specs = option_specs(rules.game)
    preset = PRESETS[rules.preset]
    lines = [f"{preset.name}: {preset.summary}", ""]
    width = max(len(n) for n in specs)
    for name, value in rules.options().items():
        mark = "*" if any(k == name for k, _ in rules.overrides) else " "
        lines.append(f"{mark}{name:<{width}}  {format_value(value):<16} {specs[name].doc}")
    if rules.overrides:
        lines += ["", "* changed from the preset"]
    return "\n".join(lines)
