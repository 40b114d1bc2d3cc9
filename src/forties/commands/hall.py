"""The ``forties hall`` commands (registered by ``forties.cli``): simulate a whole
45-Card-Games evening, and print the cards of a saved one."""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Any

import click

from ..command_line import (
    InputFile,
    OutputFile,
    fail,
    open_ray,
    parse_options,
    rate_line,
    ray_option,
    rules_file_option,
    rules_from_cli,
    write_file,
)
from ..hall.draw import METHOD, commitment
from ..hall.evening import Hall
from ..hall.events import HallError
from ..hall.export import export_json, results_csv, standings_csv
from ..hall.home import Ante, HomeEvening, play_ante, play_home
from ..hall.printing import punch_cards_html, table_cards_html
from ..hall.prizes import BOOBY, Contest
from ..hall.settings import JAR_RULES, MAX_GAMES, MAX_PRIZES, PLACES, TIE_BREAKS, Settings
from ..hall.simulate import Simulation, simulate
from ..hall.words import LANGUAGES, prize_name
from ..players import LEVELS
from ..rules import PRESETS

HALL_PRESET = "nova-scotia"  # the game of the Cape Breton halls


def _levels(players: str) -> list[str]:
    """The computer players named by ``--players``: one level, or a list given in turn."""
    levels = [p.strip() for p in players.split(",") if p.strip()]
    bad = [p for p in levels if p not in LEVELS]
    if not levels or bad:
        fail(f"unknown player {bad[0] if bad else players!r}; players: {', '.join(LEVELS)}")
    return levels


@click.group()
def hall() -> None:
    """The 45-Card-Games evening: couples, tables, punch cards and prizes.

    \b
    Examples:
      forties hall simulate --couples 100 --games 25 --players basic
      forties hall cards evening.json --lang fr -o cards.html
    """


@hall.command("simulate")
@click.option("--couples", type=click.IntRange(2, 2000), default=20, show_default=True,
              help="Couples playing.")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=25, show_default=True,
              help="Games in the evening.")
@click.option("--players", default="basic", show_default=True,
              help="Computer players, given to the couples in turn: one level or a list "
                   "(basic,random). Levels: " + ", ".join(LEVELS) + ".")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed for the deals and every draw.")
@click.option("--preset", "-p", default=None,
              help="Rules preset: " + ", ".join(PRESETS) + f" (default {HALL_PRESET}, or the "
                   "preset of --rules).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Override one option of the preset (repeatable).")
@rules_file_option
@click.option("--prizes", type=click.IntRange(0, MAX_PRIZES), default=3, show_default=True,
              help="Prizes, to the couples with the most games.")
@click.option("--places", type=click.Choice(PLACES), default="score-levels",
              show_default=True, help="How tied couples share the prizes out.")
@click.option("--tie-break", type=click.Choice(TIE_BREAKS), default="vote",
              show_default=True, help="How ties are broken (vote: the couples choose).")
@click.option("--bye-wins/--bye-loses", default=True, show_default=True,
              help="Whether a game sat out counts as won.")
@click.option("--cookie-jar", type=click.IntRange(min=0), default=0, show_default=True,
              help="Games drawn for the cookie jar (0: none).")
@click.option("--cookie-jar-rule", type=click.Choice(JAR_RULES), default="all",
              show_default=True, help="Won by winning all the drawn games, or the most.")
@click.option("--booby", is_flag=True, help="A booby prize for the fewest games.")
@click.option("--duplicate", is_flag=True,
              help="The same deals at every table of a game; prizes by matchpoints.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes playing the tables of a game.")
@ray_option
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="Lines of the standings to print (0: all).")
@click.option("--json", "json_path", type=OutputFile(), default=None,
              help="Write the evening and everything derived from it as JSON here.")
@click.option("--csv", "csv_path", type=OutputFile(), default=None,
              help="Write the standings as CSV here (and the results beside it).")
@click.option("--cards", "cards_path", type=OutputFile(), default=None,
              help="Write the punch cards as a printable HTML page here.")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="Language of the printed cards.")
