"""The `recordkit` command line: validate, replay, generate, convert, stats, schema, record."""

from __future__ import annotations

import gc
import io
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from recordkit.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from recordkit.archive.stats import UntrustedArchiveError
    from recordkit.convert.archive import ConvertReport
    from recordkit.sources import RawRecord
    from recordkit.validate import RecordReport, Settings

# Each command imports what it uses when it runs: pyarrow, NumPy and DuckDB (archives, stats) take
# about a third of a second to import, pydantic and the rulesets (records) a fifth, which `--help`,
# `--version` and the other commands need not pay.

app = typer.Typer(
    help="Record, replay and verify games of trick-taking card games (French Tarot, Charlemagne, "
    "Karnöffel, Joffre).\n\n"
    "Example: recordkit validate samples/french-tarot samples/charlemagne samples/karnoffel samples/joffre",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _version(shown: bool) -> None:
    """`--version`: the installed package's version, from its metadata."""
    if shown:
        from importlib import metadata

        try:
            version = metadata.version("recordkit")
        except metadata.PackageNotFoundError:
            from recordkit import __version__ as version
        out.print(f"recordkit {version}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = False,
) -> None:
    """Record, replay and verify games of trick-taking card games."""


@app.command()
def validate(
    paths: Annotated[list[str], typer.Argument(help="Record files (.json, .jsonl) or directories of them.")],
    lenient: Annotated[
        bool, typer.Option("--lenient", help="Unknown keys are warnings; warnings do not fail.")
    ] = False,
    game: Annotated[str | None, typer.Option(help="Expect records of this game only.")] = None,
    output: Annotated[
        str,
        typer.Option(
            "--format",
            help="text for people (the first 1,000 diagnostics of each file, then a line counting "
            "the rest), jsonl for machines (every diagnostic).",
        ),
    ] = "text",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the summary line.")] = False,
    violations: Annotated[
        bool, typer.Option("--violations", help="Write an archive's diagnostics as its `violations` table.")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0, help="Processes to use; 0 means one per core.")
    ] = 1,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Validate on a Dask cluster: a scheduler's address (tcp://host:8786), or local "
            "for a local cluster of --jobs worker processes (needs recordkit\\[dask])."
        ),
    ] = None,
    source: Annotated[
        str | None, typer.Option("--from", help="Read other programs' logs instead: tarotclub.")
    ] = None,
) -> None:
    """Replay every record through the rules and report every violation.

    PATHS may be record files, directories of them, or Parquet archives.
    Exit status: 0 clean, 1 violations found, 2 input unusable (not JSON, unknown version...).

    As text, the first 1,000 diagnostics of a file are printed, and one line counts the rest.
    The summary and the exit status count every one; --format jsonl writes every one.

    Example: recordkit validate samples/french-tarot games.jsonl --format jsonl
    """
    from recordkit.validate import Settings

    if output not in ("text", "jsonl"):
        raise typer.BadParameter("--format is text or jsonl")
    settings = Settings(strict=not lenient, game=game)
    jobs = jobs or os.cpu_count() or 1
    if source is not None:
        if scheduler is not None:
            raise typer.BadParameter("--from reads logs on this machine, not on a cluster")
        _validate(paths, _log_validator(_source(source), settings), settings, output, quiet, violations)
    try:
        with _validator(settings, jobs, scheduler) as check:
            _validate(paths, check, settings, output, quiet, violations)
    except _cluster_errors(scheduler) as error:
        err.print(f"[red]{escape(str(error))}")
        raise typer.Exit(2) from None


def _collect_for_streams() -> None:
    """Tune the process's garbage collector for streams of records: parsing them allocates
    thousands of dicts and lists, none in a cycle, and at the default threshold (700) the
    collector runs every few hundred of them and walks every object alive, the modules' too. What
    is loaded at start-up is never garbage (frozen), and the youngest generation is collected
    every 50,000 allocations: 14% of a 20,000-deal validation (farm-bench, 2026-12-04). Cycles
    are still collected. Only the script's process: the library leaves the collector alone."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


Validator = Callable[[list[str]], Iterator["RecordReport | Diagnostic"]]
"""What validating some paths finds, in order: on this machine or on a Dask cluster."""


@contextmanager
def _validator(settings: Settings, jobs: int, scheduler: str | None) -> Iterator[Validator]:
    """`validate_inputs` on `jobs` processes, or the same on the Dask cluster at `scheduler`."""
    from recordkit.inputs import validate_inputs

    if scheduler is None:
        yield lambda paths: validate_inputs(paths, settings, jobs)
        return
    from recordkit.cluster import connect, validate_on_cluster

    with connect(scheduler, jobs) as client:
        yield lambda paths: validate_on_cluster(paths, settings, client)


def _cluster_errors(scheduler: str | None) -> tuple[type[Exception], ...]:
    """What a run on the cluster at `scheduler` may fail with (`ClusterError`); nothing without
    one, so that validating on this machine does not import the cluster's module."""
    if scheduler is None:
        return ()
    from recordkit.cluster import ClusterError

    return (ClusterError,)


