// The viewer's home: the game index (GET /games) with links to each game's board.
import { esc, gameTitle, getJSON, ruleSystems, systemName } from "./dom.js";

const $ = (selector) => document.querySelector(selector);
let cursor = null;

function row(g, systems) {
  const players = Object.entries(g.players || g.seats || {}).map(([seat, p]) => `${typeof p === "string" ? p : p.player} (${seat})`).join(", ");
  return `<li><a href="/viewer/${esc(g.id)}">${esc(gameTitle(g.rules, g.scenario, systems[g.rules]))}</a>
    <div class="meta">${esc(g.status || "")} · ${esc(players)} · v${esc(g.version ?? "")} · ${esc(String(g.id).slice(0, 8))}</div></li>`;
}

async function load(reset) {
  const q = new URLSearchParams({ limit: "50" });
  for (const key of ["rules", "status", "player"]) if ($(`#${key}`).value) q.set(key, $(`#${key}`).value);
  if (!reset && cursor !== null) q.set("after", cursor);
  try {
    const [page, systems] = await Promise.all([getJSON(`/games?${q}`), ruleSystems()]);
    const html = page.games.map((g) => row(g, systems)).join("");
    if (reset) $("#games").innerHTML = html || "<li>No games yet.</li>"; else $("#games").insertAdjacentHTML("beforeend", html);
    cursor = page.next;
    $("#more").hidden = page.next === null;
  } catch (error) {
    $("#games").innerHTML = `<li>Could not list games: ${esc(error.message)}</li>`;
  }
}

async function main() {
  try {
    const systems = Object.values(await ruleSystems());
    $("#rules").insertAdjacentHTML("beforeend", systems.map((r) => `<option value="${esc(r.id)}">${esc(systemName(r.id, r))}</option>`).join(""));
  } catch { /* the filter stays at "all" */ }
  $("#filter").onsubmit = (ev) => { ev.preventDefault(); load(true); };
  $("#more").onclick = () => load(false);
  $("#open").onsubmit = (ev) => {
    ev.preventDefault();
    const id = $("#game-id").value.trim();
    if (id) location.href = `/viewer/${encodeURIComponent(id)}`;
  };
  load(true);
}

main();
