"""Helpers of the engine-wide tests: the configurations played, card accounting, what a
seat may know, brute-force candidate actions, an independent reading of the rank tables
and following rules of rules.md (written from the tables, not from the engine), the
``forties`` command and the golden records."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from forties import Action, GameState, Phase, Record, Verb, build_rules, new_game
from forties.cards import BITS, CARD_NAMES, cards_of, mask_of_names, parse_card
from forties.rules import Rules

# ----- configurations ---------------------------------------------------------------------

Config = tuple[str, dict[str, Any]]


def _player_configs() -> list[Config]:
    """Merrimack Valley and Auction 45 at 2..6 players with every team layout that fits."""
    layouts = {2: ["individual"], 3: ["individual"], 4: ["individual", "pairs"],
               5: ["individual"], 6: ["individual", "three-pairs", "two-threes"]}
    return [(preset, {"players": n, "teams": t}) for preset in ("merrimack-valley", "auction-45")
            for n, ts in layouts.items() for t in ts]


PRESET_CONFIGS: list[Config] = [(p, {}) for p in (
    "merrimack-valley", "nova-scotia", "auction-45", "call-your-partner", "forty-one")]
PLAYER_CONFIGS: list[Config] = _player_configs()
# House rules that reach the rarer phases (the pack, going on the kitty, a hold that
# reopens, four and a flip) and end games quickly; chosen by the test writer.
VARIANT_CONFIGS: list[Config] = [
    ("merrimack-valley", {"dealer_robs_pack": True, "keep_min": 2, "players": 3,
                          "bonus": "five-only", "target": 30}),
    ("merrimack-valley", {"four_and_a_flip": True, "kitty": 4, "made_30_scores_60": True,
                          "forty_five_resets": True, "end": "must-bid-on-green"}),
    ("merrimack-valley", {"auction": "hold-reopens", "dealer_may_hold": True,
                          "bid_30_for_60": True, "bid_60_for_120": True,
                          "follow": "suit-or-trump", "renege": "five-only", "players": 3,
                          "kitty": 0}),
    ("auction-45", {"go_on_kitty": True, "go_on_top_card": True, "hearts_on_hearts": True,
                    "target": 40, "lock_at": None}),
    ("auction-45", {"kitty_before_trump": True, "renege": "none", "kitty": 4, "players": 5}),
    ("nova-scotia", {"players": 6, "renege": "five-only", "hearts_on_hearts": True}),
    ("nova-scotia", {"players": 3, "match": "best-of-3", "target": 20}),
    ("forty-one", {"target": 12, "min_total": 4, "tie": "team-total"}),
]
ALL_CONFIGS: list[Config] = PRESET_CONFIGS + PLAYER_CONFIGS + VARIANT_CONFIGS


def config_id(c: Config) -> str:
    preset, opts = c
    return preset + "".join(f",{k}={v}" for k, v in opts.items())


def rules_of(c: Config) -> Rules:
    return build_rules(c[0], c[1])


# ----- cards ------------------------------------------------------------------------------


def mask(cards: str) -> int:
    """The card set written ``"5H JD AH"``."""
    return mask_of_names(cards.split())


def is_forty_fives(st: GameState) -> bool:
    return st.game == "forty-fives"


def card_places(st: GameState) -> list[int]:
    """Every card where the engine keeps it: hands, kitty (until taken), stock (undealt
    part), the turned-up card (until robbed), the robbed-away card, discards, tricks."""
    out: list[int] = []
    for h in st.hands:
        out += cards_of(h)
    for t in st.tricks:
        out += list(t.cards)
    out += list(st.trick_cards)
    if not is_forty_fives(st):
        return out
    s: Any = st
    if not s.kitty_taken:
        out += cards_of(s.kitty)
    out += list(s.stock[s.stock_pos:])
    out += cards_of(s.pile)
    if s.up_card >= 0 and not s.robbed:
        out.append(s.up_card)
    out += cards_of(s.rob_given)
    return out


# ----- what a seat may know ---------------------------------------------------------------

CARD_TOKEN = re.compile(r"\b([2-9TJQKA][CDHS])\b")
CALL_TEXT = re.compile(r'"\d+ call [^"]*"')


def card_tokens(obj: Any) -> set[str]:
    """Every card name written anywhere in a JSON value (keys and strings), except in a
    call: a called card is a name said aloud (and the bidder may call any card)."""
    return set(CARD_TOKEN.findall(CALL_TEXT.sub("", json.dumps(obj))))


class Knowledge:
    """The cards each seat has been entitled to see in the current hand: every card it
    has held, the pack for a dealer who robs it, and what is public (tricks, the
    turned-up card, cards dealt face up, a called card's name)."""

    def __init__(self, st: GameState) -> None:
        self.seen = [0] * st.n
        self.update(st)

    def update(self, st: GameState) -> None:
        for s in range(st.n):
            self.seen[s] |= st.hands[s]
        if is_forty_fives(st) and st.phase is Phase.PACK:
            self.seen[st.dealer] |= st.pile  # type: ignore[attr-defined]

    def public(self, st: GameState) -> int:
        m = 0
        for t in st.tricks:
            for c in t.cards:
                m |= 1 << c
        for c in st.trick_cards:
            m |= 1 << c
        if is_forty_fives(st):
            s: Any = st
            if s.up_card >= 0:
                m |= 1 << s.up_card
            m |= s.faceup
            if s.called > 0:
                m |= s.called
        return m

    def allowed(self, st: GameState, seat: int | None) -> int:
        if st.hand_over:  # the review: every hand as dealt is shown to everyone
            return (1 << 52) - 1
        return self.public(st) | (self.seen[seat] if seat is not None else 0)


def leaks(view: dict[str, Any], allowed: int) -> list[str]:
    """The cards named in ``view`` that are not in the card set ``allowed``."""
    return sorted(t for t in card_tokens(view) if not allowed >> parse_card(t) & 1)


# ----- brute-force candidate actions ------------------------------------------------------

BID_VALUES = (*range(0, 36), 60, 120)


def subsets(cards: Sequence[int], sizes: range) -> Iterator[int]:
    for k in sizes:
        for combo in combinations(cards, k):
            yield sum(map(BITS.__getitem__, combo))


def candidate_actions(st: GameState) -> tuple[list[Action], bool]:
    """Every action a player could try now, legal or not: every verb with every card,
    bid, suit, and (when small) every card set. Returns (candidates, complete): complete
    is False where card sets were too many to list (the dealer robbing a large pack)."""
    s = st.turn
    assert s is not None
    n = st.n
    hand = st.hands[s]
    held = cards_of(hand)
    out = [Action(s, Verb.PASS), Action(s, Verb.HOLD), Action(s, Verb.CALL, 0)]
    for v in BID_VALUES:
        out += [Action(s, Verb.BID, v), Action(s, Verb.RAISE, v)]
    out += [Action(s, Verb.TRUMP, t) for t in range(-1, 5)]  # with two that are no suit
    for c in range(52):
        b = 1 << c
        out += [Action(s, Verb.PLAY, b), Action(s, Verb.ROB, b), Action(s, Verb.CALL, b)]
    # malformed card sets: nothing played, two cards played, two robbed, two called
    out.append(Action(s, Verb.PLAY, 0))
    if len(held) >= 2:
        two = (1 << held[0]) | (1 << held[1])
        out += [Action(s, Verb.PLAY, two), Action(s, Verb.ROB, two), Action(s, Verb.CALL, two)]
    # discards: every subset of the hand, and sets with a card not held
    not_held = next(c for c in range(52) if not hand >> c & 1)
    small = len(held) <= 10  # Forty One's 13 cards: a few sets suffice, nobody discards
    for m in subsets(held, range(len(held) + 1) if small else range(2)):
        out.append(Action(s, Verb.DISCARD, m))
    out += [Action(s, Verb.DISCARD, 1 << not_held), Action(s, Verb.DISCARD, hand | 1 << not_held)]
    complete = True
    if is_forty_fives(st) and st.phase is Phase.PACK:
        pile = cards_of(st.pile)  # type: ignore[attr-defined]
        for give in subsets(held, range(0, 3)):
            for take in subsets(pile, range(0, 3)):
                out.append(Action(s, Verb.ROB, give | take))
        out.append(Action(s, Verb.ROB, (1 << held[0]) | (1 << not_held)))
        complete = len(held) <= 2 and len(pile) <= 2
    # other seats, and a seat that does not exist
    for o in range(n + 1):
        if o == s:
            continue
        oh = cards_of(st.hands[o]) if o < n else []
        out += [Action(o, Verb.PASS), Action(o, Verb.BID, 30), Action(o, Verb.DISCARD, 0)]
        if oh:
            out.append(Action(o, Verb.PLAY, 1 << oh[0]))
    return out, complete


# ----- rank tables and following rules, read from rules.md --------------------------------

# rules.md section 1, "Trump suit, high to low".
TRUMP_TABLE = {
    "H": "5H JH AH KH QH TH 9H 8H 7H 6H 4H 3H 2H",
    "D": "5D JD AH AD KD QD TD 9D 8D 7D 6D 4D 3D 2D",
    "C": "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C TC",
    "S": "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S TS",
}
# "Non-trump suits, high to low": highest in red, lowest in black; AH is never a heart.
OFF_TABLE = {
    "H": "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "D": "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD",
    "C": "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C TC",
    "S": "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
}
SUIT_LETTERS = "CDHS"


def trump_order(trump: int) -> list[int]:
    """The trumps of suit index ``trump``, highest first."""
    return [parse_card(t) for t in TRUMP_TABLE[SUIT_LETTERS[trump]].split()]


def off_order(suit: int) -> list[int]:
    return [parse_card(t) for t in OFF_TABLE[SUIT_LETTERS[suit]].split()]


def trump_set(trump: int) -> int:
    return sum(1 << c for c in trump_order(trump))


def highest_trump(cards: int, trump: int) -> int | None:
    return next((c for c in trump_order(trump) if cards >> c & 1), None)


def ff_trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index in ``cards`` of the winner: the highest trump, else the highest of the suit
    led (a lead of AH is a trump lead)."""
    order = trump_order(trump)
    trumps = [c for c in cards if c in order]
    if trumps:
        best = min(trumps, key=order.index)
        return list(cards).index(best)
    led = cards[0] // 13
    off = off_order(led)
    following = [c for c in cards if c in off]
    return list(cards).index(min(following, key=off.index))


def forty_one_trick_winner(cards: Sequence[int]) -> int:
    """Hearts always trump, aces high, else the highest of the suit led."""
    hearts = [c for c in cards if c // 13 == 2]
    pool = hearts or [c for c in cards if c // 13 == cards[0] // 13]
    return list(cards).index(max(pool, key=lambda c: c % 13))


def ff_follow_cards(hand: int, trick: Sequence[int], trump: int, follow: str,
                    renege: str) -> int:
    """The cards one may play under rules.md section 2 (no hearts on hearts, no call)."""
    if not trick:
        return hand
    order = trump_order(trump)
    tset = trump_set(trump)
    led = trick[0]
    if tset >> led & 1:
        mine = hand & tset
        privileged = {"top3": order[:3], "five-only": order[:1], "none": []}[renege]
        above_led = order[:order.index(led)]
        withheld = sum(1 << c for c in privileged if c in above_led)
        return mine if mine & ~withheld else hand
    if follow == "suit-or-trump":
        suit = sum(1 << c for c in off_order(led // 13))
        if hand & suit:
            return (hand & suit) | (hand & tset)
    return hand


def forty_one_follow_cards(hand: int, trick: Sequence[int]) -> int:
    if not trick:
        return hand
    suit = ((1 << 13) - 1) << (13 * (trick[0] // 13))
    return hand & suit or hand


# ----- a fixed Merrimack Valley hand, worked out by hand ----------------------------------

MV_HANDS = ("JS 4S KD 9C 3H", "5S 2D 7C 8H QD", "AH 4D 5C 6H TD", "9S 8D TC 2H JD")
MV_KITTY = "2C 3C 4C"


def mv_deal_json() -> dict[str, Any]:
    """Seat 0 bids 20 and names spades; nobody needs a card after the draw. The stock is
    the other 29 cards in index order."""
    used = mask(" ".join(MV_HANDS) + " " + MV_KITTY)
    return {"hands": [h.split() for h in MV_HANDS], "kitty": MV_KITTY.split(),
            "stock": [CARD_NAMES[c] for c in range(52) if not used >> c & 1]}


# Dealer 3: seat 0 bids first and alone, names spades, takes the kitty and throws it back.
MV_OPENING = ("0 bid 20", "1 pass", "2 pass", "3 pass", "0 trump S",
              "0 discard 2C 3C 4C", "1 discard", "2 discard", "3 discard")
# The whole hand, trump spades (see test_state.py for the reasoning of each trick):
MV_TRICKS = (
    ("0 play JS", "1 play 2D", "2 play AH", "3 play 9S"),  # JS wins: seat 0
    ("0 play 4S", "1 play 5S", "2 play 4D", "3 play 8D"),  # 5S wins: seat 1, +5 bonus
    ("1 play QD", "2 play TD", "3 play JD", "0 play KD"),  # KD wins: seat 0
    ("0 play 9C", "1 play 7C", "2 play 5C", "3 play TC"),  # 5C wins: seat 2
    ("2 play 6H", "3 play 2H", "0 play 3H", "1 play 8H"),  # 8H wins: seat 1
)


def mv_record_json(tricks: int = 5, options: dict[str, Any] | None = None,
                   players: list[str] | None = None) -> dict[str, Any]:
    """A record of the fixed hand, stopped after ``tricks`` tricks."""
    actions = list(MV_OPENING) + [a for t in MV_TRICKS[:tricks] for a in t]
    rules: Any = {"preset": "merrimack-valley", "options": options} if options else \
        "merrimack-valley"
    return {"format": "forties-record/1", "game": "forty-fives", "rules": rules,
            "players": players or ["Ann", "Bob", "Cy", "Di"], "first_dealer": 3,
            "hands": [{"deal": mv_deal_json(), "actions": actions}]}


# ----- the forties command ----------------------------------------------------------------

FORTIES = Path(sys.executable).with_name("forties")


def run_forties(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``forties ARGS`` run as its own process (the installed script), output as text."""
    return subprocess.run([str(FORTIES), *args], input=stdin, capture_output=True, text=True,
                          timeout=60, check=False)


# One process runs the command line's `check` on many records, each as `forties check PATH`
# would (the same click command, its output and its exit status), so that a test of every
# golden record starts one Python rather than one per record; `check_many`'s callers also
# run a few records through the installed script itself and compare.
_CHECK_MANY = """
import contextlib, io, json, sys
from forties.cli import main
out = {}
for path in sys.argv[1:]:
    o, e = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
        try:
            main(["check", path], prog_name="forties")
            code = 0
        except SystemExit as x:
            code = x.code if isinstance(x.code, int) else (0 if x.code is None else 1)
    out[path] = [o.getvalue(), code, e.getvalue()]
sys.__stdout__.write(json.dumps(out))
"""


def check_many(paths: Sequence[Path]) -> dict[str, tuple[str, int, str]]:
    """``forties check PATH`` for each path: {path: (stdout, exit status, stderr)}."""
    done = subprocess.run([sys.executable, "-c", _CHECK_MANY, *map(str, paths)],
                          capture_output=True, text=True, timeout=300, check=True)
    return {k: (o, c, e) for k, (o, c, e) in json.loads(done.stdout).items()}



# One process runs many `forties` command lines, each as its own process would run it: its
# arguments, standard input (bytes), environment and working folder; standard output and
# error captured as bytes with the encodings and error handlers the process's own streams
# have; the exit status of sys.exit, or 1 and the traceback on standard error for an
# uncaught exception, as Python does. For tests of many small cases of what the command
# says (its checks and messages), where the process boundary is not the point; each caller
# also runs a few of its cases through the installed script and compares (same_as_installed).
_RUN_MANY = """
import base64, io, json, os, sys, traceback
from forties.cli import main
jobs = json.loads(sys.stdin.read())
home_env, home_cwd = dict(os.environ), os.getcwd()
real = sys.stdin, sys.stdout, sys.stderr
out = []
for job in jobs:
    os.environ.clear()
    os.environ.update(home_env if job["env"] is None else job["env"])
    os.chdir(job["cwd"] or home_cwd)
    given = [base64.b64decode(job["stdin"]), b"", b""]
    streams = [io.TextIOWrapper(io.BytesIO(b), encoding=s.encoding, errors=s.errors,
                                write_through=True) for b, s in zip(given, real)]
    sys.stdin, sys.stdout, sys.stderr = streams
    try:
        main(job["args"], prog_name="forties")
        code = 0
    except SystemExit as x:
        code = x.code if isinstance(x.code, int) else (0 if x.code is None else 1)
        if not isinstance(x.code, int | None):
            print(x.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
        code = 1
    for s in streams:
        with __import__("contextlib").suppress(ValueError):
            s.flush()
    sys.stdin, sys.stdout, sys.stderr = real
    out.append([code] + [base64.b64encode(s.buffer.getvalue()).decode()
                         for s in streams[1:]])
real[1].write(json.dumps(out))
"""


def run_many(jobs: Sequence[tuple[Sequence[str], bytes | None, dict[str, str] | None,
                                  Path | None]]) -> list[subprocess.CompletedProcess[bytes]]:
    """``forties ARGS`` for each (ARGS, STDIN, ENV, CWD) in one Python process (see
    _RUN_MANY): what each run would give as its own process, stdout and stderr as bytes."""
    import base64

    payload = json.dumps([{"args": list(a), "stdin": base64.b64encode(i or b"").decode(),
                           "env": e, "cwd": None if c is None else str(c)}
                          for a, i, e, c in jobs])
    done = subprocess.run([sys.executable, "-c", _RUN_MANY], input=payload.encode(),
                          capture_output=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-3000:]
    return [subprocess.CompletedProcess(["forties", *a], code, base64.b64decode(o),
                                        base64.b64decode(e))
            for (a, _, _, _), (code, o, e) in zip(jobs, json.loads(done.stdout), strict=True)]


def same_as_installed(job: tuple[Sequence[str], bytes | None, dict[str, str] | None,
                                 Path | None], got: subprocess.CompletedProcess[bytes]) -> None:
    """The installed ``forties`` script, run as its own process on ``job``, gives what
    ``run_many`` gave: the same exit status, standard output and standard error."""
    args, stdin, env, cwd = job
    real = subprocess.run([str(FORTIES), *args], input=stdin or b"", env=env, cwd=cwd,
                          capture_output=True, timeout=300, check=False)
    assert (real.returncode, real.stdout, real.stderr) == \
        (got.returncode, got.stdout, got.stderr), (args, real, got)

# ----- golden records ---------------------------------------------------------------------

GOLDEN_DIR = Path(__file__).parent / "golden"


def golden_names(folder: Path) -> list[str]:
    """The names of the records ``NAME.record.json`` in ``folder``, sorted."""
    return sorted(p.name.removesuffix(".record.json") for p in folder.glob("*.record.json"))


def sorted_legal(verdict: dict[str, Any]) -> dict[str, Any]:
    """The verdict with ``legal`` as a sorted list: record.md fixes what is legal, not the
    order."""
    out = dict(verdict)
    if isinstance(out.get("legal"), list):
        out["legal"] = sorted(out["legal"])
    return out


def play_record(record: Record, hand: int = -1, upto: int | None = None) -> GameState:
    """The game of ``record`` rebuilt with ``new_game``, ``apply`` and ``next_hand`` (not
    through the referee), stopped at ``actions[:upto]`` of hand ``hand`` (default: the
    last hand, all of it)."""
    last = len(record.hands) - 1 if hand < 0 else hand
    state = new_game(record.rules, first_dealer=record.first_dealer,
                     deal=record.hands[0].deal)
    for h in range(last + 1):
        if h:
            state.next_hand(record.hands[h].deal)
        actions = record.hands[h].actions
        for text in actions[:upto] if h == last else actions:
            state.apply(text)
    return state


def play_until(preset: str, seed: int, rng: random.Random, stop: float) -> GameState | None:
    """A game of random legal moves stopped at some decision of the play phase (each with
    chance ``stop``; None if the hand ended first)."""
    g = new_game(preset, seed=seed)
    while not g.hand_over:
        if g.phase is Phase.PLAY and rng.random() < stop:
            return g
        g.apply(rng.choice(list(g.legal_actions())))
    return None
