"""The ``herald`` command.

Each subcommand is a parser built in :func:`build_parser` and one function that runs it
(``set_defaults(run=...)``), which returns the exit code. To add one: write its parser beside
the others (a help text for it and for every argument) and its function below; a command that
opens the database takes :func:`database_option` and opens it with :func:`open_database`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit
from uuid import UUID

import msgspec

from api.numbers import whole_number
from api.config import data_dir, sqlite_path

T = TypeVar("T")

DB_HELP = ("the database: an SQLite file, or a PostgreSQL DSN (postgresql://user@host:port/name). "
           "Default: $HERALD_DB, else PostgreSQL when PERSISTENCE_MODULE=eventsourcing.postgres "
           "(POSTGRES_*), else var/herald.db")
PROGRESS_HELP = "show progress on stderr even when it is not a terminal (it is shown on a terminal anyway)"


def version() -> str:
    from importlib.metadata import PackageNotFoundError, version as installed

    try:
        return installed("herald")
    except PackageNotFoundError:  # pragma: no cover - run from a checkout without installing
        return "unknown"


OFFLINE = ("replay", "import", "export", "projections", "analyse")  # commands that fold whole records here


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(_joined_tokens(sys.argv[1:] if argv is None else argv))
    if args.command not in OFFLINE:
        return args.run(args)
    from api.collector import settled

    with settled():  # the collector as a served process sets it: a long record folds in linear time
        return args.run(args)


def _joined_tokens(argv: list[str]) -> list[str]:
    """``--token T`` as ``--token=T``: a token is URL-safe base64 and may begin with '-',
    which argparse would take for an option."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1] == "--token":
            out[-1] = f"--token={arg}"
        else:
            out.append(arg)
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="herald", description="Herald: verifiable records of board wargames.",
        epilog="Run `herald COMMAND --help` for a command's arguments. Configuration is by environment "
               "variable (README, \"Configuration\").")
    parser.add_argument("--version", action="version", version=f"herald {version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="serve the REST API, the docs and the viewer",
                           description="Serve the REST API (/docs), the replay viewer (/viewer) and the "
                                       "live streams. Creates the database and the signing key on first start.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)")
    serve.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    serve.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug", "trace"),
                       help="uvicorn's log level (default info)")
    serve.add_argument("--workers", type=int, default=1,
                       help="processes serving the same port (PostgreSQL only; see docs/deploy.md for pool sizing)")
    database_option(serve)
    serve.set_defaults(run=_serve)

    cluster = sub.add_parser("cluster", help="HAProxy in front of N serving processes on PostgreSQL (docs/deploy.md)")
    cluster.add_argument("--processes", type=int, default=2, help="how many Herald processes (default 2)")
    cluster.add_argument("--host", default="127.0.0.1", help="the address HAProxy listens on (default 127.0.0.1)")
    cluster.add_argument("--port", type=int, default=8080, help="where HAProxy listens (default 8080)")
    cluster.add_argument("--first-port", type=int, default=8101,
                         help="the processes listen on this port and up (default 8101)")
    cluster.set_defaults(run=_cluster)

    games = sub.add_parser("games", help="the games in a database")
    games_sub = games.add_subparsers(dest="games_command", required=True, metavar="SUBCOMMAND")
    listing = games_sub.add_parser("list", help="list the games, newest first (reads only)",
                                   description="List the games of a database, newest first. Reads only: "
                                               "never creates the database or the key.")
    listing.add_argument("--rules", help="only games of this rule system (e.g. saladin)")
    listing.add_argument("--status", choices=("active", "ended"), help="only games in play, or only ended ones")
    listing.add_argument("--player", help="only games with this player in a seat")
    listing.add_argument("--tournament", help="only games of this tournament (its id)")
    listing.add_argument("--limit", type=int, default=50, help="at most this many games (default 50)")
    listing.add_argument("--json", action="store_true", help="one JSON object a line instead of a table")
    database_option(listing)
    listing.set_defaults(run=_games_list)

    replay = sub.add_parser("replay", help="check or study a portable record offline (no database)")
    replay_sub = replay.add_subparsers(dest="replay_command", required=True, metavar="SUBCOMMAND")
    verify = replay_sub.add_parser("verify", help="verify a record or a tournament archive: chain, dice, full replay",
                                   description="Exit 0 when the record is sound, 1 otherwise (each problem a line).")
    verify.add_argument("file", type=Path, help="the record file (from `herald export` or GET /games/ID/record)")
    verify.add_argument("--key", help="the server's public key (hex, from GET /keys): check who signed")
    verify.add_argument("--receipt", action="append", default=[], metavar="VERSION:HASH",
                        help="a chain head from a command response; the record must still hold it (repeatable)")
    verify.set_defaults(run=_replay)
    show = replay_sub.add_parser("show", help="print the board at a step, as text")
    show.add_argument("file", type=Path, help="the record file")
    show.add_argument("--step", type=int, default=None, help="a version (default: the last)")
    show.set_defaults(run=_replay)

    export = sub.add_parser("export", help="write games' portable records (reads only)",
                            description="Write the portable record of one game (stdout or -o) or of several "
                                        "(--dir, one GAME_ID.json each). Reads only: never creates the database "
                                        "or the key.")
    export.add_argument("game_ids", type=UUID, nargs="*", metavar="GAME_ID", help="the games to export")
    export.add_argument("-o", "--output", type=Path, help="the file to write one game's record to (default: stdout)")
    export.add_argument("--dir", type=Path, help="write each game's record into this folder as GAME_ID.json")
    export.add_argument("--all", action="store_true", help="every game in the database (with --dir)")
    export.add_argument("--token", help="a seat's token: that seat's copy (its own sealed events in full); "
                                        "without it, the spectator's copy (sealed events sealed) until the seed is revealed")
    export.add_argument("--progress", action="store_true", help=PROGRESS_HELP)
    database_option(export)
    export.set_defaults(run=_export)

    imp = sub.add_parser("import", help="store verified records (their seed revealed) as games here",
                         description="Verify each record and store it as a game of this database.")
    imp.add_argument("files", type=Path, nargs="+", metavar="FILE", help="record files (from `herald export`)")
    imp.add_argument("--progress", action="store_true", help=PROGRESS_HELP)
    database_option(imp)
    imp.set_defaults(run=_import)

    rules = sub.add_parser("rules", help="rule systems, offline")
    rules_sub = rules.add_subparsers(dest="rules_command", required=True, metavar="SUBCOMMAND")
    check = rules_sub.add_parser("check", help="check an owner's data file (cards, map, deck) against its "
                                               "rule system's schema and rulebook, offline")
    check.add_argument("file", type=Path, help="the owner's data file (JSON)")
    check.add_argument("--rules", help="the rule system (default: every one that takes owner data)")
    check.add_argument("--scenario", help="the scenario the file must be for")
    check.set_defaults(run=_check_owner_data)

    analyse = sub.add_parser("analyse", help="each seat's chances at every decision of a record, offline "
                                             "(the JSON of GET /games/{id}/analysis on stdout)")
    analyse.add_argument("file", type=Path, help="the record file (from `herald export` or GET /games/ID/record)")
    analyse.add_argument("--policy", choices=("random", "heuristic"), default="random",
                         help="how the rollouts play on (default random)")
    analyse.add_argument("--rollouts", type=int, default=200, help="rollouts per board (default 200)")
    analyse.add_argument("--workers", type=int, default=2, help="processes (0: this one)")
    analyse.add_argument("--budget", type=float, default=3600.0, help="seconds before it stops with what it has")
    analyse.add_argument("--seat", action="append", default=[], help="a seat whose hidden cards this copy holds")
    analyse.set_defaults(run=_analyse)

    projections = sub.add_parser("projections", help="read models")
    proj_sub = projections.add_subparsers(dest="projections_command", required=True, metavar="SUBCOMMAND")
    rebuild = proj_sub.add_parser("rebuild", help="rebuild every read model from the first event")
    rebuild.add_argument("--progress", action="store_true", help=PROGRESS_HELP)
    database_option(rebuild)
    rebuild.set_defaults(run=_rebuild)
    return parser