def _source(name: str) -> str:
    """The program named by `--from` or `import`, if recordkit reads its logs."""
    from recordkit.importers import SOURCES

    if name.lower() not in SOURCES:
        raise typer.BadParameter(f"recordkit reads the logs of {', '.join(SOURCES)}, not {name}")
    return name.lower()


def _log_validator(source: str, settings: Settings) -> Validator:
    """`validate --from SOURCE`: each log read as a record of its own deal, then validated."""
    from recordkit.importers.tarotclub import log_records
    from recordkit.importers.write import log_files
    from recordkit.validate import validate_items

    return lambda paths: validate_items(log_records(log_files(paths)), settings, findings_only=True)


FORMS = ("full", "tricks", "sheet")
"""The forms `generate --form` writes (recordkit.generate.Form)."""

TALLY = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.INFO: "notes"}
COLOURS = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _validate(
    paths: list[str], check: Validator, settings: Settings, output: str, quiet: bool, violations: bool
) -> None:
    """Print what is found and the summary; exit 0 clean, 1 violations, 2 input unusable."""
    from recordkit.progress import count_records, progress_bar, shows_progress
    from recordkit.validate import RecordReport

    if violations:
        _write_violations(paths, check)
    files: set[str | None] = set()
    counts = {"records": 0, "deals": 0, "errors": 0, "warnings": 0, "notes": 0}
    unusable = False
    shown = shows_progress(err, quiet)
    printer = Printer(output)
    with progress_bar(err, "validating", count_records(paths) if shown else None, shown) as tally:
        for seen, item in enumerate(check(paths), start=1):
            diagnostics = [item] if isinstance(item, Diagnostic) else item.diagnostics
            if isinstance(item, RecordReport):
                counts["records"] += 1
                counts["deals"] += item.deals
                files.add(item.location.file)
            for diagnostic in diagnostics:
                files.add(diagnostic.location.file)
                unusable |= diagnostic.unusable
                counts[TALLY[diagnostic.severity]] += 1
                if not quiet:
                    printer.show(diagnostic)
            tally(seen, counts["deals"])
    printer.finish()
    failed = counts["errors"] > 0 or (settings.strict and counts["warnings"] > 0)
    summary = (
        f"{len(files)} file(s), {counts['records']} record(s), {counts['deals']} deal(s): "
        f"{counts['errors']} error(s), {counts['warnings']} warning(s)"
        + (f", {counts['notes']} note(s)" if counts["notes"] else "")
    )
    if output == "text":
        err.print(("[red]" if failed else "[green]") + summary)
    raise typer.Exit(2 if unusable else 1 if failed else 0)


FILE_SHOWN = 1_000
"""The most diagnostics of one file printed as text: a file of 200,000 bad lines gives 1,000 lines
and one that counts the rest, not 29 MB (`--format jsonl` writes every one, for machines)."""


class Printer:
    """Prints a run's diagnostics as `_print_diagnostic` does: in text the first FILE_SHOWN of
    each file, and, once the run moves on from a file (or ends), one line counting the rest."""

    def __init__(self, output: str) -> None:
        self.output = output
        self.printed: dict[str | None, int] = {}
        self.hidden: dict[str | None, int] = {}
        """The diagnostics of each file not printed since its last counting line."""
        self.file: str | None = None

    def show(self, diagnostic: Diagnostic) -> None:
        """Print one diagnostic, or count it among its file's rest."""
        if self.output != "text":
            _print_diagnostic(diagnostic, self.output)
            return
        file = diagnostic.location.file
        if file != self.file:
            self.finish()
            self.file = file
        printed = self.printed.get(file, 0)
        if printed < FILE_SHOWN:
            self.printed[file] = printed + 1
            _print_diagnostic(diagnostic, "text")
        else:
            self.hidden[file] = self.hidden.get(file, 0) + 1

    def finish(self) -> None:
        """One line for each file with diagnostics not printed: how many."""
        for file, count in self.hidden.items():
            out.print(
                f"[yellow]{escape(file or '<input>')}: and {count:,} more diagnostic(s) (only the first "
                f"{FILE_SHOWN:,} of a file are printed; --format jsonl writes every one)[/yellow]"
            )
        self.hidden.clear()


