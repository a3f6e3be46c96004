"""The ``specextract`` command group: one error style, complete help.

Every error, a usage error or a library error, is one line on stderr,
``specextract: error: <problem>``, with exit status 2 for usage errors (and errors whose
``exit_code`` says so: a locked store, a malformed --reference) and 1 otherwise. The list of
commands in ``--help`` shows each command's whole first sentence, wrapped, never cut.
"""
from __future__ import annotations

import os
import sys

import click

from .. import __version__
from ..errors import SpecExtractError

PROG = "specextract"
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def fail(message: str, code: int = 1) -> None:
    """Print ``specextract: error: message`` and exit with ``code``."""
    click.echo(f"{PROG}: error: {message}", err=True)
    sys.exit(code)


class Group(click.Group):
    """Turns errors into one clean line (see the module) and lists commands uncut."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        try:
            code = super().main(args, prog_name or PROG, complete_var, standalone_mode=False,
                                **extra)
        except click.UsageError as exc:
            hint = (f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else "")
            return self._end(f"{exc.format_message()}{hint}", exc.exit_code, standalone_mode)
        except click.ClickException as exc:
            return self._end(exc.format_message(), exc.exit_code, standalone_mode)
        except click.Abort:
            return self._end("interrupted", 130, standalone_mode)
        if standalone_mode:
            sys.exit(code if isinstance(code, int) else 0)
        return code

    @staticmethod
    def _end(message: str, code: int, standalone_mode: bool):
        click.echo(f"{PROG}: error: {message}", err=True)
        if standalone_mode:
            sys.exit(code)
        return code

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SpecExtractError as exc:
            fail(str(exc), getattr(exc, "exit_code", 1))
        except BrokenPipeError:   # the reader went away (| head): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            fail(f"{where}{exc.strerror or exc}", 1)

    def format_commands(self, ctx, formatter):
        rows = [(name, self.get_command(ctx, name).get_short_help_str(limit=10_000))
                for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=Group, context_settings=CONTEXT)
@click.version_option(__version__, prog_name=PROG)
def cli() -> None:
    """Extract AI-accelerator spec claims from articles and check them.

    Every command reads standard input where it takes a file named "-", and writes
    standard output for "-o -". Errors are one line, "specextract: error: ...", exit status
    2 for usage errors, 1 otherwise.

    \b
    Example:
      specextract run corpus --out out
      specextract export --db out/specextract.db --verdict contradicted -o wrong.csv
      cat article.txt | specextract extract -
    """
