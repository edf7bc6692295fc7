"""Simulated tournaments over HTTP: a director, players with their own tokens playing random
legal games to the end, and an independent recomputation of the standings from the game
records alone (no tournament code is imported here)."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Run:
    id: str
    director: dict[str, str]
    players: dict[str, str]                     # name -> player token
    rounds: list[dict] = field(default_factory=list)  # the POST /rounds responses


def open_tournament(client, players: list[str], **body: Any) -> Run:
    made = client.post("/tournaments", json={"name": "Test Cup", **body})
    assert made.status_code == 201, made.text
    made = made.json()
    director = {"Authorization": f"Bearer {made['director_token']}"}
    tokens = {}
    for name in players:
        r = client.post(f"/tournaments/{made['id']}/players", json={"name": name}, headers=director)
        assert r.status_code == 201, r.text
        tokens[name] = r.json()["player_token"]
    return Run(made["id"], director, tokens)


def pair(client, run: Run) -> dict:
    r = client.post(f"/tournaments/{run.id}/rounds", headers=run.director)
    assert r.status_code == 201, r.text
    run.rounds.append(r.json())
    return r.json()


def my_seat_tokens(client, run: Run, round_number: int) -> dict[str, dict[str, str]]:
    """Each player fetches their own seat token for the round: game -> seat -> token."""
    out: dict[str, dict[str, str]] = defaultdict(dict)
    for name, token in run.players.items():
        r = client.get(f"/tournaments/{run.id}/my-games", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        for g in r.json()["games"]:
            if g["round"] == round_number:
                out[g["game"]][g["seat"]] = g["seat_token"]
    return out


def send(client, game: str, seat: str, token: str, command: dict) -> dict:
    r = client.post(f"/games/{game}/commands", json={"seat": seat, "command": command},
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    return r.json()


def play_open_table(client, game: str, tokens: dict[str, str], rng: random.Random, moves: int = 3,
                    outcome: dict | None = None) -> dict:
    """Random legal open-table commands (as listed by legal-commands), then every seat agrees
    on a random outcome (a winner, a ranking for larger tables, or a draw)."""
    seats = sorted(tokens)
    for _ in range(moves):
        seat = rng.choice(seats)
        listed = client.get(f"/games/{game}/legal-commands", params={"seat": seat},
                            headers={"Authorization": f"Bearer {tokens[seat]}"}).json()["commands"]
        choices = [c for c in listed if c["type"] != "end"]
        send(client, game, seat, tokens[seat], rng.choice(choices))
    if outcome is None:
        if rng.random() < 0.2:
            outcome = {"draw": True, "reason": "agreed"}
        else:
            order = seats[:]
            rng.shuffle(order)
            outcome = {"winner": order[0], "reason": "simulated", "ranking": order if len(order) > 2 else []}
    for seat in seats:
        send(client, game, seat, tokens[seat], {"type": "end", "outcome": outcome})
    return outcome


def play_legal_to_end(client, game: str, tokens: dict[str, str], rng: random.Random, limit: int = 5000) -> int:
    """Any rule system: the seat to act posts a random command from its legal list until the
    game ends. Returns the number of commands."""
    seats = sorted(tokens)
    for n in range(limit):
        rng.shuffle(seats)
        for seat in seats:  # the first seat with something to do acts
            listed = client.get(f"/games/{game}/legal-commands", params={"seat": seat},
                                headers={"Authorization": f"Bearer {tokens[seat]}"}).json()["commands"]
            if listed:
                break
        else:
            summary = client.get(f"/games/{game}").json()
            assert summary["status"] == "ended", f"dead end: nobody can act in {game}, to act: {summary['to_act']}"
            return n
        sent = send(client, game, seat, tokens[seat], rng.choice(listed))
        if any(e["type"] == "GameEnded" for e in sent["events"]):
            return n + 1
    raise AssertionError(f"game {game} did not end in {limit} commands")


# -- the independent recomputation -------------------------------------------------------------
def records_of(client, tournament: str) -> list[dict]:
    """Every game of the tournament from the NDJSON export: portable records."""
    import json

    r = client.get(f"/tournaments/{tournament}/games")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in r.text.splitlines() if line.strip()]


def places(seats: list[str], outcome: dict) -> dict[str, int]:
    scores = outcome.get("scores") or {}
    if outcome.get("draw"):
        if len(seats) > 2 and all(s in scores for s in seats):
            return {s: len([o for o in seats if scores[o] > scores[s]]) for s in seats}
        return {s: 0 for s in seats}
    ranking = [s for s in outcome.get("ranking") or [] if s in seats]
    if ranking:
        return {s: ranking.index(s) if s in ranking else len(ranking) for s in seats}
    return {s: 0 if s == outcome.get("winner") else 1 for s in seats}


def recompute(records: list[dict], players: list[str], bye_points: float = 1.0,
              rounds: int | None = None) -> dict[str, dict[str, float]]:
    """Points, Buchholz and Sonneborn-Berger from the game records alone: a registered
    player with no game in a round had a bye worth ``bye_points``."""
    played_in: dict[int, set[str]] = defaultdict(set)
    margins: dict[str, float] = defaultdict(float)
    games = []
    for record in records:
        ref = record["header"]["tournament"]
        ended = [e for e in record["events"] if e["type"] == "GameEnded"]
        seats = {s: i["player"] for s, i in record["header"]["seats"].items()}
        played_in[ref["round"]] |= set(seats.values())
        assert ended, f"game {record['header']['game']} has not ended"
        outcome = ended[-1]["data"]["outcome"]
        place = places(list(seats), outcome)
        share = {seats[a]: {seats[b]: (1.0 if place[a] < place[b] else 0.5 if place[a] == place[b] else 0.0)
                            for b in seats if b != a} for a in seats}
        games.append(share)
        scores = outcome.get("scores") or {}
        if len(scores) == len(seats):
            for a in seats:
                others = [scores[b] for b in seats if b != a]
                margins[seats[a]] += scores[a] - sum(others) / len(others)
    points = {p: 0.0 for p in players}
    for share in games:
        for p, row in share.items():
            points[p] += sum(row.values()) / len(row)
    for r in range(1, (rounds or max(played_in)) + 1):
        for p in players:
            if p not in played_in[r]:
                points[p] += bye_points
    out = {p: {"points": points[p], "buchholz": 0.0, "sonneborn_berger": 0.0, "margin": margins[p],
               "head_to_head": 0.0} for p in players}
    for share in games:
        for p, row in share.items():
            out[p]["buchholz"] += sum(points[o] for o in row) / len(row)
            out[p]["sonneborn_berger"] += sum(s * points[o] for o, s in row.items()) / len(row)
    tied: dict[tuple, list[str]] = defaultdict(list)
    for p in players:
        tied[tuple(round(out[p][k], 9) for k in ("points", "buchholz", "sonneborn_berger"))].append(p)
    for group in tied.values():
        if len(group) > 1:
            for share in games:
                for p, row in share.items():
                    if p in group:
                        out[p]["head_to_head"] += sum(s for o, s in row.items() if o in group)
    return out


def expected_order(expected: dict[str, dict[str, float]], players: list[str]) -> list[str]:
    """Points, Buchholz, Sonneborn-Berger, head-to-head, margin, then seed (registration order)."""
    keys = ("points", "buchholz", "sonneborn_berger", "head_to_head", "margin")
    return sorted(players, key=lambda p: (tuple(-round(expected[p][k], 9) for k in keys), players.index(p)))


def assert_standings_match(standings: list[dict], expected: dict[str, dict[str, float]],
                           players: list[str] | None = None) -> None:
    for row in standings:
        want = expected[row["player"]]
        for key in ("points", "buchholz", "sonneborn_berger", "head_to_head", "margin"):
            assert abs(row[key] - want[key]) < 1e-6, (row["player"], key, row[key], want[key])
    if players is not None:
        assert [r["player"] for r in standings] == expected_order(expected, players)
    assert [r["rank"] for r in standings] == list(range(1, len(standings) + 1))
