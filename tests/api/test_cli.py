"""Issue 18, "The first five minutes": the real ``herald`` console script as a newcomer meets it.
A port already taken is said before the app starts; the start-up banner names the URLs, the
database, the key and the umpire; ``--version``; help for every argument; ``--db`` on every
command that opens a database; read commands create nothing and say which database they read;
``herald games list``; progress on exports and imports."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import uuid
from importlib.metadata import version
from pathlib import Path

import httpx
import pytest

from api.cli import _joined_tokens, build_parser, database_env, database_label, main, open_database
from tests.conftest import ADMIN_TOKEN, free_port, new_game, post, track

HERALD = str(Path(sys.executable).parent / "herald")
# the commands that open a database, and whether they only read it
DATABASE_COMMANDS = {("serve",): False, ("games", "list"): True, ("export",): True, ("import",): False,
                     ("projections", "rebuild"): False}


def herald(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 90) -> subprocess.CompletedProcess:
    """The console script in a clean environment: no database or key configured but by ``env``."""
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("HERALD_", "SQLITE_", "POSTGRES_", "PERSISTENCE_"))}
    return subprocess.run([HERALD, *args], cwd=cwd, env={**base, **(env or {})}, capture_output=True,
                          text=True, timeout=timeout)


def subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """Every (path, parser) of the command tree, the leaves included."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from subcommands(child, (*path, name))