def simulate_command(couples: int, games: int, players: str, seed: int | None,
                     preset: str | None, options: tuple[str, ...], rules_file: str | None,
                     prizes: int, places: str, tie_break: str, bye_wins: bool, cookie_jar: int,
                     cookie_jar_rule: str, booby: bool, duplicate: bool, jobs: int,
                     ray_address: str | None, top: int, json_path: str | None,
                     csv_path: str | None, cards_path: str | None, lang: str) -> None:
    """A whole evening played by computer players: the standings, the prizes (ties walked
    through), and a check of every rule of the evening. Exit status 1 if a check fails.

    \b
    Examples:
      forties hall simulate --couples 100 --games 25 --players basic
      forties hall simulate --couples 15 --games 10 --booby --cookie-jar 4 --seed 7
      forties hall simulate --couples 24 --duplicate -p auction-45 --json evening.json
      forties hall simulate --couples 400 --games 25 --ray 10.0.0.5:6379
    """
    levels = _levels(players)
    rules = rules_from_cli(preset if preset or rules_file else HALL_PRESET, options,
                           rules_file)
    if seed is None:
        seed = secrets.randbits(32)
    try:
        settings = Settings(games=games, rules=rules, prizes=prizes, places=places,
                            tie_break=tie_break, bye_wins=bye_wins, cookie_jar=cookie_jar,
                            cookie_jar_rule=cookie_jar_rule, booby=booby, duplicate=duplicate,
                            seed=seed)
    except HallError as e:
        fail(str(e))
    pool = open_ray(ray_address, jobs)
    try:
        if sys.stderr.isatty():
            with click.progressbar(length=games, label="games", file=sys.stderr) as bar:
                sim = simulate(couples, settings, levels, jobs=jobs, progress=bar.update,
                               ray=pool)
        else:
            sim = simulate(couples, settings, levels, jobs=jobs, ray=pool)
    finally:
        if pool is not None:
            pool.close()
    click.echo(report_text(sim, top))
    if json_path:
        write_file(json_path, json.dumps(export_json(sim.hall), indent=1) + "\n")
    if csv_path:
        write_file(csv_path, standings_csv(sim.hall))
        p = Path(csv_path)
        write_file(str(p.with_name(p.stem + "-results" + p.suffix)), results_csv(sim.hall))
    if cards_path:
        write_file(cards_path, punch_cards_html(sim.hall, lang))
    sys.exit(0 if sim.ok else 1)


def _couple(hall: Hall, c: int) -> str:
    return f"couple {c} ({hall.couples[c].label})"


def _score(hall: Hall, x: Any) -> str:
    if hall.settings.duplicate:
        return f"{float(x):.1f} matchpoints"
    return f"{int(x)} game{'' if x == 1 else 's'}"


def contest_lines(hall: Hall, ct: Contest) -> list[str]:
    """A tie walked through, for the director to read out."""
    prizes = " and ".join(prize_name("en", p) for p in ct.prizes)
    head = (f"Tie for the {prizes} between couples {', '.join(map(str, ct.couples))} "
            f"on {_score(hall, ct.score)}:")
    out = [head]
    if ct.votes:
        out.append("  votes: " + ", ".join(f"couple {c} {v}" for c, v in ct.votes.items()))
    if ct.method:
        out.append(f"  settled by a {ct.method}")
    if ct.answers:
        out.append("  asked to play off: " + ", ".join(
            f"couple {c} {'plays' if v else 'forfeits'}" for c, v in ct.answers.items()))
    for cut in (ct.cut, ct.forfeit_cut):
        if cut is not None:
            out.append(f"  cut of the deck (draw {cut.name}, low card wins): " + ", ".join(
                f"couple {c} {' then '.join(cards)}" for c, cards in cut.draws))
    if ct.playoff is not None:
        for a, b, w in ct.playoff.games:
            out.append(f"  play-off: couple {w} beat couple {b if w == a else a}")
    if not ct.decided:
        out.append(f"  waiting for {ct.waiting_for()}")
    return out