# -- the database ------------------------------------------------------------------------------
def database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH_OR_DSN", help=DB_HELP)


def database_env(db: str | None, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment with ``--db`` applied: a PostgreSQL DSN sets PERSISTENCE_MODULE and
    POSTGRES_*, anything else is the SQLite file (it wins over SQLITE_DBNAME and HERALD_DB)."""
    env = dict(os.environ if environ is None else environ)
    if db is None:
        return env
    if db.startswith(("postgresql://", "postgres://")):
        url = urlsplit(db)
        env["PERSISTENCE_MODULE"] = "eventsourcing.postgres"
        for key, value in (("POSTGRES_HOST", url.hostname), ("POSTGRES_PORT", url.port),
                           ("POSTGRES_USER", url.username and unquote(url.username)),
                           ("POSTGRES_PASSWORD", url.password and unquote(url.password)),
                           ("POSTGRES_DBNAME", url.path.lstrip("/") and unquote(url.path.lstrip("/")))):
            if value:
                env[key] = str(value)
        return env
    env["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
    env["HERALD_DB"] = db
    env.pop("SQLITE_DBNAME", None)
    return env


def _postgres(env: dict[str, str]) -> bool:
    return env.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") == "eventsourcing.postgres"


def database_label(env: dict[str, str]) -> str:
    """The database, as people read it: the SQLite file's absolute path, or the PostgreSQL DSN
    without its password."""
    if _postgres(env):
        user = env.get("POSTGRES_USER", "postgres")
        return (f"PostgreSQL postgresql://{user}@{env.get('POSTGRES_HOST', '127.0.0.1')}:"
                f"{env.get('POSTGRES_PORT', '5432')}/{env.get('POSTGRES_DBNAME', 'herald')}")
    return f"SQLite {sqlite_path(env).absolute()}"


def key_path(env: dict[str, str]) -> Path:
    """Where the signing key is (HERALD_SIGNING_KEY), or will be made on first start."""
    if env.get("HERALD_SIGNING_KEY"):
        return Path(env["HERALD_SIGNING_KEY"])
    module = env.get("PERSISTENCE_MODULE", "eventsourcing.sqlite")
    return data_dir({"PERSISTENCE_MODULE": module, "SQLITE_DBNAME": str(sqlite_path(env))}, env) / "signing-key.pem"


def open_database(args: argparse.Namespace, *, read_only: bool):
    """The Herald service over the database ``--db`` (or the environment) names. A read-only
    command never creates a database or a signing key: it stops, saying what is missing. Says
    on stderr which database it opened."""
    env = database_env(args.db)
    label = database_label(env)
    if _postgres(env):  # the database first: a missing key matters only once it can be read
        from api.preflight import postgres_problem

        problem = postgres_problem(env)
        if problem:
            _fail(problem)
    if read_only:
        if not _postgres(env) and not sqlite_path(env).is_file():
            _fail(f"no database at {sqlite_path(env).absolute()}: nothing to read (start the server once, "
                  "or name the database with --db or HERALD_DB)")
        key = key_path(env)
        if not key.is_file():
            _fail(f"no signing key at {key.absolute()}: this command reads only and makes none "
                  "(set HERALD_SIGNING_KEY to the key of the server that wrote this database)")
    print(f"herald: database {label}", file=sys.stderr)
    from api.bootstrap import Herald

    try:
        return Herald(env=env)
    except Exception as error:  # a database that cannot be reached: one line, not a traceback
        _fail(f"cannot open the database {label}: {' '.join(str(error).split())}")


def _fail(message: str, code: int = 2):
    print(f"herald: {message}", file=sys.stderr)
    raise SystemExit(code)


def progress(items: Iterable[T], total: int, what: str, shown: bool) -> Iterator[T]:
    """``items``, with a progress bar on stderr when ``shown`` or stderr is a terminal."""
    from tqdm import tqdm

    yield from tqdm(items, total=total, unit=what, desc=what + "s", file=sys.stderr,
                    disable=not (shown or sys.stderr.isatty()))


# -- serve -------------------------------------------------------------------------------------
HTTP = "api.connection:HeaderDeadline"  # uvicorn's httptools protocol, with a deadline for headers


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    os.environ.update(database_env(args.db))
    if args.db and not _postgres(os.environ):
        os.environ.pop("SQLITE_DBNAME", None)
    if args.workers < 1:
        _fail("--workers is at least 1")
    if args.workers > 1 and not _postgres(os.environ):
        _fail("several workers share one database: use PostgreSQL (--db postgresql://…, or PERSISTENCE_MODULE="
              "eventsourcing.postgres; see docs/deploy.md); one SQLite file takes one process")
    # the access log formats every request's address and path before its level check drops
    # them: off unless the level would print it
    access_log = args.log_level in ("trace", "debug", "info")
    listener = listen(args.host, args.port)
    if _postgres(os.environ):  # one line before anything starts, not a traceback from every worker
        from api.preflight import postgres_problem

        problem = postgres_problem(dict(os.environ))
        if problem:
            listener.close()
            _fail(problem, 1)
    print(banner(args.host, listener.getsockname()[1], dict(os.environ)), flush=True)
    if args.workers > 1:  # uvicorn's supervisor binds the port again and shares it with its workers
        listener.close()
        from api.app import SUPERVISOR_ENV

        os.environ[SUPERVISOR_ENV] = str(os.getpid())  # each worker ends with this process (api/app.py)
        uvicorn.run("api.app:app", host=args.host, port=args.port, log_level=args.log_level, workers=args.workers,
                    access_log=access_log, http=HTTP)
        return 0
    config = uvicorn.Config("api.app:app", host=args.host, port=args.port, log_level=args.log_level,
                            access_log=access_log, http=HTTP)
    uvicorn.Server(config).run(sockets=[listener])
    return 0


def listen(host: str, port: int):
    """A socket bound to host:port, made before the app starts: a port already taken is said
    plainly, and the server stops (exit 1) before it opens anything."""
    import errno
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            _fail(f"port {port} on {host} is already in use (another Herald, or another server?). Stop it, or "
                  f"choose another port: `herald serve --port {port + 1}` or `make run PORT={port + 1}`", 1)
        if error.errno == errno.EACCES:
            _fail(f"not allowed to listen on {host}:{port} (ports below 1024 need privileges): "
                  "choose another with --port", 1)
        _fail(f"cannot listen on {host}:{port}: {error.strerror or error}", 1)
    except socket.gaierror as error:
        sock.close()
        _fail(f"cannot listen on {host}:{port}: {error.strerror}", 1)
    sock.set_inheritable(True)
    return sock


def banner(host: str, port: int, env: dict[str, str]) -> str:
    """What a newcomer needs at start-up: where to point a browser, which database and key the
    server uses, and whether an umpire may rule."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else (f"[{host}]" if ":" in host else host)
    url = f"http://{shown}:{port}"
    everywhere = " (listening on every interface)" if host in ("0.0.0.0", "", "::") else ""
    key = key_path(env)
    admin = ("set (HERALD_ADMIN_TOKEN): the umpire may rule on disputes and inspect" if env.get("HERALD_ADMIN_TOKEN")
             else "not set: no umpire (set HERALD_ADMIN_TOKEN for one); freezes lift by agreement or lapse")
    return "\n".join([
        f"Herald {version()}{everywhere}",
        f"  API       {url}/",
        f"  docs      {url}/docs",
        f"  viewer    {url}/viewer",
        f"  database  {database_label(env)}",
        f"  key       {key.absolute()}{'' if key.exists() else ' (made now, on first start)'}",
        f"  umpire    {admin}",
    ])


def _cluster(args: argparse.Namespace) -> int:
    from api.cluster import run

    return run(args.processes, args.host, args.port, args.first_port)


def _analyse(args: argparse.Namespace) -> int:
    """``herald analyse FILE``: the analysis of a portable record (analysis/), a progress bar on
    stderr; a copy with sealed events is analysed up to its first sealed one."""
    from tqdm import tqdm

    from analysis import engine
    from analysis.pool import Analyst
    from analysis.rollout import policies
    from domain.rules.registry import RULE_SYSTEMS, rules_at
    from replays.record import from_record_event

    record = _decode(args.file, _read(args.file))
    if record.header.rules not in RULE_SYSTEMS or not policies(RULE_SYSTEMS[record.header.rules]):
        sys.exit(f"herald: {record.header.rules} does not play itself: its records cannot be analysed")
    if args.rollouts < 1:
        sys.exit("herald: --rollouts is at least 1")
    game_id = UUID(record.header.game)
    events = []
    for event in record.events:
        if event.sealed:
            print(f"herald: version {event.version} is sealed in this copy: analysed up to version "
                  f"{event.version - 1}", file=sys.stderr)
            break
        events.append(from_record_event(game_id, event))
    try:
        boards = engine.positions(events)
    except Exception as error:  # noqa: BLE001 - a record that does not fold is a one-line error
        sys.exit(f"herald: this record cannot be analysed: {type(error).__name__}: {error}")
    rules = rules_at(record.header.rules, record.header.rules_version)  # as the record was played
    seen = None if record.seed or not rules.has_secrets else frozenset(args.seat)
    seats = tuple(record.header.seats)
    units = engine.game_units(rules, boards, seen, args.policy, args.rollouts, str(game_id))
    analyst = Analyst(args.workers, args.budget)
    with tqdm(total=len(units), unit="unit", desc="rollouts", file=sys.stderr) as bar:
        result = analyst.run(units, len(boards), lambda tallies, complete: engine.game_analysis(
            rules, boards, tallies, args.policy, args.rollouts, seats, complete),
            progress=lambda done, total: bar.update(done - bar.n))
    analyst.close()
    print(msgspec.json.format(msgspec.json.encode(result)).decode())
    return 0


def _check_owner_data(args: argparse.Namespace) -> int:
    """``herald rules check FILE``: 0 when a rule system takes the file as it is; otherwise 1,
    and every problem, one a line."""
    from domain.rules.registry import RULE_SYSTEMS

    try:
        data = msgspec.json.decode(_read(args.file))
    except msgspec.DecodeError as error:
        print(f"{args.file}: not JSON: {error}")
        return 1
    except RecursionError:
        print(f"{args.file}: its JSON nests too deep")
        return 1
    if args.rules is not None and args.rules not in RULE_SYSTEMS:
        sys.exit(f"herald: no rule system {args.rules!r}; known: {', '.join(sorted(RULE_SYSTEMS))}")
    systems = [RULE_SYSTEMS[args.rules]] if args.rules else [r for _, r in sorted(RULE_SYSTEMS.items())
                                                             if r.owner_data]
    found = {}
    for rules in systems:
        problems = rules.check_owner_data(data, args.scenario)
        if not problems:
            option = rules.owner_data.option
            print(f"{args.file}: usable as {rules.id} {option} (option {option!r} of POST /games); data hash "
                  f"{rules.data_hash(args.scenario or '', {option: data})}")
            if args.scenario is None:
                fits = [s for s in rules.scenarios if not rules.check_owner_data(data, s)]
                print(f"  for scenario{'s' if len(fits) > 1 else ''} {', '.join(fits)} (--scenario checks one)")
            return 0
        found[rules.id] = problems
    for system, problems in found.items():
        print(f"{args.file}: {len(problems)} problem(s) as {system} data:")
        for problem in problems:
            print(f"  - {problem}")
    return 1


MAX_RECORD_FILE = 64 * 1024 * 1024  # HERALD_MAX_RECORD_FILE: the most a record file may hold
READ_WAIT = 10.0  # HERALD_READ_WAIT: seconds a FIFO or pipe may stay silent before the read gives up


def _read(path: Path) -> bytes:
    """A record file's bytes, read with a bound: a device that never ends (/dev/zero), a FIFO
    nobody writes to or a pipe that goes silent is a clear error, never a hang or a crash."""
    import os
    import select
    import stat

    limit = int(os.environ.get("HERALD_MAX_RECORD_FILE", MAX_RECORD_FILE))
    wait = float(os.environ.get("HERALD_READ_WAIT", READ_WAIT))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        sys.exit(f"herald: cannot read {path}: {error.strerror}")
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            sys.exit(f"herald: {path} is a folder, not a record file")
        parts, size, first = [], 0, True
        while True:
            try:
                chunk = os.read(fd, 1024 * 1024)
            except BlockingIOError:  # a pipe with a writer and nothing written yet
                if not select.select([fd], [], [], wait)[0]:
                    sys.exit(f"herald: nothing came from {path} for {wait:g} s; gave up (HERALD_READ_WAIT)")
                first = False
                continue
            except OSError as error:
                sys.exit(f"herald: cannot read {path}: {error.strerror}")
            if not chunk:
                if first and stat.S_ISFIFO(mode):  # no writer yet: wait a while for one
                    if not select.select([fd], [], [], wait)[0]:
                        sys.exit(f"herald: nobody wrote to the FIFO {path} within {wait:g} s (HERALD_READ_WAIT)")
                    first = False
                    continue
                return b"".join(parts)
            first = False
            size += len(chunk)
            if size > limit:
                sys.exit(f"herald: {path} holds more than {limit} bytes, more than any record here "
                         "(HERALD_MAX_RECORD_FILE)")
            parts.append(chunk)
    finally:
        os.close(fd)


def _decode(path: Path, raw: bytes):
    from replays.record_format import decode_record

    try:
        return decode_record(raw)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        sys.exit(f"herald: {path} is not a Herald record: {error}")
    except RecursionError:
        sys.exit(f"herald: {path} is not a Herald record: its JSON nests too deep")


def _load(path: Path):
    return _decode(path, _read(path))


def _replay(args: argparse.Namespace) -> int:
    from replays.archive import is_archive, report
    from replays.show import show
    from replays.verify import Receipt, verify

    raw = _read(args.file)
    if args.replay_command == "verify" and is_archive(raw):
        code, lines = report(raw)  # a tournament archive: every game, results, standings
        print("\n".join(lines))
        return code
    record = _decode(args.file, raw)
    if args.replay_command == "verify":
        receipts = []
        for text in args.receipt:
            version, _, digest = text.partition(":")
            number = whole_number(version)
            if number is None or not digest:
                sys.exit(f"herald: a receipt is VERSION:HASH, not {text[:80]!r}")
            receipts.append(Receipt(number, digest))
        verdict = verify(record, receipts, args.key)
        if verdict.ok:
            print(f"OK: {len(record.events)} events, chain intact, "
                  f"{'dice recomputed from the revealed seed' if record.seed else 'seed not revealed'}, replay identical"
                  + (f", {len(receipts)} receipt(s) held" if receipts else "")
                  + (", signed by the given key" if args.key else ""))
        for note in verdict.notes:
            print(f"note: {note}")
        if verdict.ok:
            return 0
        for p in verdict.problems:
            where = " ".join(x for x in (f"version {p.version}" if p.version else "",
                                         f"draw {p.draw}" if p.draw is not None else "") if x)
            print(f"FAIL {where}: {p.what}" if where else f"FAIL: {p.what}")
        return 1
    try:
        print(show(record, args.step))
    except ValueError as error:
        sys.exit(f"herald: {error}")
    return 0


# -- commands on a database --------------------------------------------------------------------
def _games_list(args: argparse.Namespace) -> int:
    herald = open_database(args, read_only=True)
    try:
        rows, cursor = [], None
        while len(rows) < args.limit:
            page, cursor = herald.games.index.list(rules=args.rules, status=args.status, player=args.player,
                                             tournament=args.tournament, after=cursor,
                                             limit=min(500, args.limit - len(rows)))
            rows += page
            if cursor is None:
                break
    finally:
        herald.close()
    if args.json:
        for row in rows:
            print(msgspec.json.encode(row).decode())
        return 0
    if not rows:
        print("no games")
        return 0
    print(f"{'game':36}  {'rules':<22}  {'status':<6}  {'version':>7}  {'updated':<19}  players")
    for row in rows:
        players = ", ".join(f"{info['player']} ({seat})" for seat, info in row.seats.items())
        print(f"{row.id:36}  {row.rules + ' ' + row.scenario:<22}  {row.status:<6}  {row.version:>7}  "
              f"{row.updated_at[:19].replace('T', ' '):<19}  {players}")
    if cursor is not None:
        print(f"(the first {len(rows)}; --limit shows more)")
    return 0


def _export(args: argparse.Namespace) -> int:
    from api.errors import HeraldError
    from replays.record_format import encode_record

    if args.all and args.game_ids:
        _fail("give GAME_IDs or --all, not both")
    if not (args.all or args.game_ids):
        _fail("which game? give GAME_ID (`herald games list` lists them), or --all --dir FOLDER")
    if (args.all or len(args.game_ids) > 1) and args.dir is None:
        _fail("several games go into a folder: add --dir FOLDER")
    if args.output and args.dir:
        _fail("-o names one file; --dir a folder: give one of them")
    herald = open_database(args, read_only=True)
    failed = 0
    try:
        ids = args.game_ids or [UUID(row.id) for row in _every_game(herald)]
        if args.dir is not None:
            args.dir.mkdir(parents=True, exist_ok=True)
        for game_id in progress(ids, len(ids), "game", args.progress):
            try:
                data = encode_record(herald.games.record(game_id, herald.games.reader(game_id, args.token)))
            except HeraldError as error:
                print(f"herald: {game_id}: {error.detail}", file=sys.stderr)
                failed += 1
                continue
            if args.dir is not None:
                (args.dir / f"{game_id}.json").write_bytes(data)
            elif args.output:
                args.output.write_bytes(data)
            else:
                sys.stdout.buffer.write(data + b"\n")
                sys.stdout.flush()
    finally:
        herald.close()
    if args.dir is not None:
        print(f"herald: {len(ids) - failed} record(s) written to {args.dir}", file=sys.stderr)
    return 1 if failed else 0


def _every_game(herald: Any) -> list[Any]:
    rows, cursor = [], None
    while True:
        page, cursor = herald.games.index.list(after=cursor, limit=500)
        rows += page
        if cursor is None:
            return rows


def _import(args: argparse.Namespace) -> int:
    from api.errors import HeraldError

    records = [(path, _load(path)) for path in args.files]  # every file read before anything is stored
    herald = open_database(args, read_only=False)
    failed = 0
    try:
        for path, record in progress(records, len(records), "record", args.progress):
            try:
                print(herald.games.import_record(record, by_operator=True))
            except HeraldError as error:
                print(f"herald: {path}: {error.detail}", file=sys.stderr)
                failed += 1
        herald.games.boards.stored.flush()  # the imported games' board checkpoints written
    finally:
        herald.close()
    return 1 if failed else 0


def _rebuild(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    herald = open_database(args, read_only=False)
    try:
        total = herald.store.recorder.max_notification_id() or 0
        for desc, model in herald.read_models:
            with tqdm(total=total, unit="event", desc=desc, file=sys.stderr,
                      disable=not (args.progress or sys.stderr.isatty())) as bar:
                model.rebuild(bar.update)
        print(f"herald: read models rebuilt from {total} event(s)", file=sys.stderr)
        return 0
    finally:
        herald.close()


if __name__ == "__main__":
    sys.exit(main())