def _write_violations(paths: list[str], check: Validator) -> None:
    """Validate each archive and store its diagnostics beside its tables (atomically)."""
    from recordkit.archive import is_archive
    from recordkit.archive.store import replace_table
    from recordkit.archive.tables import VIOLATIONS
    from recordkit.inputs import violation_batches
    from recordkit.validate import RecordReport

    for name in paths:
        archive = Path(name)
        if not is_archive(archive):
            err.print(f"[red]--violations needs an archive; {escape(name)} is not one")
            raise typer.Exit(2)
        reports = (r for r in check([name]) if isinstance(r, RecordReport))
        replace_table(archive, "violations", violation_batches(reports), VIOLATIONS)
        err.print(f"wrote {escape(str(archive / 'violations'))}")


def _print_diagnostic(diagnostic: Diagnostic, output: str) -> None:
    """One diagnostic on standard output: a coloured line, or a JSON object."""
    if output == "jsonl":
        import orjson

        sys.stdout.write(orjson.dumps(diagnostic.as_dict()).decode() + "\n")
    else:
        colour = COLOURS[diagnostic.severity]
        out.print(f"[{colour}]{escape(diagnostic.text())}[/{colour}]", markup=True)


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(help="A record file.")],
    deal: Annotated[int, typer.Option(help="Deal number, from 1.")] = 1,
    record: Annotated[int, typer.Option(help="Record number in the file, from 1.")] = 1,
    hands: Annotated[bool, typer.Option("--hands", help="Each seat's hand before each trick too.")] = False,
) -> None:
    """Show one deal trick by trick: the dealt groups, calls and contract, who led, the cards, who
    won, the running card points as the rules count them, and the score with its working.

    Hands the record leaves out are shown as derived from the tricks; a score sheet's line shows
    its facts and scores.

    Example: recordkit replay samples/french-tarot/club-evening-4p.json --deal 2 --hands
    """
    from recordkit.validate import Settings, validate_record
    from recordkit.view.model import record_model
    from recordkit.view.terminal import show_deal

    raw, notes = _nth_record(path, record)
    report = validate_record(raw, Settings(strict=False))
    for diagnostic in notes + report.diagnostics:
        if diagnostic.location.deal in (None, deal):
            _print_diagnostic(diagnostic, "text")
    if report.record is None:
        raise typer.Exit(2)
    model = record_model(report, raw.data, only=deal)
    deals = model["deals"]
    if not model["cards"]:  # no table: the options or the players are wrong
        err.print("[red]the record's options or players leave nothing to replay (see the errors above)")
        raise typer.Exit(2)
    if not 1 <= deal <= len(deals):
        err.print(f"[red]the record has {len(deals)} deal(s); there is no deal {deal}")
        raise typer.Exit(2)
    if deals[deal - 1]["kind"] == "unread":
        err.print(f"[red]deal {deal} cannot be read, so it cannot be replayed (see the errors above)")
        raise typer.Exit(2)
    show_deal(out, model, deal, hands)
    failed = any(d.severity == Severity.ERROR and d.location.deal == deal for d in report.diagnostics)
    raise typer.Exit(1 if failed else 0)


