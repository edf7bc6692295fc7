"""Issue 18, "The contract": "a generator (openapi-python-client, openapi-typescript) yields a
usable typed client. Show it: a test generates a Python client from `openapi/openapi.json` with
such a generator and plays a game with it."

The client is generated from the committed document into a temporary folder, imported, and
plays against a real ``herald serve`` using only its typed models: an open-table game to its
agreed end, then Saladin and The Kingdoms of Crusaders commands picked from the typed legal
commands (with their labels) and posted back as they came.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from uuid import UUID

import pytest

from tests.conftest import start_server

OPENAPI = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
GENERATOR = Path(sys.executable).parent / "openapi-python-client"


@pytest.fixture
def generated(tmp_path):
    """The generated package ``herald_client`` (imported from a temporary folder) and a real
    ``herald serve``: the generator runs while the server starts."""
    config = tmp_path / "generator.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: the code is used as generated
    generator = subprocess.Popen([str(GENERATOR), "generate", "--path", str(OPENAPI), "--output-path",
                                  str(tmp_path / "herald_client"), "--meta", "none", "--config", str(config)],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    (tmp_path / "server").mkdir()
    server = start_server(tmp_path / "server")
    try:
        output, _ = generator.communicate(timeout=120)
        assert generator.returncode == 0, output
        assert "Warning" not in output, f"the document is not generator-clean:\n{output}"
        sys.path.insert(0, str(tmp_path))
        yield importlib.import_module("herald_client"), server
    finally:
        generator.kill()
        server.process.terminate()
        server.process.wait(timeout=10)
        if str(tmp_path) in sys.path:
            sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == "herald_client" or n.startswith("herald_client.")]:
            del sys.modules[name]


def test_a_generated_client_plays_whole_games_with_typed_models(generated):
    _, live_server = generated
    from herald_client import Client
    from herald_client.api.default import create_game, get_game, legal_commands, post_command
    from herald_client.models import (
        CommandRequest, CommandResponse, CreateGame, CreateGameRules, CreateGameSeats, GameCreatedResponse,
        GameSummary, LegalCommands, OpenTableEnd, OpenTableEndType, OpenTableOutcome, OpenTableRoll,
        OpenTableRollType, OpenTableTake, OpenTableTakeType, OpenTableView, Problem, SaladinView, SeatRequest)

    client = Client(base_url=live_server.url, raise_on_unexpected_status=True, timeout=None)

    def new_game(rules: str, seats: dict[str, str], scenario: str | None = None) -> GameCreatedResponse:
        table = CreateGameSeats()
        for seat, player in seats.items():
            table[seat] = SeatRequest(player=player)
        created = create_game.sync(client=client, body=CreateGame(rules=CreateGameRules(rules), seats=table,
                                                                  scenario=scenario))
        assert isinstance(created, GameCreatedResponse), created
        return created

    def send(game: GameCreatedResponse, seat: str, command) -> CommandResponse:
        answer = post_command.sync(UUID(game.id), client=client, body=CommandRequest(seat=seat, command=command),
                                   authorization=f"Bearer {game.seat_tokens[seat]}")
        assert isinstance(answer, CommandResponse), answer
        return answer

    # An open table: a roll, a card into a hand, an end both seats agree on.
    table = new_game("open-table", {"alice": "Alice", "bob": "Bob"})
    rolled = send(table, "alice", OpenTableRoll(type_=OpenTableRollType.ROLL, label="initiative", dice="2d6"))
    assert rolled.events[-1].type_ == "DiceRolled"
    send(table, "bob", OpenTableTake(type_=OpenTableTakeType.TAKE, deck="standard-54", count=2))
    draw = OpenTableOutcome(draw=True, reason="agreed")
    send(table, "alice", OpenTableEnd(type_=OpenTableEndType.END, outcome=draw))
    ended = send(table, "bob", OpenTableEnd(type_=OpenTableEndType.END, outcome=draw))
    assert isinstance(ended.view, OpenTableView)
    assert ended.view.ended is not None and ended.view.ended.draw is True
    summary = get_game.sync(UUID(table.id), client=client)
    assert isinstance(summary, GameSummary) and summary.outcome is not None

    # Saladin and The Kingdoms of Crusaders: typed legal commands, labelled, posted back as they are.
    games = [new_game("saladin", {"crusaders": "Guy", "ayyubids": "Yusuf"}, "hattin"),
             new_game("kingdoms-of-crusaders", {"p1": "Ada", "p2": "Brice"})]
    for game in games:
        for _ in range(4):
            current = get_game.sync(UUID(game.id), client=client)
            assert isinstance(current, GameSummary) and current.to_act, current
            seat = current.to_act[0]
            legal = legal_commands.sync(UUID(game.id), client=client, seat=seat,
                                        authorization=f"Bearer {game.seat_tokens[seat]}")
            assert isinstance(legal, LegalCommands) and not isinstance(legal, Problem)
            assert legal.commands and len(legal.labels) == len(legal.commands) and legal.prompt
            command = legal.commands[-1]
            assert type(command).__name__.startswith(("Saladin", "KingdomsOfCrusaders")), type(command)
            answer = send(game, seat, command)
            assert answer.version > legal.version
    last = get_game.sync(UUID(games[0].id), client=client)
    assert isinstance(last.view, SaladinView) and last.view.turn >= 1
