"""The ``herald`` command: serve, replay verify/show, export, import, projections rebuild."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from uuid import UUID

import msgspec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="herald", description="Herald: verifiable game records.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="serve the REST API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--log-level", default="info")
    serve.add_argument("--workers", type=int, default=1,
                       help="processes serving the same port (PostgreSQL; see docs/deploy.md for pool sizing)")

    cluster = sub.add_parser("cluster", help="HAProxy in front of N serving processes on PostgreSQL (docs/deploy.md)")
    cluster.add_argument("--processes", type=int, default=2)
    cluster.add_argument("--host", default="127.0.0.1")
    cluster.add_argument("--port", type=int, default=8080, help="where HAProxy listens")
    cluster.add_argument("--first-port", type=int, default=8101, help="the processes listen on this port and up")

    replay = sub.add_parser("replay", help="check or study a portable record offline")
    replay_sub = replay.add_subparsers(dest="replay_command", required=True)
    verify = replay_sub.add_parser("verify", help="verify a record: chain, dice, full replay")
    verify.add_argument("file", type=Path)
    verify.add_argument("--key", help="the server's public key (hex, from GET /keys): check who signed")
    verify.add_argument("--receipt", action="append", default=[], metavar="VERSION:HASH",
                        help="a chain head from a command response; the record must still hold it (repeatable)")
    show = replay_sub.add_parser("show", help="print the board at a step")
    show.add_argument("file", type=Path)
    show.add_argument("--step", type=int, default=None, help="a version (default: the last)")

    export = sub.add_parser("export", help="write a game's portable record to stdout or a file")
    export.add_argument("game_id", type=UUID)
    export.add_argument("-o", "--output", type=Path)
    export.add_argument("--token", help="a seat's token: that seat's copy (its own sealed events in full); "
                                         "without it, the spectator's copy (sealed events sealed) until the seed is revealed")

    imp = sub.add_parser("import", help="store a verified record (its seed revealed) as a game here")
    imp.add_argument("file", type=Path)

    rules = sub.add_parser("rules", help="rule systems, offline")
    rules_sub = rules.add_subparsers(dest="rules_command", required=True)
    check = rules_sub.add_parser("check", help="check an owner's data file (cards, map, deck) against its "
                                               "rule system's schema and rulebook, offline")
    check.add_argument("file", type=Path)
    check.add_argument("--rules", help="the rule system (default: every one that takes owner data)")
    check.add_argument("--scenario", help="the scenario the file must be for")

    projections = sub.add_parser("projections", help="read models")
    proj_sub = projections.add_subparsers(dest="projections_command", required=True)
    proj_sub.add_parser("rebuild", help="rebuild every read model from the first event")

    args = parser.parse_args(argv)
    if args.command == "serve":
        import uvicorn

        if args.workers < 1:
            sys.exit("herald: --workers is at least 1")
        if args.workers > 1 and os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite") == "eventsourcing.sqlite":
            sys.exit("herald: several workers share one database: use PostgreSQL (PERSISTENCE_MODULE="
                     "eventsourcing.postgres, see docs/deploy.md); one SQLite file takes one process")
        # the access log formats every request's address and path before its level check drops
        # them: off unless the level would print it
        uvicorn.run("api.app:app", host=args.host, port=args.port, log_level=args.log_level, workers=args.workers,
                    access_log=args.log_level in ("trace", "debug", "info"))
        return 0
    if args.command == "cluster":
        from api.cluster import run

        return run(args.processes, args.host, args.port, args.first_port)
    if args.command == "replay":
        return _replay(args)
    if args.command == "rules":
        return _check_owner_data(args)
    return _with_store(args)


def _check_owner_data(args: argparse.Namespace) -> int:
    """``herald rules check FILE``: 0 when a rule system takes the file as it is; otherwise 1,
    and every problem, one a line."""
    from domain.rules.registry import RULE_SYSTEMS

    try:
        data = msgspec.json.decode(_read(args.file))
    except msgspec.DecodeError as error:
        print(f"{args.file}: not JSON: {error}")
        return 1
    if args.rules is not None and args.rules not in RULE_SYSTEMS:
        sys.exit(f"herald: no rule system {args.rules!r}; known: {', '.join(sorted(RULE_SYSTEMS))}")
    systems = [RULE_SYSTEMS[args.rules]] if args.rules else [r for _, r in sorted(RULE_SYSTEMS.items())
                                                             if r.owner_data_option]
    found = {}
    for rules in systems:
        problems = rules.check_owner_data(data, args.scenario)
        if not problems:
            print(f"{args.file}: usable as {rules.id} {rules.owner_data_option} (option "
                  f"{rules.owner_data_option!r} of POST /games); data hash "
                  f"{rules.data_hash(args.scenario or '', {rules.owner_data_option: data})}")
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
    from replays.record import decode_record

    try:
        return decode_record(raw)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        sys.exit(f"herald: {path} is not a Herald record: {error}")


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
            if not version.isdigit() or not digest:
                sys.exit(f"herald: a receipt is VERSION:HASH, not {text!r}")
            receipts.append(Receipt(int(version), digest))
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


def _with_store(args: argparse.Namespace) -> int:
    from api.errors import HeraldError
    from api.service import Herald
    from replays.record import encode_record

    herald = Herald()
    try:
        if args.command == "export":
            data = encode_record(herald.record(args.game_id, herald.reader(args.game_id, args.token)))
            if args.output:
                args.output.write_bytes(data)
            else:
                sys.stdout.buffer.write(data + b"\n")
        elif args.command == "import":
            print(herald.import_record(_load(args.file)))
        elif args.command == "projections":
            from tqdm import tqdm

            total = herald.store.recorder.max_notification_id() or 0
            for desc, model in (("game index", herald.index), ("dice statistics", herald.dice)):
                with tqdm(total=total, unit="event", desc=desc) as bar:
                    model.rebuild(bar.update)
            from api.tournaments import Tournaments

            tournaments = Tournaments(herald)
            for desc, model in (("tournament results", tournaments.results), ("ratings", tournaments.ratings)):
                with tqdm(total=total, unit="event", desc=desc) as bar:
                    model.rebuild(bar.update)
        return 0
    except HeraldError as error:
        print(f"herald: {error.detail}", file=sys.stderr)
        return 1
    finally:
        herald.close()


if __name__ == "__main__":
    sys.exit(main())
