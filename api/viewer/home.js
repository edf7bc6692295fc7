// The viewer's home: the game index (GET /games) with links to each game's board.
import { esc, getJSON, titleCase } from "./dom.js";

const $ = (selector) => document.querySelector(selector);
let cursor = null;

function row(g) {
  const players = Object.entries(g.players || g.seats || {}).map(([seat, p]) => `${seat}: ${typeof p === "string" ? p : p.player}`).join(", ");
  return `<li><a href="/viewer/${esc(g.id)}">${esc(titleCase(g.rules))} — ${esc(titleCase(g.scenario || ""))}</a>
    <div class="meta">${esc(g.status || "")} · ${esc(players)} · v${esc(g.version ?? "")} · ${esc(String(g.id).slice(0, 8))}</div></li>`;
}

async function load(reset) {
  const q = new URLSearchParams({ limit: "50" });
  for (const key of ["rules", "status", "player"]) if ($(`#${key}`).value) q.set(key, $(`#${key}`).value);
  if (!reset && cursor !== null) q.set("after", cursor);
  try {
    const page = await getJSON(`/games?${q}`);
    const html = page.games.map(row).join("");
    if (reset) $("#games").innerHTML = html || "<li>No games yet.</li>"; else $("#games").insertAdjacentHTML("beforeend", html);
    cursor = page.next;
    $("#more").hidden = page.next === null;
  } catch (error) {
    $("#games").innerHTML = `<li>Could not list games: ${esc(error.message)}</li>`;
  }
}

async function main() {
  try {
    const rules = await getJSON("/rules");
    $("#rules").insertAdjacentHTML("beforeend", rules.rules.map((r) => `<option value="${esc(r.id)}">${esc(r.id)}</option>`).join(""));
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
