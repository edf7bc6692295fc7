"""Pure pairing functions, one per format. No clock, no random: every order comes from the
data handed in (standings, seeds, histories), so the same tournament pairs the same way.

The matching itself is networkx's maximum-weight matching (Edmonds' blossom algorithm with
integer weights, hence exact); the Swiss rules become edge weights, in strict priority:
no rematch and no second bye (edges left out), everyone paired (maximum cardinality),
sides kept within one, score groups, alternation of sides, then the Dutch "top half meets
bottom half" order inside a score group. See NOTES.md for every rule and its reason.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import networkx as nx

# Weight tiers (integers: networkx then computes exactly). Each tier outweighs everything below.
BASE = 10**16          # every edge: more pairs always beat better pairs
SIDE = 10**12          # a player pushed two games away from side balance
SCORE = 10**8          # per (half-point difference) squared
ALTERNATE = 10**7      # a player who cannot alternate sides
FLOAT_ORDER = 10**3    # per rank step: who floats down from an odd chunk (the lowest)
FOLD = 10              # per step away from the Dutch top-half/bottom-half partner

GLOBAL_LIMIT = 48      # up to this many players one exact matching; above, score groups in chunks
CHUNK = 20             # players per chunk of a large score group


class PairingImpossible(Exception):
    """No pairing satisfies the hard rules (no rematch, no second bye)."""


class Entrant(msgspec.Struct, frozen=True):
    """A player as pairing sees them. ``sides`` lists the seat index they took in each game
    (0 = the first seat, e.g. Crusaders; 1 = the second), oldest first."""

    name: str
    points: float = 0.0
    seed: int = 0
    opponents: frozenset[str] = frozenset()
    byes: int = 0
    sides: tuple[int, ...] = ()

    @property
    def balance(self) -> int:
        """First-seat games minus second-seat games."""
        return sum(1 if s == 0 else -1 for s in self.sides if s in (0, 1))

    @property
    def last_side(self) -> int | None:
        return next((s for s in reversed(self.sides) if s in (0, 1)), None)


class SwissPairing(msgspec.Struct, frozen=True):
    pairs: list[tuple[str, str]]  # (first seat, second seat), best table first
    bye: str | None


# -- Swiss, two seats a table -------------------------------------------------------------------
def pair_swiss(ranked: Sequence[Entrant], *, global_limit: int = GLOBAL_LIMIT, chunk: int = CHUNK) -> SwissPairing:
    """Pair one Swiss round. ``ranked`` is in standings order (best first). Raises
    :class:`PairingImpossible` when every pairing would need a rematch or a second bye."""
    players = list(ranked)
    if len(players) < 2:
        raise PairingImpossible("a Swiss round needs at least two players")
    if len(players) <= global_limit:
        matched, bye = _match(players, with_bye=len(players) % 2 == 1)
    else:
        matched, bye = _match_in_chunks(players, chunk)
    ordered = sorted((min(a, b), max(a, b)) for a, b in matched)
    return SwissPairing([_sides(players[a], players[b], t) for t, (a, b) in enumerate(ordered, start=1)], bye)


def _score_groups(players: Sequence[Entrant]) -> list[tuple[int, int]]:
    """(start, size) of each run of equal points."""
    groups, start = [], 0
    for i in range(1, len(players) + 1):
        if i == len(players) or players[i].points != players[start].points:
            groups.append((start, i - start))
            start = i
    return groups


def _side_cost(a: Entrant, b: Entrant, a_first: bool) -> int:
    cost = 0
    for player, first in ((a, a_first), (b, not a_first)):
        after = player.balance + (1 if first else -1)
        if abs(after) > 1:
            cost += SIDE * (abs(after) - 1)
        if player.last_side is not None and player.last_side == (0 if first else 1):
            cost += ALTERNATE
    return cost


def _weight(players: Sequence[Entrant], i: int, j: int, group_of: list[tuple[int, int]]) -> int:
    a, b = players[i], players[j]
    diff = round(abs(a.points - b.points) * 2)
    w = BASE - SCORE * diff * diff - min(_side_cost(a, b, True), _side_cost(a, b, False))
    (ga, ma), (gb, _) = group_of[i], group_of[j]
    if ga == gb:
        half = ma // 2
        w -= FOLD * abs(abs(j - i) - half)
    else:
        w -= FOLD * abs(j - i)
    w += FLOAT_ORDER * (2 * len(players) - i - j)
    return w


def _match(players: Sequence[Entrant], with_bye: bool) -> tuple[list[tuple[int, int]], str | None]:
    """One exact maximum-weight matching; the bye, if any, is a virtual lowest player that
    only players without a bye may meet. Raises PairingImpossible if someone is left over."""
    n = len(players)
    group_of = [(0, 0)] * n
    for start, size in _score_groups(players):
        for k in range(start, start + size):
            group_of[k] = (start, size)
    graph = nx.Graph()
    graph.add_nodes_from(range(n + (1 if with_bye else 0)))
    for i in range(n):
        for j in range(i + 1, n):
            if players[j].name not in players[i].opponents:
                graph.add_edge(i, j, weight=_weight(players, i, j, group_of))
    if with_bye:
        lowest = min(p.points for p in players)
        for i, p in enumerate(players):
            if p.byes == 0:
                diff = round((p.points - lowest) * 2)
                graph.add_edge(i, n, weight=BASE - SCORE * diff * diff + FLOAT_ORDER * i)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        paired = {v for e in matching for v in e}
        left = [players[v].name if v < n else "the bye" for v in range(graph.number_of_nodes()) if v not in paired]
        raise PairingImpossible(
            f"no pairing without a rematch or a second bye: {', '.join(left)} cannot be paired")
    bye = None
    pairs = []
    for a, b in matching:
        if n in (a, b):
            bye = players[min(a, b)].name
        else:
            pairs.append((a, b))
    return pairs, bye


def _blocks(players: Sequence[Entrant], chunk: int) -> list[list[int]]:
    """Score groups in order; a large group split into interleaved blocks so that each
    top-half player's Dutch partner from the bottom half lands in its own block."""
    blocks = []
    for start, size in _score_groups(players):
        members = list(range(start, start + size))
        if size <= chunk:
            blocks.append(members)
            continue
        count = -(-size // chunk)
        top, bottom = members[: size // 2], members[size // 2:]
        for t in range(count):
            blocks.append(top[t::count] + bottom[t::count])
    return blocks


def _match_in_chunks(players: Sequence[Entrant], chunk: int) -> tuple[list[tuple[int, int]], str | None]:
    """Large fields: the bye to the lowest player without one, then score groups from the
    top, each solved exactly with the players left over from the group above."""
    order = list(range(len(players)))
    bye = None
    if len(players) % 2:
        eligible = [i for i in reversed(order) if players[i].byes == 0]
        if not eligible:
            raise PairingImpossible("every player has had a bye")
        bye = eligible[0]
    blocks = [[i for i in block if i != bye] for block in _blocks(players, chunk)]
    blocks = [b for b in blocks if b]
    pairs: list[tuple[int, int]] = []
    done: list[list[tuple[int, int]]] = []
    carry: list[int] = []
    for block in blocks:  # a pair that would unbalance sides waits for the next block
        members = sorted(carry + block)
        found, carry = _solve_part(players, members, strict=True)
        done.append(found)
    undo = 1
    while carry:  # the last players could not meet: re-solve a growing tail together
        undo *= 2
        if undo > 2 * len(done):
            raise PairingImpossible("no pairing without a rematch for the lowest players")
        tail = done[-undo:] if undo < len(done) else done
        members = sorted(set(carry) | {v for part in tail for e in part for v in e})
        found, carry = _solve_part(players, members, strict=True)
        if carry:
            found, carry = _solve_part(players, members, strict=False)
        done = done[: len(done) - len(tail)] + [found]
    for part in done:
        pairs.extend(part)
    return pairs, (players[bye].name if bye is not None else None)


def _solve_part(players: Sequence[Entrant], members: list[int],
                strict: bool) -> tuple[list[tuple[int, int]], list[int]]:
    """One chunk, exactly. ``strict``: no pair that pushes a player's sides two apart."""
    sub = [players[i] for i in members]
    if len(sub) < 2:
        return [], members
    group_of = [(0, 0)] * len(sub)
    for start, size in _score_groups(sub):
        for k in range(start, start + size):
            group_of[k] = (start, size)
    graph = nx.Graph()
    graph.add_nodes_from(range(len(sub)))
    for i in range(len(sub)):
        for j in range(i + 1, len(sub)):
            if sub[j].name not in sub[i].opponents:
                if strict and min(_side_cost(sub[i], sub[j], True), _side_cost(sub[i], sub[j], False)) >= SIDE:
                    continue
                graph.add_edge(i, j, weight=_weight(sub, i, j, group_of))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    paired = {v for e in matching for v in e}
    return ([(members[a], members[b]) for a, b in matching],
            [members[v] for v in range(len(sub)) if v not in paired])


def _sides(a: Entrant, b: Entrant, table: int) -> tuple[str, str]:
    """Who takes the first seat: whoever keeps sides balanced and alternating; on a tie
    the higher-ranked player ``a`` takes the side they did not have last, or with no
    history the first seat on odd tables and the second on even ones."""
    first, second = _side_cost(a, b, True), _side_cost(a, b, False)
    if first != second:
        return (a.name, b.name) if first < second else (b.name, a.name)
    if a.balance != b.balance:
        return (a.name, b.name) if a.balance < b.balance else (b.name, a.name)
    if a.last_side is not None:
        return (a.name, b.name) if a.last_side == 1 else (b.name, a.name)
    if b.last_side is not None:
        return (a.name, b.name) if b.last_side == 0 else (b.name, a.name)
    return (a.name, b.name) if table % 2 == 1 else (b.name, a.name)


# -- multi-player tables -----------------------------------------------------------------------
def table_sizes(count: int, preferred: int, smallest: int, largest: int) -> list[int]:
    """Split ``count`` players into tables as close as possible to ``preferred`` players,
    each between ``smallest`` and ``largest``, sizes differing by at most one, larger
    tables first. Empty when it cannot be done."""
    if count <= 0:
        return []
    options = []
    for tables in range(1, count + 1):
        low, extra = divmod(count, tables)
        sizes = [low + 1] * extra + [low] * (tables - extra)
        if smallest <= sizes[-1] and sizes[0] <= largest:
            options.append((sum(abs(s - preferred) for s in sizes), sum(s > preferred for s in sizes), tables, sizes))
    return min(options)[-1] if options else []


def multi_tables(ranked: Sequence[Entrant], sizes: Sequence[int]) -> list[list[str]]:
    """Tables by score: the best-placed players together, in standings order."""
    out, at = [], 0
    for size in sizes:
        out.append([p.name for p in ranked[at: at + size]])
        at += size
    return out


def assign_seats(players: Sequence[str], seats: Sequence[str], used: dict[str, dict[str, int]]) -> dict[str, str]:
    """Seat a table so each player gets the seat they have had least (a bipartite
    maximum-weight matching); ties go to the earlier seat for the better-placed player.
    ``used[player][seat]`` counts earlier games in that seat. Returns seat -> player."""
    graph = nx.Graph()
    k = len(players)
    for i, player in enumerate(players):
        for j, seat in enumerate(seats[:k]):
            times = used.get(player, {}).get(seat, 0)
            graph.add_edge(("p", i), ("s", j), weight=10**9 - 10**6 * times * times - (i - j) ** 2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    out = {}
    for a, b in matching:
        p, s = (a, b) if a[0] == "p" else (b, a)
        out[seats[s[1]]] = players[p[1]]
    return {seat: out[seat] for seat in seats[:k]}


# -- round robin (Berger tables) -------------------------------------------------------------
def berger_round(count: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` (1-based) of the Berger tables for ``count`` seeds (1-based
    numbers; an odd count gets a dummy ``count + 1`` whose opponent has the bye). Each
    pair is (first seat, second seat); over all rounds every seed's sides differ by at most one."""
    n = count + (count % 2)
    if not 1 <= round_number <= n - 1:
        raise PairingImpossible(f"a round robin of {count} has rounds 1 to {n - 1}")
    start = 0
    for _ in range(round_number - 1):
        start = (start + n // 2) % (n - 1)
    ring = [((start + k) % (n - 1)) + 1 for k in range(n - 1)]
    pairs = [(ring[0], n) if round_number % 2 == 1 else (n, ring[0])]
    for i in range(1, n // 2):
        pairs.append((ring[i], ring[n - 1 - i]))
    return pairs


def round_robin_rounds(count: int) -> int:
    return count - 1 if count % 2 == 0 else count


# -- single elimination ------------------------------------------------------------------------
def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order for a power-of-two ``size``: seeds 1 and 2 can meet only
    in the final, 1-4 only in the semi-finals, and so on (1, 8, 4, 5, 2, 7, 3, 6 for 8)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_rounds(count: int) -> int:
    size = 1
    while size < count:
        size *= 2
    return max(1, size.bit_length() - 1)


def knockout_slots(seeded: Sequence[str]) -> list[str | None]:
    """The first round's slots, in bracket order; None is a bye for the seed it meets."""
    size = 2 ** knockout_rounds(len(seeded))
    return [seeded[s - 1] if s <= len(seeded) else None for s in bracket_order(size)]