def report_text(sim: Simulation, top: int) -> str:
    """What ``forties hall simulate`` prints."""
    hall = sim.hall
    s = hall.settings
    tables = len(hall.seatings[0].tables) if hall.seatings else 0
    lines = [f"45-Card-Games: {len(hall.couples)} couples at {tables} tables, {hall.games} "
             f"games of {s.rules.preset}{' (duplicate)' if s.duplicate else ''}, players "
             f"{', '.join(sorted(set(sim.levels.values())))}, seed {s.seed}",
             rate_line(sim.games_played, f"games ({sim.hands_played} hands)", sim.seconds,
                       sim.where), ""]
    table = hall.standings()
    shown = table if top <= 0 else table[:top]
    lines.append(f"Standings{'' if len(shown) == len(table) else f' (top {len(shown)})'}:")
    what = "Matchpoints" if s.duplicate else "Games"
    lines.append(f"  {'Place':>5}  {'Couple':>6}  {'Names':<30} {what:>11}")
    for st in shown:
        score = f"{float(st.score):.1f}" if s.duplicate else str(st.wins)
        lines.append(f"  {st.place:>5}  {st.couple:>6}  {hall.couples[st.couple].label:<30} "
                     f"{score:>11}")
    lines += ["", "Prizes:"]
    scores = {st.couple: st.score for st in table}
    split: set[tuple[int, ...]] = set()
    for a in hall.awards():
        who = " and ".join(_couple(hall, c) for c in a.couples)
        score = _score(hall, scores[a.couples[0]])
        if a.how == "split":
            if a.couples not in split:
                split.add(a.couples)
                shared = [prize_name("en", x.prize) for x in hall.awards()
                          if x.couples == a.couples and x.how == "split"]
                lines.append(f"  {', '.join(shared)}: split between {who}, {score} each")
            continue
        how = "" if a.how == "outright" else f", by {a.how}"
        lines.append(f"  {prize_name('en', a.prize)}: {who}, {score}{how}")
    for ct in hall.contests().values():
        lines += ["  " + x for x in contest_lines(hall, ct)]
    jar = hall.cookie_jar()
    if jar is not None:
        games = " ".join(map(str, jar.games))
        if jar.winners:
            who = " and ".join(_couple(hall, c) for c in jar.winners)
            share = ", shared" if len(jar.winners) > 1 else ""
            lines.append(f"  Cookie jar (games {games}): {who}{share}, {jar.best} of "
                         f"{len(jar.games)}")
        else:
            lines.append(f"  Cookie jar (games {games}): nobody won all of them (best "
                         f"{jar.best}): it carries over")
    if s.booby and not any(a.prize == BOOBY for a in hall.awards()) and \
            "booby" not in hall.contests():
        lines.append("  Booby prize: nobody played the whole evening outside the prizes")
    lines += ["", "Checks:"]
    lines += [f"  {'ok' if c.ok else 'FAILED'}: {c.name} ({c.detail})" for c in sim.checks]
    lines += ["", f"Draws: seed {s.seed}, SHA-256 {commitment(s.seed)}.", f"  {METHOD}"]
    return "\n".join(lines)


@hall.command("cards")
@click.argument("evening", type=InputFile())
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True)
@click.option("--tables", is_flag=True, help="Print the table cards instead of punch cards.")
@click.option("--out", "-o", "out", type=OutputFile(), default=None,
              help="Write the HTML here (default: standard output).")
def cards_command(evening: str, lang: str, tables: bool, out: str | None) -> None:
    """Print the punch cards (or the table cards) of a saved evening as an HTML page.

    \b
    Examples:
      forties hall cards evening.json -o cards.html
      forties hall cards evening.json --tables --lang fr -o tables.html
    """
    try:
        text = Path(evening).read_text(encoding="utf-8-sig")  # a BOM is let be
    except OSError as e:
        fail(f"{evening}: cannot read: {e.strerror}")
    except UnicodeDecodeError:
        fail(f"{evening}: not a UTF-8 text file")
    try:
        obj = json.loads(text)
        if isinstance(obj, dict):  # an export carries the evening's own keys too
            obj = {k: obj[k] for k in ("format", "settings", "events") if k in obj}
        h = Hall.from_json(obj)
    except json.JSONDecodeError as e:
        fail(f"{evening}: not JSON: {e.msg} at line {e.lineno}")
    except HallError as e:
        fail(f"{evening}: {e}")
    html = table_cards_html(h, lang) if tables else punch_cards_html(h, lang)
    if out:
        write_file(out, html)
    else:
        click.echo(html, nl=False)