def test_version_is_the_installed_distribution(tmp_path):
    done = herald("--version", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == f"herald {version('herald')}"


def test_a_token_may_begin_with_a_dash():
    """A token is URL-safe base64, so 1 in 64 begins with '-': `--token T` takes it whole."""
    args = build_parser().parse_args(_joined_tokens(["export", "00000000-0000-0000-0000-000000000001", "--token", "-Ab_c", "-o", "x.json"]))
    assert (args.token, str(args.output)) == ("-Ab_c", "x.json")


def test_every_command_and_argument_has_help():
    for path, parser in subcommands(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    assert choice.help, f"herald {' '.join(path)} {choice.dest}: a command without help"
                continue
            assert action.help, f"herald {' '.join(path)} {action.option_strings or action.dest}: no help"


def test_db_on_every_command_that_opens_a_database():
    tree = dict(subcommands(build_parser()))
    for path in DATABASE_COMMANDS:
        options = {o for a in tree[path]._actions for o in a.option_strings}
        assert "--db" in options, f"herald {' '.join(path)} opens a database but takes no --db"
    for path, parser in tree.items():  # and no other command pretends to
        if path not in DATABASE_COMMANDS:
            assert "--db" not in {o for a in parser._actions for o in a.option_strings}, path


def test_db_reads_a_postgres_dsn_and_the_label_hides_its_password():
    env = database_env("postgresql://judge:s3cret@db.example:5433/club", {"SQLITE_DBNAME": "x.db"})
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_USER"], env["POSTGRES_PASSWORD"],
            env["POSTGRES_DBNAME"]) == ("db.example", "5433", "judge", "s3cret", "club")
    label = database_label(env)
    assert label == "PostgreSQL postgresql://judge@db.example:5433/club" and "s3cret" not in label
    sqlite = database_env("games/club.db", {"SQLITE_DBNAME": "other.db", "PERSISTENCE_MODULE": "eventsourcing.postgres"})
    assert sqlite["HERALD_DB"] == "games/club.db" and "SQLITE_DBNAME" not in sqlite
    assert database_label(sqlite) == f"SQLite {Path('games/club.db').absolute()}"


def test_port_taken_is_said_before_startup_and_nothing_is_opened(tmp_path):
    """A second server on a taken port stops with exit 1 and a sentence naming the port, before
    uvicorn starts the app: no "startup complete", no database, no key."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = herald("serve", "--port", str(port), cwd=tmp_path, env={"HERALD_DB": str(tmp_path / "var/herald.db")})
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr
    assert f"--port {port + 1}" in done.stderr and f"make run PORT={port + 1}" in done.stderr
    assert "startup complete" not in done.stdout + done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_banner_names_urls_database_key_and_umpire_before_startup(tmp_path):
    """The real server: its banner before "startup complete"; then the real `herald games list`
    reads its database while it runs."""
    port = free_port()
    db = tmp_path / "data" / "club.db"
    log = tmp_path / "server.log"
    base = {k: v for k, v in os.environ.items() if not k.startswith(("HERALD_", "SQLITE_", "PERSISTENCE_"))}
    process = subprocess.Popen([HERALD, "serve", "--port", str(port), "--db", str(db)], cwd=tmp_path,
                               env={**base, "HERALD_ADMIN_TOKEN": ADMIN_TOKEN}, stdout=log.open("wb"),
                               stderr=subprocess.STDOUT, process_group=0)
    running = track(process, group=True)
    try:
        deadline = time.monotonic() + 90
        while "startup complete" not in log.read_text() and time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            time.sleep(0.1)
        game = httpx.post(f"http://127.0.0.1:{port}/games", timeout=10, json={
            "rules": "open-table", "seats": {"ann": {"player": "Ann"}, "bo": {"player": "Bo"}}}).json()
        listed = herald("games", "list", "--db", str(db), cwd=tmp_path)  # beside the running server
        assert listed.returncode == 0, listed.stderr
        assert f"herald: database SQLite {db}" in listed.stderr
        assert game["id"] in listed.stdout and "Ann (ann), Bo (bo)" in listed.stdout
    finally:
        running.undo()
    text = log.read_text()
    banner = text[:text.index("startup complete")]
    for line in (f"API       http://127.0.0.1:{port}/", f"docs      http://127.0.0.1:{port}/docs",
                 f"viewer    http://127.0.0.1:{port}/viewer", f"database  SQLite {db}",
                 f"key       {db.parent / 'signing-key.pem'}", "umpire    set (HERALD_ADMIN_TOKEN)"):
        assert line in banner, banner
    assert ADMIN_TOKEN not in text
    assert db.is_file() and (db.parent / "signing-key.pem").is_file()


def test_banner_says_no_umpire_and_hides_the_postgres_password(monkeypatch):
    from api.cli import banner

    text = banner("0.0.0.0", 8080, {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_USER": "u",
                                     "POSTGRES_PASSWORD": "pw", "POSTGRES_HOST": "h", "HERALD_SIGNING_KEY": "/k.pem"})
    assert "listening on every interface" in text and "http://127.0.0.1:8080/docs" in text
    assert "database  PostgreSQL postgresql://u@h:5432/herald" in text and "pw" not in text
    assert "key       /k.pem" in text and "umpire    not set" in text


def run(monkeypatch, cwd: Path, *args: str) -> int:
    """``herald`` in-process (the console script is this function), in ``cwd``, with no
    database or key configured."""
    for key in list(os.environ):
        if key.startswith(("HERALD_", "SQLITE_", "POSTGRES_", "PERSISTENCE_")):
            monkeypatch.delenv(key)
    monkeypatch.chdir(cwd)
    try:
        return main(list(args))
    except SystemExit as stop:
        return stop.code


def test_read_commands_create_no_database_and_no_key(tmp_path, monkeypatch, capsys):
    for args in [("games", "list"), ("export", str(uuid.uuid4())), ("export", "--all", "--dir", "out")]:
        assert run(monkeypatch, tmp_path, *args) == 2, args
        assert f"no database at {tmp_path / 'var' / 'herald.db'}: nothing to read" in capsys.readouterr().err
        monkeypatch.setenv("HERALD_DB", "elsewhere.db")
        with pytest.raises(SystemExit) as stop:
            main([*args, "--db", str(tmp_path / "club.db")])
        assert stop.value.code == 2 and f"no database at {tmp_path / 'club.db'}" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_read_commands_make_no_key_beside_a_database(tmp_path, monkeypatch, capsys):
    """A database whose folder lost its key: a read says so and makes none (a new key would sign
    records this server did not write)."""
    db = tmp_path / "herald.db"
    open_database(argparse.Namespace(db=str(db)), read_only=False).close()  # makes the database and key
    (tmp_path / "signing-key.pem").unlink()
    assert run(monkeypatch, tmp_path, "games", "list", "--db", str(db)) == 2
    assert f"no signing key at {tmp_path / 'signing-key.pem'}" in capsys.readouterr().err
    assert not (tmp_path / "signing-key.pem").exists()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)  # --db names its SQLite file
def test_games_list_export_and_import_with_progress(client, backend, tmp_path, monkeypatch, capsys):
    db = backend.env["SQLITE_DBNAME"]
    ended = new_game(client)
    for seat in ("alice", "bob"):
        assert post(client, ended, seat, {"type": "end", "outcome": {"winner": "bob", "reason": "rout"}}).status_code == 201
    open_game = client.post("/games", json={"rules": "open-table", "seats": {"ann": {"player": "Ann Smith"},
                                                                             "bo": {"player": "Bo"}}}).json()

    assert run(monkeypatch, tmp_path, "games", "list", "--db", db) == 0
    listed = capsys.readouterr()
    assert f"herald: database SQLite {db}" in listed.err
    lines = listed.out.splitlines()
    assert lines[1].startswith(open_game["id"]) and "active" in lines[1] and "Ann Smith (ann), Bo (bo)" in lines[1]
    assert lines[2].startswith(ended["id"]) and "ended" in lines[2] and "Alice (alice), Bob (bob)" in lines[2]
    monkeypatch.setenv("HERALD_DB", db)
    assert main(["games", "list", "--status", "ended", "--json"]) == 0
    only = capsys.readouterr().out
    assert only.count("\n") == 1 and ended["id"] in only

    out = tmp_path / "records"
    assert main(["export", "--all", "--dir", str(out)]) == 0
    assert "games:" not in capsys.readouterr().err  # not a terminal, no --progress: no bar
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{g['id']}.json" for g in (ended, open_game))
    assert main(["export", "--all", "--dir", str(out), "--progress"]) == 0
    shown = capsys.readouterr().err
    assert "games: 100%" in shown and "2/2" in shown

    elsewhere = tmp_path / "other" / "herald.db"
    assert main(["import", str(out / f"{ended['id']}.json"), "--db", str(elsewhere), "--progress"]) == 0
    imported = capsys.readouterr()
    assert imported.out.strip() == ended["id"] and "records: 100%" in imported.err
    assert f"herald: database SQLite {elsewhere}" in imported.err
    assert main(["games", "list", "--db", str(elsewhere)]) == 0
    again = capsys.readouterr().out
    assert ended["id"] in again and open_game["id"] not in again
    # a game still in play cannot be imported: named, exit 1
    assert main(["import", str(out / f"{open_game['id']}.json"), "--db", str(elsewhere)]) == 1
    assert "only records whose seed is revealed" in capsys.readouterr().err


def test_db_takes_a_postgres_dsn(client, backend, tmp_path, monkeypatch, capsys):
    """`--db postgresql://…` reads a PostgreSQL database (run with HERALD_TEST_BACKENDS=…postgres)."""
    if backend.name != "postgres":
        pytest.skip("a PostgreSQL backend's test")
    game = new_game(client)
    env = backend.env
    dsn = f"postgresql://{env['POSTGRES_USER']}@{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/{env['POSTGRES_DBNAME']}"
    for key in list(os.environ):
        if key.startswith(("HERALD_", "SQLITE_", "POSTGRES_", "PERSISTENCE_")):
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HERALD_SIGNING_KEY", str(backend.key))
    if env.get("POSTGRES_PASSWORD"):
        monkeypatch.setenv("POSTGRES_PASSWORD", env["POSTGRES_PASSWORD"])
    assert main(["games", "list", "--db", dsn]) == 0
    listed = capsys.readouterr()
    assert f"herald: database PostgreSQL {dsn}" in listed.err and game["id"] in listed.out
    assert [p.name for p in tmp_path.iterdir()] == ["signing-key.pem"]  # the fixture's key; no SQLite file
