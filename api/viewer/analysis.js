// The analysis under the board: each seat's chance of winning at every decision (and of a
// draw) from GET /games/{id}/analysis, with its confidence band, the biggest swings marked,
// click to jump; and the commands that were legal at the step on the board, ranked by their
// rollouts (GET /games/{id}/analysis/{version}/commands), the one played marked.
import { esc, getJSON } from "./dom.js";

const COLOURS = { crusaders: "#a3262a", ayyubids: "#2f7a3a", draw: "#7a7062" };
const PALETTE = ["#1f5f8b", "#b3541e", "#77389b", "#2d7f35", "#c07010", "#b8312b"];
const W = 720, H = 170, L = 34, R = 10, T = 10, B = 22;

export function colourOf(seat, i) { return COLOURS[seat] || PALETTE[i % PALETTE.length]; }

/** A bound of a point, for one seat: the interval may be per seat ({seat: p}) or one number. */
function bound(point, key, seat) {
  const b = point[key];
  if (b === null || b === undefined) return null;
  if (typeof b === "number") return b;
  return typeof b[seat] === "number" ? b[seat] : null;
}

function pct(p) { return `${Math.round(p * 100)}%`; }

/** The graph as SVG markup. ``version`` is the step on the board; ``who(seat)`` labels a seat;
 * ``sections`` (the outline: where each turn begins) put turn numbers on the axis. */
