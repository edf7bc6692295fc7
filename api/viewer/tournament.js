// Tournament pages: /viewer/tournaments lists them; /viewer/tournaments/{id} shows one
// tournament's standings, crosstable and pairings by round, every game linked to its replay.
// Read only, from the public tournament routes (GET /tournaments…).
import { esc, getJSON, ruleSystems, scenarioName, systemName } from "./dom.js";

const $ = (selector) => document.querySelector(selector);
const parts = location.pathname.replace(/\/+$/, "").split("/");
const ID = parts.length > 3 ? decodeURIComponent(parts[3]) : null;

function say(text) {
  const box = $("#message");
  box.className = "message error";
  box.textContent = text;
  box.hidden = false;
}

function replay(game, text) {
  return game ? `<a class="replay" href="/viewer/${esc(game)}" data-game="${esc(game)}">${esc(text)}</a>` : esc(text);
}

function num(n) { return typeof n === "number" ? (Number.isInteger(n) ? String(n) : n.toFixed(1)) : esc(n ?? ""); }

async function list(reset, cursor) {
  const q = new URLSearchParams({ limit: "50" });
  if (!reset && cursor !== null) q.set("after", cursor);
  const [page, systems] = await Promise.all([getJSON(`/tournaments?${q}`), ruleSystems()]);
  const html = page.tournaments.map((t) => `<li><a href="/viewer/tournaments/${esc(t.id)}">${esc(t.name)}</a>`
    + `<div class="meta">${esc(systemName(t.rules, systems[t.rules]))} · ${esc(t.format)} · ${esc(t.players)} players · ${esc(t.rounds)} rounds</div></li>`).join("");
  if (reset) $("#tournaments").innerHTML = html || "<li>No tournaments yet.</li>"; else $("#tournaments").insertAdjacentHTML("beforeend", html);
  $("#more").hidden = page.next === null;
  $("#more").onclick = () => list(false, page.next);
}

function ratingOf(ratings, player) {
  const found = (ratings[player] || []).map((r) => r.display);
  return found.length ? Math.max(...found) : null;
}

function standingsTable(rows, ratings) {
  const head = "<tr><th>#</th><th>player</th><th title=\"rating (1500 for a newcomer)\">rating</th><th>points</th><th>games</th><th>W–D–L</th><th>byes</th><th title=\"Buchholz\">Bh</th>"
    + "<th title=\"Sonneborn-Berger\">SB</th><th title=\"head to head\">H2H</th><th>margin</th><th>adj.</th></tr>";
  return `<thead>${head}</thead><tbody>` + rows.map((r) => `<tr data-player="${esc(r.player)}" data-rank="${esc(r.rank)}" data-points="${esc(r.points)}"`
    + ` data-rating="${esc(ratingOf(ratings, r.player) ?? "")}"`
    + `${r.withdrawn ? ' class="withdrawn"' : ""}><td>${esc(r.rank)}</td><td>${esc(r.player)}${r.withdrawn ? ' <span class="muted">(withdrawn)</span>' : ""}</td>`
    + `<td class="rating">${ratingOf(ratings, r.player) ?? '<span class="muted">—</span>'}</td>`
    + `<td><b>${num(r.points)}</b></td><td>${esc(r.games)}</td><td>${esc(r.wins)}–${esc(r.draws)}–${esc(r.losses)}</td><td>${esc(r.byes)}</td>`
    + `<td>${num(r.buchholz)}</td><td>${num(r.sonneborn_berger)}</td><td>${num(r.head_to_head)}</td><td>${num(r.margin)}</td>`
    + `<td>${r.adjustment ? num(r.adjustment) : ""}</td></tr>`).join("") + "</tbody>";
}

function crossCell(c) {
  if (c.kind === "bye") return `<td class="cell bye" data-round="${c.round}">bye ${num(c.points)}</td>`;
  const text = c.kind === "unfinished" ? `vs ${c.opponent_ranks.join(",")} …` : `${c.opponent_ranks.join(",")}${c.seat ? ` ${c.seat}` : ""} ${num(c.points)}`;
  const title = `round ${c.round}: against ${c.opponents.join(", ")}${c.kind === "forfeit" ? ` (forfeit${c.reason ? `: ${c.reason}` : ""})` : ""}`;
  return `<td class="cell ${esc(c.kind)}" data-round="${c.round}" title="${esc(title)}">${replay(c.game, text)}</td>`;
}

