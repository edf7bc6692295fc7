// The move list: the decisions grouped by turn and phase, with jumps by turn and by phase.
// The turns and phases come from the game's outline (GET /viewer/games/{id}/outline, or
// /viewer/records/{key}/outline for a record file): [{start, turn, phase}], one section where either changes.
// Only the turn on the board is listed move by move; the others are one line each, so a
// 5,000-step game stays a short list.
import { esc, sentence } from "./dom.js";

/** The index of the section holding ``version`` (binary search; -1 before the first). */
export function sectionAt(sections, version) {
  let lo = 0, hi = sections.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sections[mid].start <= version) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

/** Turns in order: [{turn, start, end, phases: [{phase, start, end}]}]; end is exclusive. */
export function turnsOf(sections, head) {
  const turns = [];
  sections.forEach((s, i) => {
    const end = i + 1 < sections.length ? sections[i + 1].start : head + 1;
    let t = turns[turns.length - 1];
    if (!t || t.turn !== s.turn) {
      t = { turn: s.turn, start: s.start, end, phases: [] };
      turns.push(t);
    }
    t.end = end;
    const p = t.phases[t.phases.length - 1];
    if (p && p.phase === s.phase) p.end = end; else t.phases.push({ phase: s.phase, start: s.start, end });
  });
  return turns;
}

function turnName(t) { return t.turn === null ? "Setup" : `Turn ${t.turn}`; }
function phaseName(p) { return p.phase === null ? "—" : sentence(p.phase); }

/**
 * Draw the move list into ``box`` for the board at ``version``.
 * ``decisions``: [{version, seat, text}] in order; ``who(seat)`` a seat's label with its player.
 */
export function drawMoveList(box, { sections, head, version, decisions, who }) {
  const turns = turnsOf(sections, head);
  const current = turns.findIndex((t) => version >= t.start && version < t.end);
  const count = (a, b) => {
    // decisions with a <= version < b (decisions are sorted)
    let lo = 0, hi = decisions.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (decisions[m].version < a) lo = m + 1; else hi = m; }
    let n = 0;
    for (let i = lo; i < decisions.length && decisions[i].version < b; i++) n++;
    return [lo, n];
  };
  const jump = box.querySelector("#turn-jump");
  if (jump) {
    jump.innerHTML = turns.map((t, i) => `<option value="${t.start}"${i === current ? " selected" : ""}>${esc(turnName(t))}</option>`).join("");
    jump.disabled = turns.length < 2;
  }
  const phases = box.querySelector("#phase-jump");
  if (phases) {
    const t = turns[current];
    phases.innerHTML = t ? t.phases.map((p) => `<button type="button" class="phase-btn${version >= p.start && version < p.end ? " current" : ""}"`
      + ` data-goto="${p.start}" data-phase="${esc(p.phase ?? "")}">${esc(phaseName(p))}</button>`).join("") : "";
  }
  const list = box.querySelector("#moves");
  list.innerHTML = turns.map((t, i) => {
    const [, n] = count(t.start, t.end);
    if (i !== current) {
      return `<li class="turn" data-turn="${esc(t.turn ?? "")}" data-start="${t.start}"><button type="button" class="turn-head" data-goto="${t.start}">`
        + `${esc(turnName(t))}</button> <span class="muted">${n} move${n === 1 ? "" : "s"} · steps ${t.start}–${t.end - 1}</span></li>`;
    }
    const inner = t.phases.map((p) => {
      const [lo, k] = count(p.start, p.end);
      const moves = decisions.slice(lo, lo + k).map((d) => `<li class="move${d.version === version ? " current" : ""}"`
        + ` data-version="${d.version}" data-goto="${d.version}"><span class="v">${d.version}</span>`
        + (d.seat ? `<span class="seat seat-${esc(d.seat)}">${esc(who(d.seat))}</span>` : "")
        + `<span class="txt">${esc(d.text)}</span></li>`).join("");
      return `<li class="phase${version >= p.start && version < p.end ? " current" : ""}" data-phase="${esc(p.phase ?? "")}" data-start="${p.start}">`
        + `<button type="button" class="phase-head" data-goto="${p.start}">${esc(phaseName(p))}</button>`
        + (moves ? `<ol class="phase-moves">${moves}</ol>` : '<span class="muted"> no decisions</span>') + "</li>";
    }).join("");
    return `<li class="turn current" data-turn="${esc(t.turn ?? "")}" data-start="${t.start}"><button type="button" class="turn-head" data-goto="${t.start}">`
      + `${esc(turnName(t))}</button> <span class="muted">${n} move${n === 1 ? "" : "s"}</span><ol class="phases">${inner}</ol></li>`;
  }).join("");
  const mark = list.querySelector("li.move.current") || list.querySelector("li.turn.current");
  if (mark) {
    const b = list.getBoundingClientRect(), m = mark.getBoundingClientRect();
    if (m.top < b.top || m.bottom > b.bottom) list.scrollTop += m.top - b.top - b.height / 3;
  }
  return turns;
}

/** The start of the turn or phase before / after the one holding ``version``. */
export function neighbour(sections, head, version, unit, direction) {
  const turns = turnsOf(sections, head);
  const starts = unit === "turn" ? turns.map((t) => t.start) : turns.flatMap((t) => t.phases.map((p) => p.start));
  if (direction > 0) return starts.find((s) => s > version) ?? null;
  const here = [...starts].reverse().find((s) => s <= version);
  // Back: to the start of this section when inside it, else to the one before.
  if (here !== undefined && here < version) return here;
  return [...starts].reverse().find((s) => s < version) ?? null;
}
