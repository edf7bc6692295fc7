"""Standings, tie-breaks and the crosstable, computed from a tournament's events alone (pure).

Points: a table of k players gives each player (players ranked below + ½ × players tied)
÷ (k − 1): win 1, draw ½, loss 0 at a two-player table; ranking points at a larger one.
A result's order: a draw ties everyone (at a larger table whose outcome scores every seat, a
draw ties only equal scores); else the outcome's ``ranking`` (unlisted seats tied below), else
the winner above everyone else. A forfeit puts the forfeiting players below
the others (all forfeiting: everyone scores 0). Byes score their recorded points;
adjustments add theirs. Ranking: points, Buchholz, Sonneborn-Berger, head-to-head among
the players still tied, the rule-system margin, then seed. NOTES.md explains each.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from typing import Any

import msgspec

from domain.events import Outcome
from domain.tournaments.events import TablePairing
from domain.tournaments.model import Tournament


class GameResult(msgspec.Struct, frozen=True):
    """One finished table: who sat where, what each scored, and the game record it came from."""

    round: int
    table: int
    game: str
    seats: dict[str, str]
    points: dict[str, float]          # player -> points from this table
    shares: dict[str, dict[str, float]]  # player -> opponent -> 1 / ½ / 0
    scores: dict[str, float]          # player -> the rule system's score (e.g. Orders left)
    played: bool                      # False for a forfeit
    version: int | None = None        # the game's GameEnded version and hash
    hash: str | None = None
    reason: str = ""


class Standing(msgspec.Struct, frozen=True):
    rank: int
    player: str
    seed: int
    points: float
    buchholz: float
    sonneborn_berger: float
    head_to_head: float
    margin: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    adjustment: float
    withdrawn: bool


class CrossCell(msgspec.Struct, frozen=True):
    round: int
    kind: str                      # "game", "forfeit", "bye", "unfinished"
    points: float | None = None
    opponents: list[str] = []
    opponent_ranks: list[int] = []
    seat: str | None = None
    game: str | None = None
    hash: str | None = None
    reason: str = ""


class CrossRow(msgspec.Struct, frozen=True):
    rank: int
    player: str
    points: float
    rounds: list[CrossCell]


def order_of(seats: dict[str, str], outcome: Outcome) -> dict[str, int]:
    """Each seat's place (0 best; equal places are ties) in a finished game."""
    if outcome.draw:
        if len(seats) > 2 and all(s in outcome.scores for s in seats):  # e.g. tied for most provinces
            return {s: sum(outcome.scores[o] > outcome.scores[s] for o in seats) for s in seats}
        return {s: 0 for s in seats}
    if outcome.ranking:
        listed = [s for s in outcome.ranking if s in seats]
        place = {s: i for i, s in enumerate(listed)}
        return {s: place.get(s, len(listed)) for s in seats}
    if outcome.winner in seats:
        return {s: 0 if s == outcome.winner else 1 for s in seats}
    return {s: 0 for s in seats}


def _shares(places: dict[str, int]) -> dict[str, dict[str, float]]:
    return {a: {b: 1.0 if pa < pb else 0.5 if pa == pb else 0.0 for b, pb in places.items() if b != a}
            for a, pa in places.items()}


def game_results(t: Tournament) -> list[GameResult]:
    """Every table with a result or a forfeit, in round and table order (a forfeit overrides play)."""
    out = []
    for paired in t.rounds:
        for table in paired.tables:
            found = _result(t, paired.round, table)
            if found is not None:
                out.append(found)
    return out


def _result(t: Tournament, round_number: int, table: TablePairing) -> GameResult | None:
    players = list(table.seats.values())
    forfeit = t.forfeits.get(table.game)
    result = t.results.get(table.game)
    if forfeit is not None:
        lost = set(forfeit.forfeited)
        places = {p: (1 if p in lost else 0) for p in players}
        shares = _shares(places)
        if lost == set(players):
            shares = {a: {b: 0.0 for b in row} for a, row in shares.items()}
        points = {p: (sum(row.values()) / max(1, len(row))) for p, row in shares.items()}
        return GameResult(round_number, table.table, table.game, table.seats, points, shares, {}, False,
                          reason=forfeit.reason)
    if result is None:
        return None
    by_seat = order_of(table.seats, result.outcome)
    places = {table.seats[s]: place for s, place in by_seat.items()}
    shares = _shares(places)
    points = {p: sum(row.values()) / max(1, len(row)) for p, row in shares.items()}
    scores = {table.seats[s]: float(v) for s, v in result.outcome.scores.items() if s in table.seats}
    return GameResult(round_number, table.table, table.game, table.seats, points, shares, scores, True,
                      result.version, result.hash, result.reason)


def table_points(t: Tournament, table: TablePairing) -> dict[str, float]:
    paired = next((r for r in t.rounds if any(x.game == table.game for x in r.tables)), None)
    found = _result(t, paired.round if paired else 0, table)
    return found.points if found else {}


def points_by_player(t: Tournament) -> dict[str, float]:
    points: dict[str, float] = {p: 0.0 for p in t.players}
    for r in game_results(t):
        for player, value in r.points.items():
            points[player] += value
    for bye in t.byes:
        points[bye.player] += bye.points
    for adjustment in t.adjustments:
        points[adjustment.player] += adjustment.points
    return points


