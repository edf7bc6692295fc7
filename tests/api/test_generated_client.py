"""Issue 18, "The contract", and issue 27 point 1: a client generated from `openapi/openapi.json`
by openapi-python-client (pinned in the `test` extra) is used as it is generated.

Issue 27: "A test generates the client with openapi-python-client (pinned) and plays every rule
system to its end through it alone, hidden hands included." Each seat is the generated
``AuthenticatedClient`` with its own token (the bearer security scheme), a spectator the plain
``Client``; every command is one the client decoded from ``GET /legal-commands`` into the rule
system's own class (``SalinePlayCard``, never ``OpenTablePlay``: ``LegalCommands`` is one schema
per rule system, discriminated on ``rules``) and posted back as it came. A game with secrets lists
a seat's commands (the cards in its hand) to its token only.

The fast case plays against a real ``herald serve``; the games to their end are played against
the app served by uvicorn in this process, so that the game ids and server seeds are fixed as in
tests/rules/test_every_game_ends.py: each case is the same game on every run.
"""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from uuid import UUID

import pytest

from api.app import create_app
from api.config import Settings
from domain.rules.registry import RULE_SYSTEMS
from domain.rules.schemas import schema_prefix
from tests.conftest import ADMIN_TOKEN, free_port, start_server
from tests.rules.test_every_game_ends import Case, covering, fixed_game

OPENAPI = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
GENERATOR = Path(sys.executable).parent / "openapi-python-client"