export function graphSvg(analysis, version, who, sections = []) {
  const points = (analysis.points || []).filter((p) => p && typeof p.version === "number" && p.win).sort((a, b) => a.version - b.version);
  if (!points.length) return '<p class="muted">No decisions to analyse.</p>';
  const seats = [...new Set(points.flatMap((p) => Object.keys(p.win)))].sort((a, b) => (a === "draw") - (b === "draw"));
  const v0 = points[0].version, v1 = Math.max(points[points.length - 1].version, v0 + 1);
  const x = (v) => L + ((v - v0) / (v1 - v0)) * (W - L - R);
  const y = (p) => T + (1 - p) * (H - T - B);
  // The click target first: the swings drawn over it take their own clicks.
  const parts = [`<rect class="hit" x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" data-v0="${v0}" data-v1="${v1}"/>`];
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line class="grid" x1="${L}" x2="${W - R}" y1="${y(p)}" y2="${y(p)}"/>`
      + `<text class="axis" x="${L - 4}" y="${y(p) + 3.5}" text-anchor="end">${pct(p)}</text>`);
  }
  const turns = [];
  for (const s of sections) {
    if (s.turn === null || s.turn === undefined || s.start < v0 || s.start > v1) continue;
    if (!turns.length || turns[turns.length - 1].turn !== s.turn) turns.push({ turn: s.turn, start: s.start });
  }
  if (turns.length) { // "turn 3" where turn 3 begins, as many as fit (one label every 40 px at least)
    let last = -Infinity;
    for (const t of turns) {
      const at = x(t.start);
      if (at - last < 40) continue;
      last = at;
      parts.push(`<line class="turn-tick" x1="${at.toFixed(1)}" x2="${at.toFixed(1)}" y1="${H - B}" y2="${H - B + 4}"/>`
        + `<text class="axis turn" x="${at.toFixed(1)}" y="${H - 6}" text-anchor="middle" data-turn="${esc(t.turn)}">turn ${esc(t.turn)}</text>`);
    }
  } else {
    parts.push(`<text class="axis" x="${L}" y="${H - 6}">step ${v0}</text><text class="axis" x="${W - R}" y="${H - 6}" text-anchor="end">step ${v1}</text>`);
  }
  seats.forEach((seat, i) => {
    const colour = colourOf(seat, i);
    const lows = points.map((p) => [p.version, bound(p, "low", seat)]).filter(([, b]) => b !== null);
    const highs = points.map((p) => [p.version, bound(p, "high", seat)]).filter(([, b]) => b !== null);
    if (lows.length === points.length && highs.length === points.length) {
      const band = [...highs.map(([v, b]) => `${x(v).toFixed(1)},${y(b).toFixed(1)}`),
        ...[...lows].reverse().map(([v, b]) => `${x(v).toFixed(1)},${y(b).toFixed(1)}`)].join(" ");
      parts.push(`<polygon class="band" data-seat="${esc(seat)}" points="${band}" fill="${colour}"/>`);
    }
    const line = points.filter((p) => typeof p.win[seat] === "number").map((p) => `${x(p.version).toFixed(1)},${y(p.win[seat]).toFixed(1)}`).join(" ");
    parts.push(`<polyline class="line${seat === "draw" ? " draw" : ""}" data-seat="${esc(seat)}" points="${line}" stroke="${colour}"/>`);
  });
  for (const s of analysis.swings || []) {
    if (typeof s.version !== "number") continue;
    // A swing: the decision's version, its wording (text), each chance's change (change).
    const said = s.text || (s.command ? JSON.stringify(s.command) : "");
    const by = s.seat ? `${who(s.seat)}: ` : "";
    const changes = Object.entries(s.change || {}).filter(([, d]) => typeof d === "number" && d !== 0)
      .map(([seat, d]) => `${seat === "draw" ? "draw" : who(seat)} ${d > 0 ? "+" : ""}${Math.round(d * 100)}`).join(", ");
    const delta = changes ? ` (${changes} points)` : "";
    parts.push(`<g class="swing" data-version="${s.version}" data-goto="${s.version}" tabindex="0" role="button">`
      + `<title>${esc(`Swing at step ${s.version}${delta}: ${by}${said}`)}</title>`
      + `<line x1="${x(s.version)}" x2="${x(s.version)}" y1="${T}" y2="${H - B}"/>`
      + `<path d="M${x(s.version) - 6} ${T - 2}h12l-6 9z"/></g>`);
  }
  const now = Math.min(Math.max(version, v0), v1);
  parts.push(`<line class="now" x1="${x(now)}" x2="${x(now)}" y1="${T}" y2="${H - B}" data-version="${version}"/>`);
  const key = seats.map((seat, i) => `<span class="key-item"><i style="background:${colourOf(seat, i)}"></i>${esc(seat === "draw" ? "draw" : who(seat))}</span>`).join("");
  return `<svg class="graph" viewBox="0 0 ${W} ${H}" role="img" aria-label="Chances of winning at every decision"`
    + ` data-points="${points.length}" data-swings="${(analysis.swings || []).length}">${parts.join("")}</svg>`
    + `<div class="graph-key">${key} <span class="muted">· ${esc(analysis.rollouts ?? "?")} rollouts per decision, `
    + `${esc(analysis.policy || "")} policy · the band is the 95% interval · click to jump, ▼ marks a swing`
    + `${analysis.complete === false ? " · <b>partial</b>: the time budget ran out first" : ""}</span></div>`;
}

/** The version nearest to a click on the graph (in the hit rect's own coordinates). */
export function versionAt(svg, clientX, points) {
  const hit = svg.querySelector("rect.hit");
  const box = hit.getBoundingClientRect();
  const v0 = Number(hit.dataset.v0), v1 = Number(hit.dataset.v1);
  const want = v0 + ((clientX - box.left) / box.width) * (v1 - v0);
  let best = points[0].version;
  for (const p of points) if (Math.abs(p.version - want) < Math.abs(best - want)) best = p.version;
  return best;
}

/** The point (win chances) at or before ``version``. */
export function pointAt(analysis, version) {
  let found = null;
  for (const p of analysis.points || []) if (p.version <= version && (!found || p.version > found.version)) found = p;
  return found;
}

/** The ranked commands at a step as HTML (tolerant of the fields the route names). */
export function rankedHtml(found, who, labelOf) {
  const rows = found.commands || found.ranked || [];
  if (!rows.length) return '<p class="muted">No decision was taken at this step.</p>';
  const seat = found.seat || null;
  const body = rows.map((r, i) => {
    const label = r.text || r.label || labelOf(r.command) || JSON.stringify(r.command);
    const chance = typeof r.score === "number" ? r.score
      : r.win && seat && typeof r.win[seat] === "number" ? r.win[seat]
        : typeof r.win === "number" ? r.win : null;
    const n = r.rollouts ?? "";
    return `<tr class="${r.played ? "played" : ""}" data-rank="${i + 1}"${r.played ? ' data-played="yes"' : ""}>`
      + `<td class="rank">${i + 1}</td><td class="cmd">${esc(label)}${r.played ? ' <span class="tag played-tag">played</span>' : ""}</td>`
      + `<td class="pct">${chance === null ? "—" : `<span class="bar" style="width:${Math.round(chance * 60)}px"></span> ${pct(chance)}`}</td>`
      + `<td class="n muted">${esc(n)}</td></tr>`;
  }).join("");
  return `<p class="ranked-head">${seat ? `${esc(who(seat))} to decide` : "The decision"} at step ${esc(found.version)}: `
    + `${rows.length} legal command${rows.length === 1 ? "" : "s"}, best first</p>`
    + `<table class="ranked"><thead><tr><th>#</th><th>command</th><th>${seat ? `${esc(who(seat))} wins` : "wins"}</th><th>rollouts</th></tr></thead>`
    + `<tbody>${body}</tbody></table>`;
}

/** GET the analysis; resolves to {status: 200|202|other, body}. */
export async function fetchAnalysis(gameId, token, query = "") {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`/games/${gameId}/analysis${query}`, { headers });
  let body = null;
  try { body = await response.json(); } catch { body = null; }
  return { status: response.status, body };
}

/** What a 202's body says of its progress, as text. */
export function progressText(body) {
  if (body && typeof body.done === "number" && typeof body.total === "number" && body.total) {
    return `${body.done} of ${body.total} (${Math.round((100 * body.done) / body.total)}%)`;
  }
  const p = body && (body.progress ?? body);
  if (p && typeof p === "object" && typeof p.done === "number" && typeof p.total === "number" && p.total) {
    return `${p.done} of ${p.total} decisions (${Math.round((100 * p.done) / p.total)}%)`;
  }
  if (typeof p === "number") return `${Math.round(p <= 1 ? p * 100 : p)}%`;
  return "in progress";
}

export async function fetchRanked(gameId, version, token, query = "") {
  return getJSON(`/games/${gameId}/analysis/${version}/commands${query}`, { token });
}