def standings(t: Tournament) -> list[Standing]:
    """The table of the tournament, best first."""
    results = game_results(t)
    points = points_by_player(t)
    buchholz: dict[str, float] = defaultdict(float)
    sb: dict[str, float] = defaultdict(float)
    margin: dict[str, float] = defaultdict(float)
    tally: dict[str, list[int]] = {p: [0, 0, 0, 0] for p in t.players}  # games, wins, draws, losses
    played: dict[str, list[GameResult]] = {p: [] for p in t.players}
    for r in results:
        for player, row in r.shares.items():
            if r.played:
                played[player].append(r)
                opponents = list(row)
                buchholz[player] += sum(points[o] for o in opponents) / len(opponents)
                sb[player] += sum(share * points[o] for o, share in row.items()) / len(opponents)
                if len(r.scores) == len(r.seats):
                    others = [r.scores[o] for o in opponents]
                    margin[player] += r.scores[player] - sum(others) / len(others)
            mine = r.points[player]
            tally[player][0] += 1
            tally[player][1 if mine == 1 else 3 if mine == 0 else 2] += 1
    byes = defaultdict(int)
    for bye in t.byes:
        byes[bye.player] += 1
    adjusted = defaultdict(float)
    for a in t.adjustments:
        adjusted[a.player] += a.points
    def key(name: str) -> tuple[float, float, float]:  # compared to 9 places: sums of thirds tie as they should
        return (-round(points[name], 9), -round(buchholz[name], 9), -round(sb[name], 9))

    base = sorted(t.players.values(), key=lambda p: key(p.name))
    ordered = []
    i = 0
    while i < len(base):
        j = i
        while j < len(base) and key(base[j].name) == key(base[i].name):
            j += 1
        group = {p.name for p in base[i:j]}
        h2h = {p: sum(share for r in played[p] for o, share in r.shares[p].items() if o in group) for p in group}
        for p in sorted(base[i:j], key=lambda p: (-round(h2h[p.name], 9), -round(margin[p.name], 9), p.seed, p.name)):
            ordered.append((p, h2h[p.name] if len(group) > 1 else 0.0))
        i = j
    return [
        Standing(rank=n, player=p.name, seed=p.seed, points=points[p.name], buchholz=_r(buchholz[p.name]),
                 sonneborn_berger=_r(sb[p.name]), head_to_head=_r(h2h_value), margin=_r(margin[p.name]),
                 games=tally[p.name][0], wins=tally[p.name][1], draws=tally[p.name][2], losses=tally[p.name][3],
                 byes=byes[p.name], adjustment=adjusted[p.name], withdrawn=p.withdrawn_after is not None)
        for n, (p, h2h_value) in enumerate(ordered, start=1)
    ]


def _r(value: float) -> float:
    """Tie-break values rounded for display; the order was decided on the exact values."""
    return round(value, 6)


def crosstable(t: Tournament, table: list[Standing] | None = None) -> list[CrossRow]:
    """One row per player in standings order, one cell per round: opponents by rank, seat,
    points, and the game and GameEnded hash each result came from."""
    table = table if table is not None else standings(t)
    rank = {s.player: s.rank for s in table}
    results = {(r.round, r.table): r for r in game_results(t)}
    cells: dict[str, dict[int, CrossCell]] = {s.player: {} for s in table}
    for paired in t.rounds:
        for x in paired.tables:
            r = results.get((paired.round, x.table))
            kind = "unfinished" if r is None else "game" if r.played else "forfeit"
            for seat, player in x.seats.items():
                opponents = [v for v in x.seats.values() if v != player]
                cells[player][paired.round] = CrossCell(
                    paired.round, kind, r.points[player] if r else None, opponents, [rank[o] for o in opponents],
                    seat, x.game, r.hash if r else None, r.reason if r else "")
    for bye in t.byes:
        cells[bye.player][bye.round] = CrossCell(bye.round, "bye", bye.points, reason=bye.reason)
    return [CrossRow(s.rank, s.player, s.points,
                     [cells[s.player].get(n, CrossCell(n, "none")) for n in range(1, len(t.rounds) + 1)])
            for s in table]


STANDING_COLUMNS = ["rank", "player", "seed", "points", "buchholz", "sonneborn_berger", "head_to_head", "margin",
                    "games", "wins", "draws", "losses", "byes", "adjustment", "withdrawn"]


def standings_csv(table: list[Standing]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STANDING_COLUMNS)
    for s in table:
        writer.writerow([_cell(getattr(s, c)) for c in STANDING_COLUMNS])
    return out.getvalue()


def crosstable_csv(rows: list[CrossRow]) -> str:
    """Rank, player, one column per round ("1 v3 crusaders", "0.5 v2,5 p1", "1 bye", "0 v4 forfeit"), points."""
    rounds = max((len(r.rounds) for r in rows), default=0)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "player", *[f"r{i}" for i in range(1, rounds + 1)], "points"])
    for row in rows:
        writer.writerow([row.rank, row.player, *[_cross(c) for c in row.rounds], _cell(row.points)])
    return out.getvalue()


def _cross(cell: CrossCell) -> str:
    if cell.kind == "none":
        return ""
    if cell.kind == "bye":
        return f"{_cell(cell.points)} bye"
    shown = "?" if cell.points is None else _cell(cell.points)
    tail = "forfeit" if cell.kind == "forfeit" else cell.seat or ""
    return f"{shown} v{','.join(map(str, cell.opponent_ranks))} {tail}".strip()


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