@hall.command("ante")
@click.option("--names", default="Ann,Bob,Cy,Di,Ed,Flo", show_default=True,
              help="The six players, in seat order (comma-separated).")
@click.option("--stake", type=click.IntRange(min=1), default=1, show_default=True,
              help="Each player's stake.")
@click.option("--players", default="basic", show_default=True,
              help="Computer players by seat, in turn: " + ", ".join(LEVELS) + ".")
@click.option("--seed", type=int, default=None, help="Seed for the deals.")
@click.option("--preset", "-p", default="nova-scotia", show_default=True)
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE")
def ante_command(names: str, stake: int, players: str, seed: int | None, preset: str,
                 options: tuple[str, ...]) -> None:
    """The six-player ante, played by computer players: two teams of three play a game,
    the three winners play cut-throat, and its winner takes the ante.

    \b
    Examples:
      forties hall ante --seed 4
      forties hall ante --names Ann,Bob,Cy,Di,Ed,Flo --stake 2 --players basic,random
    """
    levels = _levels(players)
    pairs = parse_options(options)
    try:
        a = Ante(tuple(n.strip() for n in names.split(",")), stake, preset, pairs)
        play_ante(a, secrets.randbits(32) if seed is None else seed, levels)
    except HallError as e:
        fail(str(e))
    team = a.finalists()
    assert a.winner is not None
    click.echo(f"Ante: {len(a.names)} players at {a.stake} each, {a.pot} in the pot")
    click.echo("Team game won by " + ", ".join(a.names[s] for s in team))
    click.echo(f"Cut-throat won by {a.names[a.winner]}, who takes the {a.pot}")


@hall.command("home")
@click.option("--couples", default="Ann & Bob,Cy & Di", show_default=True,
              help="The two couples (comma-separated, each 'name & name').")
@click.option("--matches", type=click.IntRange(1, 1000), default=3, show_default=True,
              help="Matches of best two games out of three.")
@click.option("--players", default="basic", show_default=True,
              help="Computer players by seat, in turn: " + ", ".join(LEVELS) + ".")
@click.option("--seed", type=int, default=None, help="Seed for the deals.")
@click.option("--preset", "-p", default="nova-scotia", show_default=True)
def home_command(couples: str, matches: int, players: str, seed: int | None,
                 preset: str) -> None:
    """A home evening: two couples of computer players play matches of best two games
    out of three, counting matches and games won.

    \b
    Examples:
      forties hall home --matches 5 --seed 2
    """
    levels = _levels(players)
    pairs = [tuple(x.strip() for x in c.split("&")) for c in couples.split(",")]
    if len(pairs) != 2 or any(len(p) != 2 or not all(p) for p in pairs):
        fail("--couples is two couples, each written 'name & name'")
    try:
        ev = HomeEvening(((pairs[0][0], pairs[0][1]), (pairs[1][0], pairs[1][1])), preset)
        play_home(ev, matches, secrets.randbits(32) if seed is None else seed, levels)
    except HallError as e:
        fail(str(e))
    label = [" & ".join(c) for c in ev.couples]
    for i, m in enumerate(ev.matches, 1):
        click.echo(f"Match {i}: {label[m.winner]} win {max(m.games)}-{min(m.games)}")
    t = ev.tally()
    click.echo(f"Matches: {label[0]} {t['matches'][0]}, {label[1]} {t['matches'][1]}; "
               f"games: {t['games'][0]} to {t['games'][1]}")