@app.command()
def view(
    path: Annotated[Path, typer.Argument(help="A record file.")],
    deal: Annotated[int | None, typer.Option(help="Open the page at this deal (from 1).")] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="The page to write; the record's name with .html by default."),
    ] = None,
    record: Annotated[int, typer.Option(help="Record number in the file, from 1.")] = 1,
    lenient: Annotated[
        bool, typer.Option("--lenient", help="Unknown keys are warnings; warnings do not fail.")
    ] = False,
) -> None:
    """Write one self-contained HTML page of a record: the score sheet, and each deal as the table
    seen from above, trick by trick (buttons and arrow keys), with every diagnostic pinned to its
    card, call or score. No network: it opens from a file or an e-mail attachment.

    A part with an unknown key is shown all the same, the key pinned as an error (--lenient: a warning).
    Exit status as for validate: 0 clean, 1 violations found, shown in the page (warnings too, strictly).
    2 input unusable.

    Example: recordkit view samples/french-tarot/club-evening-4p.json --deal 1 -o evening.html
    """
    from recordkit.sources import write_atomic
    from recordkit.view.model import record_model, view_report
    from recordkit.view.page import render

    raw, notes = _nth_record(path, record)
    report = view_report(raw, strict=not lenient)
    report.diagnostics = notes + report.diagnostics
    if report.record is None:
        for diagnostic in report.diagnostics:
            _print_diagnostic(diagnostic, "text")
        raise typer.Exit(2)
    model = record_model(report, raw.data)
    if deal is not None and not 1 <= deal <= len(model["deals"]):
        err.print(f"[red]the record has {len(model['deals'])} deal(s); there is no deal {deal}")
        raise typer.Exit(2)
    target = output if output is not None else path.with_suffix(".html")
    write_atomic(target, render(model, deal))
    errors = sum(d.severity == Severity.ERROR for d in report.diagnostics)
    warnings = sum(d.severity == Severity.WARNING for d in report.diagnostics)
    pinned = ", ".join(
        f"{count} {kind}" for count, kind in ((errors, "error(s)"), (warnings, "warning(s)")) if count
    )
    err.print(f"wrote {escape(str(target))}" + (f" ({pinned} pinned in it)" if pinned else ""))
    raise typer.Exit(1 if errors or (warnings and not lenient) else 0)


def _nth_record(path: Path, number: int) -> tuple[RawRecord, list[Diagnostic]]:
    """Record number `number` (from 1) of a file, and the warnings about the file met before it
    (a byte-order mark, skipped as every reader skips it); exit 2 if it has none or it cannot be
    read."""
    from recordkit.reading import read_records
    from recordkit.sources import parsed

    notes: list[Diagnostic] = []
    index = 0
    for raw in read_records(path):
        item = parsed(raw)
        if isinstance(item, Diagnostic) and item.severity != Severity.ERROR:
            notes.append(item)
            continue
        index += 1
        if index == number:
            if isinstance(item, Diagnostic):
                _print_diagnostic(item, "text")
                raise typer.Exit(2)
            return item, notes
    err.print(f"[red]{escape(str(path))} has no record {number}")
    raise typer.Exit(2)


@app.command()
def generate(
    game: Annotated[str, typer.Argument(help="Game name, e.g. french-tarot.")],
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    deals: Annotated[int, typer.Option(help="Deals per record.")] = 5,
    records: Annotated[int, typer.Option(help="Number of records (games).")] = 1,
    seed: Annotated[int, typer.Option(help="Random seed; the same seed gives the same games.")] = 1,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Variant option NAME=VALUE.")
    ] = None,
    variant: Annotated[
        str | None, typer.Option(help="Shorthand for -o variant=NAME (Charlemagne: maine).")
    ] = None,
    out_path: Annotated[
        Path | None, typer.Option("--out", help="Output file (.json, .jsonl, or .rkn for the notation).")
    ] = None,
    to: Annotated[
        str | None,
        typer.Option("--to", help="json or text (the notation); by default the --out extension decides."),
    ] = None,
    form: Annotated[
        str,
        typer.Option(
            help="What each deal writes: full (hands and all), tricks (calls and tricks, no hands) "
            "or sheet (the score sheet's line only)."
        ),
    ] = "full",
    uniform: Annotated[
        bool,
        typer.Option(
            "--random",
            help="Choose every legal action at random (as the property tests do) instead of playing "
            "like a club player, who bids from his hand's strength and plays a reasonable card.",
        ),
    ] = False,
) -> None:
    """Generate legal games, scored by the rules, played by heuristic players (or at random).

    Examples: recordkit generate french-tarot --players 5 --records 100 --out games.jsonl ;
    recordkit generate charlemagne --variant maine ; recordkit generate joffre --form tricks ;
    recordkit generate french-tarot -o all_pass=goulash -o misere=true ;
    recordkit generate joffre --to text (the notation, spec/NOTATION.md)
    """
    from recordkit.codec import dumps
    from recordkit.games import RULESETS
    from recordkit.generate import generate_record
    from recordkit.progress import progress_bar
    from recordkit.sources import write_atomic

    ruleset = RULESETS.get(game)
    if ruleset is None:
        err.print(f"[red]unknown game {escape(repr(game))}; recordkit knows: {', '.join(RULESETS)}")
        raise typer.Exit(2)
    options = _options(option or [], variant, ruleset)
    games = []
    made = 0
    try:
        if form not in FORMS:
            raise ValueError(f"--form is one of {', '.join(FORMS)}, not {form!r}")
        if to not in (None, "json", "text"):
            raise ValueError(f"--to is json or text, not {to!r}")
        with progress_bar(err, "generating", records, out_path is not None) as tally:
            for index in range(records):
                games.append(
                    generate_record(
                        ruleset,
                        players,
                        deals,
                        seed + index,
                        options,
                        form,  # type: ignore[arg-type]
                        "random" if uniform else "heuristic",
                    )
                )
                made += len(games[-1].deals)
                tally(index + 1, made)
    except ValueError as error:
        err.print(f"[red]{escape(str(error))}")
        raise typer.Exit(2) from None
    if (to or ("text" if out_path is not None and out_path.suffix.lower() == ".rkn" else "json")) == "text":
        text = "\n".join(dumps(g, form="text") for g in games)
    elif out_path is not None and out_path.suffix == ".json" and records == 1:
        text = dumps(games[0], indent=True)
    else:
        text = "".join(dumps(g) + "\n" for g in games)
    if out_path is None:
        sys.stdout.write(text)
    else:
        write_atomic(out_path, text.encode())
        err.print(f"wrote {records} record(s) to {escape(str(out_path))}")