def generate(folder: Path) -> subprocess.Popen:
    config = folder / "generator.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: the code is used as generated
    return subprocess.Popen([str(GENERATOR), "generate", "--path", str(OPENAPI), "--output-path",
                             str(folder / "herald_client"), "--meta", "none", "--config", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def imported(folder: Path, generator: subprocess.Popen) -> ModuleType:
    output, _ = generator.communicate(timeout=120)
    assert generator.returncode == 0, output
    assert "Warning" not in output, f"the document is not generator-clean:\n{output}"
    sys.path.insert(0, str(folder))
    return importlib.import_module("herald_client")


def forget(folder: Path) -> None:
    if str(folder) in sys.path:
        sys.path.remove(str(folder))
    for name in [n for n in sys.modules if n == "herald_client" or n.startswith("herald_client.")]:
        del sys.modules[name]


@pytest.fixture
def generated(tmp_path):
    """The generated package ``herald_client`` (imported from a temporary folder) and a real
    ``herald serve``: the generator runs while the server starts."""
    generator = generate(tmp_path)
    (tmp_path / "server").mkdir()
    server = start_server(tmp_path / "server")
    try:
        yield imported(tmp_path, generator), server
    finally:
        generator.kill()
        server.process.terminate()
        server.process.wait(timeout=10)
        forget(tmp_path)


class Player:
    """The generated client, one seat's or a spectator's: every call and every model is the
    generated code's."""

    def __init__(self, base_url: str, token: str | None = None):
        from herald_client import AuthenticatedClient, Client

        self.client = (AuthenticatedClient(base_url=base_url, token=token, raise_on_unexpected_status=True, timeout=None)
                       if token else Client(base_url=base_url, raise_on_unexpected_status=True, timeout=None))


def new_game(base_url: str, rules: str, seats: dict[str, str], scenario: str, options: dict | None = None):
    from herald_client.api.default import create_game
    from herald_client.models import (CreateGame, CreateGameOptions, CreateGameRules, CreateGameSeats,
                                      GameCreatedResponse, SeatRequest)

    table = CreateGameSeats()
    for seat, player in seats.items():
        table[seat] = SeatRequest(player=player)
    body = CreateGame(rules=CreateGameRules(rules), seats=table, scenario=scenario,
                      options=CreateGameOptions.from_dict(options or {}))
    created = create_game.sync(client=Player(base_url).client, body=body)
    assert isinstance(created, GameCreatedResponse), created
    return created


def test_a_generated_client_plays_with_typed_models_and_the_bearer_scheme(generated):
    _, live_server = generated
    from herald_client.api.default import get_game, legal_commands, post_command, stream_events
    from herald_client.models import (CommandRequest, CommandResponse, GameSummary, OpenTableEnd, OpenTableEndType,
                                      OpenTableLegalCommands, OpenTableOutcome, OpenTableRoll, OpenTableRollType,
                                      OpenTableTake, OpenTableTakeType, OpenTableView, Problem, SaladinLegalCommands,
                                      SaladinView)

    url = live_server.url
    table = new_game(url, "open-table", {"alice": "Alice", "bob": "Bob"}, "table")
    seats = {seat: Player(url, token).client for seat, token in table.seat_tokens.to_dict().items()}

    def send(seat: str, command) -> CommandResponse:
        answer = post_command.sync(UUID(table.id), client=seats[seat], body=CommandRequest(seat=seat, command=command))
        assert isinstance(answer, CommandResponse), answer
        return answer

    rolled = send("alice", OpenTableRoll(type_=OpenTableRollType.ROLL, label="initiative", dice="2d6"))
    assert rolled.events[-1].type_ == "DiceRolled"
    send("bob", OpenTableTake(type_=OpenTableTakeType.TAKE, deck="standard-54", count=2))
    # bob's hand is his: his token lists the cards he may play, a spectator is refused
    mine = legal_commands.sync(UUID(table.id), client=seats["bob"], seat="bob")
    assert isinstance(mine, OpenTableLegalCommands) and any(c.type_ == "play" for c in mine.commands)
    refused = legal_commands.sync(UUID(table.id), client=Player(url).client, seat="bob")
    assert isinstance(refused, Problem) and refused.status == 401
    draw = OpenTableOutcome(draw=True, reason="agreed")
    send("alice", OpenTableEnd(type_=OpenTableEndType.END, outcome=draw))
    ended = send("bob", OpenTableEnd(type_=OpenTableEndType.END, outcome=draw))
    assert isinstance(ended.view, OpenTableView) and ended.view.ended is not None and ended.view.ended.draw is True
    summary = get_game.sync(UUID(table.id), client=Player(url).client)
    assert isinstance(summary, GameSummary) and summary.outcome is not None
    # the live feed is text/event-stream, read as text (this game has ended: the stream closes)
    stream = stream_events.sync(UUID(table.id), client=Player(url).client)
    assert isinstance(stream, str) and "event: GameEnded\n" in stream and "event: SeedRevealed\n" in stream

    saladin = new_game(url, "saladin", {"crusaders": "Guy", "ayyubids": "Yusuf"}, "hattin")
    current = get_game.sync(UUID(saladin.id), client=Player(url).client)
    seat = current.to_act[0]
    legal = legal_commands.sync(UUID(saladin.id), client=Player(url).client, seat=seat)
    assert isinstance(legal, SaladinLegalCommands) and legal.rules == "saladin"
    assert legal.commands and len(legal.labels) == len(legal.commands) and legal.prompt
    assert {type(c).__name__[:7] for c in legal.commands} == {"Saladin"}
    posted = post_command.sync(UUID(saladin.id), client=Player(url, saladin.seat_tokens[seat]).client,
                               body=CommandRequest(seat=seat, command=legal.commands[-1]))
    assert isinstance(posted, CommandResponse) and isinstance(posted.view, SaladinView), posted


# -- every rule system to its end ------------------------------------------------------------------
P = ("p1", "p2", "p3", "p4")
CASES = covering([
    Case("open-table", "table", P[:2], 1, 300),
    Case("saladin", "arsuf", ("crusaders", "ayyubids"), 1, 600),
    Case("saladin", "hattin", ("crusaders", "ayyubids"), 2, 600),
    Case("saxon-shore", "standard", P[:2], 7, 600, {"turn_limit": 1}),  # a house rule: a §1 victory is far
    Case("saline", "standard", P[:2], 0, 1000),
    Case("kingdoms-of-crusaders", "standard", P[:2], 1, 600),
    Case("day-of-battle", "crusaders-seljuq-turks", ("crusaders", "seljuq-turks"), 1, 600),
])


@pytest.fixture
def served(herald, tmp_path) -> Iterator[str]:
    """The app on the test's Herald served over HTTP by uvicorn in this process (so the game
    service's ids and seeds can be fixed), write limits off: one test plays every seat."""
    import uvicorn

    app = create_app(herald, Settings(admin_token=ADMIN_TOKEN, writes_per_token=0, writes_per_address=0))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@pytest.fixture
def client_package(tmp_path) -> Iterator[ModuleType]:
    generator = generate(tmp_path)
    try:
        yield imported(tmp_path, generator)
    finally:
        generator.kill()
        forget(tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.rules}-{c.scenario}")
def test_a_generated_client_plays_every_rule_system_to_its_end(client_package, served, monkeypatch, case):
    from herald_client.api.default import check_command, get_game, legal_commands, post_command, state_at
    from herald_client.models import CheckResult, CommandRequest, CommandResponse, GameSummary, Problem, StateAt

    system = RULE_SYSTEMS[case.rules]
    prefix = schema_prefix(system)
    fixed_game(monkeypatch, case.seed)
    game = new_game(served, case.rules, {s: f"Player {s}" for s in case.seats}, case.scenario, case.options)
    game_id = UUID(game.id)
    spectator = Player(served).client
    seats = {seat: Player(served, token).client for seat, token in game.seat_tokens.to_dict().items()}
    rnd = random.Random(case.seed)
    for decision in range(case.limit + 1):
        summary = get_game.sync(game_id, client=spectator)
        assert isinstance(summary, GameSummary) and type(summary.view).__name__ == f"{prefix}View", summary
        if summary.status == "ended":
            break
        seat = rnd.choice(summary.to_act)
        if system.has_secrets and decision == 0:  # the seat's commands name its cards: its token only
            refused = legal_commands.sync(game_id, client=spectator, seat=seat)
            assert isinstance(refused, Problem) and refused.status == 401, refused
        if decision % 10 == 0:  # the seat's own view (its hand, its objective)
            own = get_game.sync(game_id, client=seats[seat])
            assert type(own.view).__name__ == f"{prefix}View", own
        legal = legal_commands.sync(game_id, client=seats[seat], seat=seat)
        assert type(legal).__name__ == f"{prefix}LegalCommands" and legal.rules == case.rules, legal
        assert legal.commands, f"{case}: {seat} is to act at version {legal.version} and nothing is listed"
        for command in legal.commands:
            assert type(command).__name__.startswith(prefix), f"{command!r} decoded as another rule system's"
        for choice in legal.choices:
            assert type(choice).__name__.startswith(prefix), f"{choice!r} decoded as another rule system's"
        kinds = sorted({c.type_ for c in legal.commands}, key=str)
        kind = rnd.choice(kinds)
        command = rnd.choice([c for c in legal.commands if c.type_ == kind])
        body = CommandRequest(seat=seat, command=command, expected_version=legal.version)
        if decision % 25 == 0:  # a dry run first, now and then
            checked = check_command.sync(game_id, client=seats[seat], body=body)
            assert isinstance(checked, CheckResult) and checked.accepted, checked
        posted = post_command.sync(game_id, client=seats[seat], body=body)
        assert isinstance(posted, CommandResponse), f"{case}: {command!r} at version {legal.version}: {posted}"
        assert type(posted.view).__name__ == f"{prefix}View"
    else:
        raise AssertionError(f"{case}: not ended within {case.limit} decisions")
    assert summary.outcome is not None
    if system.has_secrets:  # after the reveal a spectator reads every step whole
        past = state_at.sync(game_id, client=spectator, at=max(2, summary.version // 2))
        assert isinstance(past, StateAt) and type(past.view).__name__ == f"{prefix}View"
