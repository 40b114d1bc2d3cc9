"""What every ``forties`` command shares: a mistake is one line on standard error, never
a traceback; files to read and to write are checked before any work starts; the rules
come from a preset, a rules file and ``-o`` overrides."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click
from click.core import ParameterSource

from .record import Record, RecordError
from .rules import Rules, RulesError, build_rules, find_preset, load_rules_file

if TYPE_CHECKING:
    from .cluster import RayPool


def fail(message: str, status: int = 2) -> NoReturn:
    click.echo(f"forties: {message}", err=True)
    sys.exit(status)


class OneLineGroup(click.Group):
    """The ``forties`` group: a mistake on the command line (an unknown option, a number
    out of range, a file that is not there) is one line on standard error, exit status 2,
    instead of click's usage block."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as e:
            # An option's missing value is found before the command's context is made.
            where = e.ctx.command_path if e.ctx is not None else \
                self.command_path_of(sys.argv[1:] if args is None else list(args))
            message = e.format_message()
            if isinstance(e, click.MissingParameter) and e.param is not None:
                if isinstance(e.param, click.Argument):
                    name = e.param.human_readable_name.split("|")[0]
                    message = f"missing the {name} argument"
                else:
                    message = f"missing the option {max(e.param.opts, key=len)}"
            elif isinstance(e, click.BadParameter) and e.param is not None and \
                    isinstance(e.param.type, InputFile | OutputFile):
                opt = max(e.param.opts, key=len) if isinstance(e.param, click.Option) else ""
                fail(f"{opt + ' ' if opt else ''}{e.message}", e.exit_code)  # names the file
            command = where.partition(" ")[2]
            click.echo(f"forties: {command + ': ' if command else ''}{message} "
                       f"(see {where} --help)", err=True)
            sys.exit(e.exit_code)
        except click.ClickException as e:
            fail(e.format_message(), e.exit_code)
        except click.Abort:
            click.echo("forties: stopped", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


    def command_path_of(self, args: Sequence[str]) -> str:
        """The command that ``args`` name ("forties hall cards"): its subcommands' names,
        options before them skipped."""
        words = ["forties"]
        cmd: click.Command = self
        for a in args:
            if a.startswith("-"):
                continue
            sub = cmd.commands.get(a) if isinstance(cmd, click.Group) else None
            if sub is None:
                break
            words.append(a)
            cmd = sub
        return " ".join(words)


class InputFile(click.Path):
    """A file the command reads: it must be there and be a file (``-`` is standard input
    where the command allows it). Checked before any work starts."""

    def __init__(self, allow_dash: bool = False) -> None:
        super().__init__(dir_okay=False, allow_dash=allow_dash)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        text = os.fspath(value)
        if text == "-" and self.allow_dash:
            return text
        p = Path(text).expanduser()
        if p.is_dir():
            self.fail(f"{text} is a folder, not a file", param, ctx)
        if not p.is_file():
            self.fail(f"{text}: no such file", param, ctx)
        return str(p)


class OutputFile(click.Path):
    """A file the command writes: its folder is made if it is missing, and a path that
    cannot be written (a folder, a file where a folder should be) is refused before any
    work starts, never after a long run."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        text = os.fspath(value)
        p = Path(text).expanduser()
        if p.is_dir():
            self.fail(f"{text} is a folder, not a file", param, ctx)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            why = "a file is in the way" if isinstance(e, FileExistsError | NotADirectoryError) \
                else e.strerror
            self.fail(f"cannot make the folder {p.parent} for {text}: {why}", param, ctx)
        if not os.access(p.parent, os.W_OK):
            self.fail(f"cannot write in the folder {p.parent}", param, ctx)
        return str(p)


# Every command that plays a game by the rules names a house rules file the same way.
rules_file_option = click.option(
    "--rules", "rules_file", type=InputFile(), default=None,
    help="House rules file (TOML or JSON): preset and [options].")


def write_file(path: str, text: str) -> None:
    """Write an output file, or say in one line why it could not be written."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        fail(f"{path}: cannot write: {e.strerror}")


def given(ctx: click.Context, name: str) -> bool:
    """Whether the option ``name`` was given on the command line (not left at its default)."""
    return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for p in pairs:
        if "=" not in p:
            fail(f"option {p!r}: write it as NAME=VALUE")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


DEFAULT_PRESET = "merrimack-valley"


def rules_from_cli(preset: str | None, options: tuple[str, ...],
                   rules_file: str | None) -> Rules:
    """The rules the options name: a preset (default Merrimack Valley) or a rules file,
    and ``-o`` overrides; a preset that disagrees with the file's is refused."""
    try:
        if rules_file:
            base = load_rules_file(rules_file)
            if preset is not None and find_preset(preset).name != base.preset:
                fail(f"--preset {preset} disagrees with {rules_file}, which is for "
                     f"{base.preset}: leave out one of them")
            merged: dict[str, Any] = {k: v for k, v in base.overrides}
            merged.update(parse_options(options))
            return build_rules(base.preset, merged)
        return build_rules(preset or DEFAULT_PRESET, parse_options(options))
    except RulesError as e:
        fail(str(e))


def shown_path(path: str) -> str:
    return "<stdin>" if path == "-" else path


def read_record(path: str) -> Record:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as e:
        fail(f"{path}: cannot read: {e.strerror}")
    except UnicodeDecodeError:
        fail(f"{path}: not a UTF-8 text file")
    try:
        return Record.loads(text)
    except RecordError as e:
        fail(f"{shown_path(path)}: {e}")


LOCAL_RAY = "local"

ray_option = click.option(
    "--ray", "ray_address", is_flag=False, flag_value=LOCAL_RAY, default=None,
    metavar="[ADDRESS]",
    help="Play on a Ray cluster: the head's HOST:PORT (or auto, or ray://HOST:PORT); "
         "alone, a local cluster of --jobs CPUs for this run. Needs Ray "
         "(pip install -e '.[scale]'); the results are those of one machine.")


def open_ray(address: str | None, jobs: int) -> RayPool | None:
    """The Ray cluster ``--ray`` names (None without ``--ray``; Ray is imported only then),
    or one line saying why it cannot be used."""
    if address is None:
        return None
    from .cluster import ClusterError, RayPool

    try:
        return RayPool(None if address == LOCAL_RAY else address, cpus=jobs)
    except ClusterError as e:
        fail(str(e))


def rate_line(done: int, what: str, seconds: float, where: str) -> str:
    """The throughput, as the simulation commands report it: "24 games (300 hands) played
    in 2.0 s (12.00 a second) on one process"."""
    rate = f"{done / seconds:.2f} a second" if seconds > 0 else "at once"
    return f"{done} {what} played in {seconds:.1f} s ({rate}) on {where}"