def _options(pairs: list[str], variant: str | None, ruleset: Any) -> dict[str, Any]:
    """The `-o NAME=VALUE` options (and `--variant`) the game takes; exit 2, saying what is
    wrong in words (the option, the values it takes, the nearest one), if it does not."""
    from recordkit.options_text import OptionError, check_options, parse_options

    try:
        options = parse_options(pairs)
        if variant is not None:
            options["variant"] = variant
        check_options(ruleset.title, ruleset.Options, options)
    except OptionError as error:
        for line in str(error).splitlines():
            err.print(f"[red]{escape(line)}")
        raise typer.Exit(2) from None
    return options


@app.command()
def convert(
    inputs: Annotated[
        list[str], typer.Argument(help="Record files or directories, or one archive; then OUTPUT.")
    ],
    append: Annotated[bool, typer.Option("--append", help="Add the records to an existing archive.")] = False,
    replace: Annotated[bool, typer.Option("--replace", help="Replace an existing archive.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Write nothing if any record is skipped.")] = False,
    keep_invalid: Annotated[
        bool,
        typer.Option(
            "--keep-invalid",
            help="Archive records that break a rule too, as written (validate --violations then "
            "stores what is wrong); without it they are skipped, and said.",
        ),
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0, help="Processes to use; 0 means one per core.")
    ] = 1,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Build the archive on a Dask cluster: a scheduler's address (tcp://host:8786), or "
            "local for a local cluster of --jobs worker processes (needs recordkit\\[dask])."
        ),
    ] = None,
    source: Annotated[
        str | None,
        typer.Option(
            "--from", help="The inputs are other programs' logs: tarotclub (as `recordkit import`)."
        ),
    ] = None,
) -> None:
    """Convert records to a Parquet archive, an archive back to JSON lines, or records to text.

    The last argument is the output: a directory for an archive, a .jsonl file for records.
    Only records that validate go into an archive (--keep-invalid for all that can be read); each
    record skipped is named. Writes are atomic: an interrupted conversion leaves the previous
    archive as it was.

    A .rkn output writes the records as text in the notation (spec/NOTATION.md), a .json or
    .jsonl output from record files converts them to JSON; inputs may be text in the notation.

    Examples: recordkit convert samples/french-tarot samples/joffre out/archive ;
    recordkit convert out/archive back.jsonl ; recordkit convert game.rkn game.json ;
    recordkit convert out/archive evening.rkn
    """
    from recordkit.archive import ArchiveError, read_manifest
    from recordkit.cluster import ClusterError
    from recordkit.convert.archive import from_archive
    from recordkit.progress import count_records, progress_bar, shows_progress

    if len(inputs) < 2:
        raise typer.BadParameter("give the inputs and then the output")
    *sources, target = inputs
    output = Path(target)
    if source is not None:
        if append or replace or strict:
            raise typer.BadParameter("--from writes a new output: no --append, --replace or --strict")
        _import(_source(source), sources, output, keep_invalid)
    shown = shows_progress(err)
    if scheduler is not None and (_record_output(sources, output) or output.suffix.lower() in JSON_OUTPUTS):
        raise typer.BadParameter("--scheduler builds archives; give a folder as the output")
    if _record_output(sources, output):
        _convert_records(sources, output)
        return
    try:
        if output.suffix.lower() in JSON_OUTPUTS:
            if len(sources) != 1:
                raise ArchiveError("converting back takes exactly one archive")
            manifest = read_manifest(Path(sources[0]))
            with progress_bar(err, "converting", manifest.games, deals=False) as tally:
                report = from_archive(Path(sources[0]), output, tally)
            for diagnostic in report.skipped:
                err.print(f"[red]{escape(diagnostic.text())}")
            err.print(f"wrote {report.records} record(s) to {escape(str(output))}")
            if report.skipped:
                raise typer.Exit(2)
            return
        with (
            _archive_builder(scheduler, jobs or os.cpu_count() or 1) as build,
            progress_bar(err, "converting", count_records(sources) if shown else None) as tally,
        ):
            report = build(
                sources,
                output,
                append=append,
                replace=replace,
                strict=strict,
                progress=tally,
                valid_only=not keep_invalid,
            )
    except (ArchiveError, ClusterError) as error:
        err.print(f"[red]{escape(str(error))}")
        raise typer.Exit(2) from None
    skipped = _skipped(report.skipped)
    err.print(
        f"wrote {report.records} record(s), {report.deals} deal(s) to {escape(str(output))}"
        + (f"; skipped {skipped} (recordkit validate shows why)" if skipped else "")
    )


