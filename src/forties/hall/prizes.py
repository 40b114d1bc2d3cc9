"""Prizes: which scores win which prizes, and how a tie is broken, step by step.

``prize_levels`` shares the prizes out among scores (the evening's ``places``
policy). Couples tied on a score that wins more than one of them, or that wins
fewer prizes than there are couples on it, hold a contest: the director walks
through it with ``Contest`` (the couples' votes, the cut of the deck, the
play-off pairings and results), each step an event of the evening.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .draw import Cut, cut_deck
from .events import Answer, CutDeck, HallError, PlayoffWin, Vote

BOOBY = 0  # the booby prize's number beside prizes 1, 2, 3...


@dataclass(frozen=True)
class Level:
    """Couples on one score and the prizes that score wins (best first)."""

    score: Fraction
    couples: tuple[int, ...]
    prizes: tuple[int, ...]

    @property
    def contested(self) -> bool:
        return len(self.couples) > 1


def prize_levels(ranked: Sequence[tuple[int, Fraction]], prizes: int,
                 places: str) -> list[Level]:
    """The scores that win prizes, best first, with their prizes.

    ``ranked`` is (couple, score) for every couple that may win. Scores take
    prizes in turn until ``prizes`` couples have one (a score with more couples
    than prizes left takes them all, contested). ``standard``: consecutive
    prizes. ``score-levels``: each score takes the next prize, and couples tied
    on a score take their further prizes from the bottom, best score first: on
    18, 18, 16, 15 and 15 games the 16 is second and the 18s share first and third.
    """
    by_score: dict[Fraction, list[int]] = {}
    for couple, score in ranked:
        by_score.setdefault(score, []).append(couple)
    left = min(prizes, len(ranked))
    taken: list[tuple[Fraction, list[int], int]] = []
    for score in sorted(by_score, reverse=True):
        if left == 0:
            break
        k = min(len(by_score[score]), left)
        taken.append((score, sorted(by_score[score]), k))
        left -= k
    out = []
    if places == "standard":
        p = 1
        for score, couples, k in taken:
            out.append(Level(score, tuple(couples), tuple(range(p, p + k))))
            p += k
        return out
    spare = iter(range(len(taken) + 1, sum(k for _, _, k in taken) + 1))
    for i, (score, couples, k) in enumerate(taken, 1):
        out.append(Level(score, tuple(couples), (i, *(next(spare) for _ in range(k - 1)))))
    return out


class Playoff:
    """Knock-out play-offs among ``players`` until ``need`` places are decided.

    Each round pairs the couples left in order of number; when they are odd, one
    has a bye: of those with the fewest byes so far, the highest number. The
    winner of the final takes the best place and its loser the next; couples
    knocked out in the same round play off the same way for the places after
    them (the semi-finals' losers for third), as far as places are needed. With
    ``lowest`` (the booby prize) the loser of each game goes on instead.
    """

    def __init__(self, players: Sequence[int], need: int, lowest: bool) -> None:
        self.players = sorted(players)
        self.need = need
        self.lowest = lowest
        self.order: list[int] = []
        self.games: list[tuple[int, int, int]] = []
        self.pending: list[tuple[int, int]] = []
        self.queue: list[list[int]] = [list(self.players)]
        self.round: list[int] = []
        self.advancing: list[int] = []
        self.knocked: list[list[int]] = []
        self.byes: dict[int, int] = {}
        self._next()

    @property
    def done(self) -> bool:
        return not self.pending

    def _next(self) -> None:
        while len(self.order) < self.need:
            if not self.round:
                if not self.queue:
                    break
                group = self.queue.pop(0)
                if len(group) == 1:
                    self.order.extend(group)
                    continue
                self.round, self.knocked = group, []
            if len(self.round) == 1:
                self.order.append(self.round[0])
                self.round = []
                self.queue[:0] = [sorted(g) for g in reversed(self.knocked)]
                continue
            r = list(self.round)
            self.advancing = []
            if len(r) % 2:
                bye = min(r, key=lambda c: (self.byes.get(c, 0), -c))
                self.byes[bye] = self.byes.get(bye, 0) + 1
                self.advancing.append(bye)
                r.remove(bye)
            self.pending = [(r[i], r[i + 1]) for i in range(0, len(r), 2)]
            self.knocked.append([])
            return
        self.pending = []

    def win(self, couple: int) -> None:
        """``couple`` won its game of the round; raises HallError if it has none."""
        pair = next((p for p in self.pending if couple in p), None)
        if pair is None:
            waiting = ", ".join(f"{a} v {b}" for a, b in self.pending) or "none"
            raise HallError(f"couple {couple} has no play-off game to win (games: {waiting})")
        loser = pair[1] if pair[0] == couple else pair[0]
        self.games.append((pair[0], pair[1], couple))
        self.pending.remove(pair)
        on, out = (loser, couple) if self.lowest else (couple, loser)
        self.advancing.append(on)
        self.knocked[-1].append(out)
        if not self.pending:
            self.round = sorted(self.advancing)
            self._next()


@dataclass
class Contest:
    """A tie for prizes, as the director walks it through.

    ``order`` is None until it is decided (best first; for the booby prize, the
    couple that takes it first), and stays None after a split (``shared``).
    """

    key: str
    couples: tuple[int, ...]
    prizes: tuple[int, ...]
    score: Fraction
    policy: str
    seed: int
    votes: dict[int, str] = field(default_factory=dict)
    answers: dict[int, bool] = field(default_factory=dict)
    cut: Cut | None = None
    forfeit_cut: Cut | None = None
    playoff: Playoff | None = None

    @property
    def lowest(self) -> bool:
        return self.prizes == (BOOBY,)

    @property
    def method(self) -> str | None:
        if self.policy != "vote":
            return self.policy
        if len(self.votes) < len(self.couples):
            return None
        choices = set(self.votes.values())
        if "play-off" in choices:
            return "play-off"
        return "split" if choices == {"split"} else "cut"

    @property
    def shared(self) -> bool:
        return self.method == "split"

    def must_answer(self) -> list[int]:
        """Couples that must still say whether they play off or forfeit."""
        if self.method != "play-off":
            return []
        return [c for c in self.couples
                if self.votes.get(c) != "play-off" and c not in self.answers]

    def players(self) -> list[int]:
        return [c for c in self.couples if self.votes.get(c) == "play-off" or self.answers.get(c)]

    def forfeits(self) -> list[int]:
        return [c for c in self.couples if c not in self.players()]

    @property
    def order(self) -> tuple[int, ...] | None:
        m = self.method
        if m == "cut":
            return None if self.cut is None else self.cut.order
        if m != "play-off" or self.playoff is None or not self.playoff.done:
            return None
        played = self.playoff.order + [c for c in self.playoff.players
                                       if c not in self.playoff.order]
        rest = self.forfeits()
        if self.forfeit_cut is not None:
            rest = list(self.forfeit_cut.order)
        return tuple(played + rest)

    @property
    def decided(self) -> bool:
        return self.shared or self.order is not None

    def waiting_for(self) -> str:
        """What the contest waits for, in the director's words ("" when decided)."""
        m = self.method
        if m is None:
            todo = [c for c in self.couples if c not in self.votes]
            return "votes from couple" + ("s " if len(todo) > 1 else " ") + \
                ", ".join(map(str, todo))
        if m == "cut" and self.cut is None:
            return "the cut of the deck"
        if m == "play-off":
            todo = self.must_answer()
            if todo:
                return "couple" + ("s " if len(todo) > 1 else " ") + ", ".join(map(str, todo)) \
                    + ": play off or forfeit"
            if self.playoff is not None and self.playoff.pending:
                return "play-off: " + ", ".join(f"couple {a} v couple {b}"
                                                for a, b in self.playoff.pending)
        return ""

    def apply(self, event: Vote | Answer | CutDeck | PlayoffWin) -> None:
        """Take one step; raises HallError (and changes nothing) if it is not due."""
        if isinstance(event, (Vote, Answer, PlayoffWin)) and event.couple not in self.couples:
            raise HallError(f"couple {event.couple} is not in the tie {self.key} "
                            f"(couples {', '.join(map(str, self.couples))})")
        m = self.method
        if isinstance(event, Vote):
            if self.policy != "vote":
                raise HallError(f"this evening's ties are settled by {self.policy}: no vote")
            if event.couple in self.votes:
                raise HallError(f"couple {event.couple} has voted already")
            self.votes[event.couple] = event.choice
            self._after_step()
        elif isinstance(event, Answer):
            if m != "play-off" or event.couple not in self.must_answer():
                raise HallError(f"couple {event.couple} has nothing to answer in {self.key}")
            self.answers[event.couple] = event.plays
            self._after_step()
        elif isinstance(event, CutDeck):
            if m != "cut" or self.cut is not None:
                raise HallError(f"no cut of the deck is due in {self.key}")
            self.cut = cut_deck(self.seed, self.key, self.couples)
        else:
            if m != "play-off" or self.playoff is None:
                raise HallError(f"no play-off game is due in {self.key}")
            self.playoff.win(event.couple)

    def _after_step(self) -> None:
        if self.method == "play-off" and not self.must_answer() and self.playoff is None:
            players = self.players()
            self.playoff = Playoff(players, min(len(self.prizes), len(players)), self.lowest)
            rest = self.forfeits()
            if len(rest) > 1 and len(players) < len(self.prizes):
                self.forfeit_cut = cut_deck(self.seed, f"{self.key}/forfeit", rest)

    def start(self) -> None:
        """Set up what a fixed policy needs before any event (a play-off's answers)."""
        self._after_step()


@dataclass(frozen=True)
class Award:
    """A prize and who takes it: several couples share it after a split."""

    prize: int
    couples: tuple[int, ...]
    how: str  # outright, split, cut, play-off


def awards(levels: Sequence[Level], contests: dict[str, Contest]) -> list[Award]:
    """The prizes decided so far, best first (a contest still open gives none)."""
    out = []
    for lv in levels:
        if not lv.contested:
            out.append(Award(lv.prizes[0], lv.couples, "outright"))
            continue
        ct = contests[contest_key(lv)]
        if ct.shared:
            out.extend(Award(p, lv.couples, "split") for p in lv.prizes)
        elif ct.order is not None:
            out.extend(Award(p, (c,), ct.method or "")
                       for p, c in zip(lv.prizes, ct.order, strict=False))
    return sorted(out, key=lambda a: (a.prize == BOOBY, a.prize))


def contest_key(level: Level) -> str:
    """A contest's name: ``prize-P`` after its best prize, or ``booby``."""
    return "booby" if level.prizes == (BOOBY,) else f"prize-{level.prizes[0]}"