function crosstableTable(rows) {
  const rounds = Math.max(0, ...rows.map((r) => r.rounds.length));
  const head = `<tr><th>#</th><th>player</th>${Array.from({ length: rounds }, (_, i) => `<th>R${i + 1}</th>`).join("")}<th>points</th></tr>`;
  return `<thead>${head}</thead><tbody>` + rows.map((r) => `<tr data-player="${esc(r.player)}"><td>${esc(r.rank)}</td><td>${esc(r.player)}</td>`
    + r.rounds.map(crossCell).join("") + `<td><b>${num(r.points)}</b></td></tr>`).join("") + "</tbody>";
}

function outcomeText(t) {
  if (t.status === "forfeit") return `forfeit${t.forfeited.length ? ` by ${t.forfeited.map((s) => t.seats[s] || s).join(", ")}` : ""}`;
  const o = t.outcome;
  if (!o) return t.status === "playing" ? "in play" : esc(t.status);
  const name = (seat) => (t.seats[seat] ? `${t.seats[seat]} (${seat})` : seat);
  const scores = Object.entries(o.scores || {}).map(([s, n]) => `${t.seats[s] || s} ${num(n)}`).join(" – ");
  return (o.draw ? "draw" : o.winner ? `${name(o.winner)} wins` : o.ranking && o.ranking.length ? `${name(o.ranking[0])} first` : "ended")
    + (scores ? ` · ${scores}` : "");
}

function roundHtml(r, info) {
  const tables = r.tables.map((t) => `<tr data-table="${t.table}" data-game="${esc(t.game)}" data-status="${esc(t.status)}">`
    + `<td>${t.table}</td><td>${Object.entries(t.seats).map(([seat, p]) => `${esc(p)} <span class="muted">${esc(seat)}</span>`).join(" vs ")}</td>`
    + `<td>${esc(scenarioName(t.scenario, info))}</td><td>${esc(outcomeText(t))}</td><td>${replay(t.game, "replay →")}</td></tr>`).join("");
  const byes = r.byes.map((b) => `<li>${esc(b.player)}: bye, ${num(b.points)} point${b.points === 1 ? "" : "s"}${b.reason ? ` (${esc(b.reason)})` : ""}</li>`).join("");
  return `<section class="round" data-round="${r.round}" id="round-${r.round}"><h3>Round ${r.round} <span class="muted">${esc(r.method)}</span></h3>`
    + `<div class="scroll-x"><table class="tables"><thead><tr><th>table</th><th>players</th><th>scenario</th><th>result</th><th>game</th></tr></thead>`
    + `<tbody>${tables}</tbody></table></div>${byes ? `<ul class="byes">${byes}</ul>` : ""}</section>`;
}

async function one(id) {
  const [t, standings, cross, ratings, systems] = await Promise.all([
    getJSON(`/tournaments/${id}`), getJSON(`/tournaments/${id}/standings`), getJSON(`/tournaments/${id}/crosstable`),
    getJSON(`/tournaments/${id}/ratings`), ruleSystems()]);
  const info = systems[t.rules];
  $("#title").textContent = t.name;
  document.title = `${t.name} · Herald viewer`;
  $("#status").textContent = t.status;
  $("#status").hidden = false;
  $("#subtitle").textContent = `${systemName(t.rules, info)} · ${t.scenarios.map((s) => scenarioName(s, info)).join(", ")} · ${t.format}, ${t.rounds} rounds`
    + ` · round ${t.current_round} · ${t.players.length} players${t.rated ? " · rated" : ""}`;
  $("#standings").innerHTML = standingsTable(standings.standings, ratings.ratings);
  $("#crosstable").innerHTML = crosstableTable(cross.rows);
  $("#standings-csv").href = `/tournaments/${id}/standings?format=csv`;
  $("#crosstable-csv").href = `/tournaments/${id}/crosstable?format=csv`;
  const rounds = [...t.paired].sort((a, b) => a.round - b.round);
  $("#round-tabs").innerHTML = rounds.map((r) => `<button type="button" class="phase-btn" data-round="${r.round}">Round ${r.round}</button>`).join("");
  $("#rounds").innerHTML = rounds.length ? rounds.map((r) => roundHtml(r, info)).join("") : '<p class="muted">No round paired yet.</p>';
  $("#round-tabs").onclick = (ev) => {
    const b = ev.target.closest("[data-round]");
    if (b) document.getElementById(`round-${b.dataset.round}`).scrollIntoView({ block: "start" });
  };
  for (const id_ of ["standings-panel", "crosstable-panel", "rounds-panel"]) $(`#${id_}`).hidden = false;
}

async function main() {
  try {
    if (ID) await one(ID);
    else { $("#list-panel").hidden = false; await list(true, null); }
  } catch (error) {
    say(`Could not read the tournament${ID ? ` ${ID}` : "s"}: ${error.status ? `${error.status}: ` : ""}${error.message}`);
  }
  document.body.dataset.ready = "yes";
}

main();