JSON_OUTPUTS = (".jsonl", ".ndjson", ".json")
"""The outputs `convert` writes records to as JSON (an archive converted back)."""


@contextmanager
def _archive_builder(scheduler: str | None, jobs: int) -> Iterator[Callable[..., ConvertReport]]:
    """`to_archive` on `jobs` processes, or the same on the Dask cluster at `scheduler`."""
    from recordkit.cluster import connect
    from recordkit.convert.archive import to_archive
    from recordkit.convert.distributed import to_archive_on_cluster

    if scheduler is None:
        yield partial(to_archive, jobs=jobs)
        return
    with connect(scheduler, jobs) as client:
        yield partial(to_archive_on_cluster, client=client)


@app.command("import")
def import_logs(
    source: Annotated[str, typer.Argument(help="The program that wrote the logs: tarotclub.")],
    logs: Annotated[list[str], typer.Argument(help="Log files (.json), or directories of them.")],
    out_path: Annotated[
        Path, typer.Option("--out", help="Where to write: a .json or .jsonl file, or an archive folder.")
    ],
    keep_invalid: Annotated[
        bool, typer.Option("--keep-invalid", help="An archive takes records that break a rule too.")
    ] = False,
) -> None:
    """Read another program's game logs as one record, write it, and validate it.

    TarotClub's deal logs (one played deal each) become the deals of one record, in the order
    given, with TarotClub's places as the players; every deal is replayed through the rules, and
    the points an EndOfDeal log states are checked against its tricks. A log that cannot be read
    is named with the key at fault, and the other logs are still read (spec/IMPORT.md).
    Exit status: 0 clean, 1 violations found, 2 a log unusable.

    Example: recordkit import tarotclub deals/*.json --out evening.json
    """
    _import(_source(source), logs, out_path, keep_invalid)


def _import(source: str, logs: list[str], output: Path, keep_invalid: bool) -> None:
    """Import logs into `output`, print what validating the records finds, and exit with its status."""
    from recordkit.importers.tarotclub import records
    from recordkit.importers.write import WriteError, log_files, write_records
    from recordkit.validate import RecordReport, Settings, validate_items

    paths = list(log_files(logs))
    found = list(records(paths, name=str(output)))
    imported = [item for item in found if not isinstance(item, Diagnostic)]
    unreadable = [item for item in found if isinstance(item, Diagnostic)]
    printer = Printer("text")
    for diagnostic in unreadable:
        printer.show(diagnostic)
    if not imported:
        err.print(f"[red]no log could be read ({len(unreadable)} unreadable); nothing written")
        raise typer.Exit(2)
    try:
        written = write_records(imported, output, keep_invalid)
    except WriteError as error:
        err.print(f"[red]{escape(str(error))}")
        raise typer.Exit(2) from None
    counts = {Severity.ERROR: 0, Severity.WARNING: 0, Severity.INFO: 0}
    for report in validate_items(imported, Settings(), findings_only=True):
        diagnostics = report.diagnostics if isinstance(report, RecordReport) else [report]
        for diagnostic in diagnostics:
            counts[diagnostic.severity] += 1
            printer.show(diagnostic)
    printer.finish()
    skipped = _skipped(written.skipped)
    logs_read = len(paths) - len(unreadable)
    failed = counts[Severity.ERROR] + counts[Severity.WARNING] > 0
    err.print(
        ("[red]" if failed or unreadable else "[green]")
        + f"read {logs_read} {source} log(s) ({len(unreadable)} unreadable); wrote {written.records} record(s), "
        + f"{written.deals} deal(s) to {escape(str(output))}: {counts[Severity.ERROR]} error(s), "
        + f"{counts[Severity.WARNING]} warning(s)"
        + (f"; skipped {skipped}" if skipped else "")
    )
    raise typer.Exit(2 if unreadable else 1 if failed else 0)


def _record_output(sources: list[str], output: Path) -> bool:
    """True when a conversion writes record files from records: text in the notation (.rkn) from
    anything, or JSON from record files (a folder given for JSON output is an archive to convert
    back, as before)."""
    from recordkit.sources import NOTATION_SUFFIXES

    suffix = output.suffix.lower()
    if suffix in NOTATION_SUFFIXES:
        return True
    return suffix in (".jsonl", ".ndjson", ".json") and not any(Path(source).is_dir() for source in sources)


def _convert_records(sources: list[str], output: Path) -> None:
    """Write the records of the sources to a record file (text, JSON lines or JSON); each record
    left out is named, and the exit status is 2 if any was."""
    from recordkit.convert.records import convert_records
    from recordkit.progress import count_records, progress_bar, shows_progress

    with progress_bar(err, "converting", count_records(sources) if shows_progress(err) else None) as tally:
        written, skipped = convert_records(sources, output, tally)
    for diagnostic in skipped:
        err.print(f"[red]{escape(diagnostic.text())}")
    err.print(
        f"wrote {written} record(s) to {escape(str(output))}"
        + (f"; {len(skipped)} error(s) kept records out" if skipped else "")
    )
    if skipped:
        raise typer.Exit(2)


def _skipped(diagnostics: list[Diagnostic]) -> str:
    """One line for each record a conversion left out (its first error), and how many there
    were of each kind: `2 unreadable record(s), 5 record(s) that break a rule`."""
    records: dict[tuple[str | None, int | None, int | None], list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        where = diagnostic.location
        records.setdefault((where.file, where.line, where.record), []).append(diagnostic)
    unreadable = 0
    for found in records.values():
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        err.print(f"[yellow]skipped: {escape(found[0].text())}{more}")
        unreadable += any(d.unusable or (d.rule or "").startswith("format.") for d in found)
    kinds = [(unreadable, "unreadable record(s)"), (len(records) - unreadable, "record(s) that break a rule")]
    return ", ".join(f"{count} {kind}" for count, kind in kinds if count)


STATS_EXTRA = "pip install 'recordkit[stats]'"
"""How to install what `stats` needs (DuckDB), which the core install leaves out."""


@app.command()
def stats(path: Annotated[Path, typer.Argument(help="An archive, or a record file or directory.")]) -> None:
    """Summarise an archive or record files with DuckDB: games, deals, contracts, success rates, scores.

    Record files are converted first, leaving out the records that do not validate.
    A damaged archive (a file not the one recordkit wrote, by its SHA-256; counts that disagree)
    gives what is wrong, as validate says it, and no figures: exit status 2.
    Needs DuckDB: pip install 'recordkit\\[stats]'.

    Example: recordkit stats out/archive
    """
    from rich.table import Table as RichTable

    from recordkit.archive import ArchiveError

    archive_stats, untrusted = _stats_query()
    try:
        figures = _figures(path, archive_stats)
    except untrusted as error:
        for diagnostic in error.problems:
            _print_diagnostic(diagnostic, "text")
        err.print(f"[red]{escape(str(error))}")
        raise typer.Exit(2) from None
    except ArchiveError as error:
        err.print(f"[red]{escape(str(error))}")
        raise typer.Exit(2) from None
    tables = [("Games", figures.games), ("Contracts", figures.contracts), ("Scores", figures.scores)]
    if figures.forms is not None:
        tables.insert(1, ("Deals as recorded", figures.forms))
    for title, (columns, rows) in tables:
        view = RichTable(title=title)
        for column in columns:
            view.add_column(column)
        for row in rows:
            view.add_row(*("n/a" if value is None else escape(str(value)) for value in row))
        out.print(view)


def _stats_query() -> tuple[Callable[[Path], Any], type[UntrustedArchiveError]]:
    """`archive_stats` and the error it refuses a damaged archive with, or exit 2 naming the
    extra to install when DuckDB is missing."""
    try:
        import duckdb  # noqa: F401  (the optional dependency, tried first so as to name it)

        from recordkit.archive.stats import UntrustedArchiveError, archive_stats
    except ImportError:
        err.print(f"recordkit stats needs DuckDB, which is not installed: {STATS_EXTRA}", markup=False)
        raise typer.Exit(2) from None
    return archive_stats, UntrustedArchiveError


def _figures(path: Path, archive_stats: Callable[[Path], Any]) -> Any:
    """The figures of an archive, or of record files converted to a passing archive (their
    records that validate; the others said, as `convert` says them)."""
    import tempfile

    from recordkit.archive import is_archive
    from recordkit.convert.archive import to_archive

    if is_archive(path):
        return archive_stats(path)
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / "archive"
        report = to_archive([str(path)], archive, valid_only=True)
        skipped = _skipped(report.skipped)
        if skipped:
            err.print(f"left out {skipped} (recordkit validate shows why)")
        return archive_stats(archive)


@app.command()
def schema(
    directory: Annotated[Path, typer.Argument(help="Where to write the JSON Schema files.")] = Path(
        "spec/schema"
    ),
) -> None:
    """Write the JSON Schema of the record format, one file per game.

    Example: recordkit schema spec/schema
    """
    from recordkit.schema import write_schemas

    for path in write_schemas(directory):
        err.print(f"wrote {escape(str(path))}")


@app.command()
def record(
    game: Annotated[str, typer.Argument(help="Game name, e.g. french-tarot.")],
    out_path: Annotated[Path, typer.Option("--out", help="The record file to write (.json or .jsonl).")],
    players: Annotated[
        str | None, typer.Option(help="Player names in seat order, comma-separated: Anne,Bruno,Claire,Denis.")
    ] = None,
    journal: Annotated[
        Path | None,
        typer.Option(help="The journal of every step (default: OUT.journal); resumed if it exists."),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Variant option NAME=VALUE.")
    ] = None,
    variant: Annotated[str | None, typer.Option(help="Shorthand for -o variant=NAME.")] = None,
    dealer: Annotated[int, typer.Option(help="The seat that deals first.")] = 0,
    deals: Annotated[
        int | None, typer.Option(help="Stop after this many deals (default: the game's end).")
    ] = None,
    keep_irregular: Annotated[
        bool,
        typer.Option("--keep-irregular", help="Record illegal actions, flagged, instead of refusing them."),
    ] = False,
    random_deal: Annotated[
        int | None,
        typer.Option("--random-deal", help="Deal every hand at random from this seed (a demonstration)."),
    ] = None,
) -> None:
    """Record a game live at the table, each call and card checked as it happens.

    Type what you know of the cards dealt (every hand, only your own, or none), then each call and
    card as it is played. Each action is checked at once (an illegal one is refused with the reason). A hand not given is
    derived from the cards its seat plays: a card already played, known to be elsewhere, or of a
    suit its seat failed to follow is refused, naming the trick; the full check runs at the end of
    the deal, and the record leaves out what was not given. Every step is journaled to disk, and
    the record is saved after every deal. Run the same command again to resume after a crash or
    `quit`. Type ? for what may be typed, help for the commands.

    Example: recordkit record french-tarot --players Anne,Bruno,Claire,Denis --out game.json
    """
    from recordkit.games import RULESETS
    from recordkit.recorder.terminal import Session, open_recorder, read_line

    ruleset = RULESETS.get(game)
    options = _options(option or [], variant, ruleset) if ruleset is not None else {}
    names = [name.strip() for name in players.split(",")] if players else None
    try:
        recorder, notes = open_recorder(
            game, names, options, journal or Path(f"{out_path}.journal"), dealer, keep_irregular
        )
    except ValueError as error:
        err.print(f"[red]{escape(str(error))}")
        raise typer.Exit(2) from None
    for note in notes:
        err.print(escape(note))
    session = Session(recorder, out_path, out, deals, random_deal, echo=not sys.stdin.isatty())
    try:
        code = session.run(read_line)
    finally:
        recorder.close()
    raise typer.Exit(code)


def main() -> None:
    """Entry point of the `recordkit` script; never shows a traceback for bad input."""
    _printable_anywhere()
    _collect_for_streams()
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        raise SystemExit(130) from None


def _printable_anywhere() -> None:
    """Write what the terminal's encoding cannot show as escapes (`Zo\\xe9`), so that a player's
    name on an ASCII console never ends a command with a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


__all__ = ["app", "main"]
