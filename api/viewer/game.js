// The game page: one game (/viewer/{id}?v=N) or a portable record file (/viewer/record).
// It reads the public API, draws the board of the chosen version with the rule system's
// renderer, lists every event, steps and plays, and follows live games over SSE.
import { ApiError, esc, gameTitle, getJSON } from "./dom.js";
import { diceRow } from "./dice.js";
import { rendererFor } from "./renderers/index.js";
import * as overlay from "./overlay.js";
import { changedNames, describe, diceOf, diff, groupOf, isAttack, moves, namesIn } from "./changes.js";
import { drawMoveList, neighbour } from "./movelist.js";
import { fetchAnalysis, fetchRanked, graphSvg, pointAt, progressText, rankedHtml, versionAt } from "./analysis.js";

const $ = (selector) => document.querySelector(selector);
const path = location.pathname.replace(/\/+$/, "");
const MODE = path.endsWith("/viewer/record") ? "record" : "game";
const GAME_ID = MODE === "game" ? decodeURIComponent(path.split("/").pop()) : null;
const TOKEN_KEY = `herald.token.${GAME_ID}`;
const RECORD_KEY = "herald.record";

const PLAY = '<svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2v12l10-6z"/></svg> Play';
const PAUSE = '<svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="M3 2h4v12H3zM9 2h4v12H9z"/></svg> Pause';

const S = {
  game: null, // id, rules, scenario, seats, status, fork, study
  events: [], // the stream, events[v - 1] is version v
  timeline: new Map(), // version -> {type, seat, text}
  head: 0,
  version: 0,
  states: new Map(), // version -> {version, to_act, view, text}
  token: null,
  playing: null,
  renderSeq: 0,
  unseen: 0,
  verdict: null,
  base: null, // a record file's pages and steps: /viewer/records/{key}
  recordText: null, // the record file's text, to open it again when the server no longer holds it
  sections: [], // the outline: [{start, turn, phase}] where the turn or phase changes
  analysis: null, // GET /games/{id}/analysis once it answers 200
  ranked: new Map(), // version -> the ranked commands there (or an error text)
  endAt: null, // the version of the end's last event (GameEnded, SeedRevealed); notes after it are not steps
};

/** A seat as a reader knows it: its player's name, with the side the seat is when the rule
 * system's seats are sides ("Richard (crusaders)"; numbered seats "p1" add nothing), the seat
 * id as the rule system writes it when no player is named. */
function who(seat) {
  const player = playerOf(seat);
  if (!player) return String(seat ?? "");
  return NUMBERED.test(seat) ? player : `${player} (${String(seat).replace(/-/g, " ")})`;
}
const NUMBERED = /^p\d+$/;

/** A line of the timeline without the name of the seat that said it ("Ann: draws" -> "draws"),
 * for a place that names the seat beside it. */
function ownWords(text, seat) {
  const player = playerOf(seat);
  for (const prefix of [player && `${player}: `, player && `${player} (${seat}): `, seat && `${seat}: `]) {
    if (prefix && text.startsWith(prefix)) return text.slice(prefix.length);
  }
  return text;
}

/** The versions the reader steps through: every event but the notes written after the game
 * ended (kept beside the record, under "Notes after the end", each at the step it is about). */
function afterword(e) {
  return e.type === "Annotated" && S.endAt !== null && e.version > S.endAt;
}

function findEnd() {
  const ends = S.events.filter((e) => e.type === "GameEnded" || e.type === "SeedRevealed").map((e) => e.version);
  S.endAt = ends.length ? Math.max(...ends) : null;
  let head = S.events.length;
  while (head > 1 && afterword(S.events[head - 1])) head--;
  S.head = head;
}

// -- messages -----------------------------------------------------------------------------
function say(html, kind = "info", keep = false, where = "#message") {
  const box = $(where);
  box.className = `message ${kind}`;
  box.innerHTML = `${html} <button type="button" class="close" aria-label="Dismiss">×</button>`;
  box.hidden = false;
  box.querySelector(".close").onclick = () => { box.hidden = true; };
  clearTimeout(box.timer);
  if (!keep) box.timer = setTimeout(() => { box.hidden = true; }, 8000);
}

function problemText(error) {
  if (error instanceof ApiError) return `${error.status}: ${esc(error.message)}`;
  return esc(error && error.message ? error.message : String(error));
}

// -- loading --------------------------------------------------------------------------------
async function pages(url, key, after = 0, limit = 1000) {
  const out = [];
  for (;;) {
    const page = await getJSON(`${url}?after=${after}&limit=${limit}`, { token: S.token }); // as this reader may read
    out.push(...page[key]);
    if (page.next === null || page[key].length === 0) return out;
    after = page.next;
  }
}

async function loadGame() {
  S.token = sessionStorage.getItem(TOKEN_KEY);
  const summary = await getJSON(`/games/${GAME_ID}`, { token: S.token });
  S.game = summary;
  const [events, timeline] = await Promise.all([
    pages(`/games/${GAME_ID}/events`, "events"),
    pages(`/games/${GAME_ID}/timeline`, "entries"),
    loadRulesInfo(summary.rules),
  ]);
  S.events = events;
  for (const entry of timeline) S.timeline.set(entry.version, entry);
  findEnd();
  if (!events.length) S.head = summary.version;
  await loadOutline();
}

// The rule system's own name and its scenarios' titles (GET /rules/{system}), for the header.
async function loadRulesInfo(rules) {
  try { S.rulesInfo = await getJSON(`/rules/${encodeURIComponent(rules)}`); } catch { S.rulesInfo = null; }
}

async function loadOutline() {
  try {
    S.sections = (await getJSON(`/viewer/games/${GAME_ID}/outline`)).sections;
  } catch { S.sections = []; } // the move list then lists every decision under one heading
}

async function catchUp() {
  // Events recorded since we last looked (after a fork, an annotation, or when the stream was down).
  const more = [];
  let after = S.events.length;
  for (;;) {
    const page = await getJSON(`/games/${GAME_ID}/events?after=${after}&limit=1000`, { token: S.token });
    more.push(...page.events);
    if (page.next === null || !page.events.length) break;
    after = page.next;
  }
  for (const e of more) addEvent(e);
  await refreshTimeline();
}

/** The record file's text sent to be opened, gzipped where the browser can (a long game's
 * record is megabytes of JSON and a tenth of that gzipped); a server that does not take gzip
 * answers 415 and gets the text itself. */
async function postRecord(textBody) {
  if (typeof CompressionStream === "function") {
    const zipped = await new Response(new Blob([textBody]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
    try {
      return await getJSON("/viewer/record", { method: "POST", body: zipped, raw: true, encoding: "gzip" });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 415) throw error;
    }
  }
  return getJSON("/viewer/record", { method: "POST", body: textBody, raw: true });
}

// A record file is verified and held by the server (POST /viewer/record); the page then reads
// it as it reads a game, a page or a step at a time, under /viewer/records/{key}.
async function loadRecord(textBody) {
  const opened = await postRecord(textBody);
  S.recordText = textBody;
  S.base = `/viewer/records/${opened.key}`;
  const h = opened.header;
  S.game = { id: h.game, rules: h.rules, scenario: h.scenario, seats: h.seats, status: h.ended_at ? "ended" : "active",
    study: h.study, fork: h.fork, record: true };
  S.verdict = opened.verdict;
  S.head = opened.head;
  const [events, timeline, outline] = await Promise.all([
    pages(`${S.base}/events`, "events", 0, 5000),
    pages(`${S.base}/timeline`, "entries", 0, 5000),
    getJSON(`${S.base}/outline`),
    loadRulesInfo(h.rules),
  ]);
  S.events = events;
  for (const entry of timeline) S.timeline.set(entry.version, entry);
  S.sections = outline.sections;
  findEnd();
}

async function stateAt(version) {
  if (S.states.has(version)) return S.states.get(version);
  let found;
  if (MODE === "record") {
    try {
      found = await getJSON(`${S.base}/state?at=${version}`);
    } catch (error) {
      // The server keeps opened records for a while only (and not across a restart): open it again.
      if (!(error instanceof ApiError) || !error.body || error.body.code !== "record_not_open") throw error;
      S.base = `/viewer/records/${(await postRecord(S.recordText)).key}`;
      found = await getJSON(`${S.base}/state?at=${version}`);
    }
  } else {
    found = await getJSON(`/games/${GAME_ID}/state?at=${version}`, { token: S.token });
  }
  S.states.set(version, found);
  return found;
}

// -- the header ---------------------------------------------------------------------------
function drawHeader() {
  const g = S.game;
  const players = Object.keys(g.seats || {}).map((seat) => `${playerOf(seat) || seat} (${seat})`).join(" · ");
  $("#title").textContent = gameTitle(g.rules, g.scenario, S.rulesInfo);
  document.title = `${$("#title").textContent} · Herald viewer`;
  $("#status").textContent = g.status === "ended" ? "ended" : MODE === "record" ? "record" : "in play";
  $("#status").className = `badge status-${g.status}`;
  const bits = [esc(players)];
  if (g.study) bits.push("study game");
  if (g.fork) bits.push(`forked from <a href="/viewer/${esc(g.fork.game)}?v=${esc(g.fork.version)}">game ${esc(g.fork.game.slice(0, 8))} at v${esc(g.fork.version)}</a> (${esc(g.fork.dice)} dice)`);
  if (MODE === "record") {
    bits.push(`record of game ${esc(g.id.slice(0, 8))}`);
    const v = S.verdict;
    // The header drawn here is the one the record's hash chain proves (the server derives it);
    // a file whose own header says otherwise does not verify, and every problem is listed.
    if (v) bits.push(v.ok ? '<span class="ok">verified ✓</span>'
      : `<span class="bad" title="${esc(v.problems.map((p) => p.what).join("\n"))}">does not verify: `
        + `${esc((v.problems[0] || {}).what || "")}${v.problems.length > 1 ? ` (and ${v.problems.length - 1} more)` : ""}</span>`);
  }
  $("#subtitle").innerHTML = bits.join(" · ");
  document.body.dataset.rules = g.rules;
  document.body.dataset.status = g.status;
}

// -- the timeline ---------------------------------------------------------------------------
function category(type) {
  if (type === "DecisionTaken") return "decision";
  if (type === "DiceRolled" || type === "DiceForced") return "dice";
  if (type === "Annotated") return "annotation";
  if (type === "DisputeRaised") return "dispute";
  if (type === "DisputeRuled" || type === "DecisionsVoided") return "ruling";
  if (type === "GameCreated" || type === "GameEnded" || type === "SeedRevealed" || type === "AbandonAgreed") return "milestone";
  if (type === "CardsShuffled") return "cards";
  return "rule";
}

function goto(version) {
  return `<button type="button" class="goto" data-goto="${esc(version)}">step ${esc(version)}</button>`;
}

/** The words of the audit and study events, which the rule systems do not narrate. */
function auditText(e) {
  const d = e.data || {};
  switch (e.type) {
    case "Annotated":
      return `${esc(who(d.by) || "")} on ${goto(d.at_version)}: “${esc(d.text)}”`
        + (d.arrow ? ` <span class="arrow">${esc(d.arrow[0])} → ${esc(d.arrow[1])}</span>` : "")
        + (d.target ? ` <span class="target">(${esc([d.target.piece, d.target.location].filter(Boolean).join(" at "))})</span>` : "");
    case "DisputeRaised":
      return `disputes ${goto(d.about_version)}: ${esc(d.reason)}${d.freeze ? " — play frozen" : ""}`;
    case "DisputeRuled":
      return `dispute ${esc(d.dispute)} ${esc(d.ruling)} by ${esc(d.by)}: ${esc(d.reason)}`;
    case "DecisionsVoided":
      return `play voided from ${goto(d.from_version)} (dispute ${esc(d.dispute)}); the dice stay drawn`;
    case "AbandonAgreed":
      return `${esc(who(d.seat))} agrees to abandon`;
    default:
      return null;
  }
}

/** Versions whose play a ruling voided: [from, ruling's version) for each DecisionsVoided. */
function voidedRanges() {
  return S.events.filter((e) => e.type === "DecisionsVoided").map((e) => [e.data.from_version, e.version]);
}

/** A rule system's own event lines ("saladin.LeaderActivated: ...") read as words. */
function humanize(line) {
  return String(line).replace(/^[a-z][a-z0-9-]*\.([A-Za-z]+):/, (_, name) => `${name.replace(/([a-z])([A-Z])/g, "$1 $2")}:`);
}

function playerOf(seat) {
  const info = S.game && S.game.seats && S.game.seats[seat];
  return info ? (typeof info === "string" ? info : info.player) : "";
}

function eventItem(e, voids = voidedRanges()) {
  const entry = S.timeline.get(e.version);
  const seat = (entry && entry.seat) || (e.data && (e.data.seat || e.data.side)) || "";
  let body;
  const audit = auditText(e);
  if (e.type === "DiceRolled" || e.type === "DiceForced") {
    body = `<span class="txt">${esc(e.data.purpose)}${e.type === "DiceForced" ? " <b>(forced)</b>" : ""}</span>`
      + `<span class="dice">${diceRow(e.data)}</span>`;
  } else if (audit !== null) {
    body = `<span class="txt">${audit}</span>`;
  } else if (entry) {
    const previous = S.timeline.get(e.version - 1);
    const told = e.type === "GameEnded" && previous && previous.text === entry.text
      ? "the game ends, as the line above says" : entry.text; // the rule's own end line is said once
    body = `<span class="txt">${esc(humanize(ownWords(told, seat)))}</span>`;
  } else {
    body = `<span class="txt">${esc(e.type)}</span>`;
  }
  const cat = category(e.type);
  const label = { decision: "decides", annotation: "note", dispute: "dispute", ruling: "ruling" }[cat];
  // A sealed event: this reader holds only its seal ("sealed for p2"), or holds it as one of
  // its seats (its salt beside it: "sealed · yours"), or it was sealed and is now revealed.
  const sealedFor = e.data && typeof e.data.sealed === "string" && Array.isArray(e.data.for) && !e.salt ? e.data.for : null;
  const heldFor = e.salt && Array.isArray(e.for) ? e.for : null;
  const seal = sealedFor ? `<span class="tag sealed" title="only ${esc(sealedFor.join(", "))} may read it until the seed is revealed; its seal is in the hash chain">sealed for ${esc(sealedFor.join(", "))}</span>`
    : heldFor ? `<span class="tag sealed held" title="sealed for ${esc(heldFor.join(", "))}: this copy holds its data and salt">${S.game && S.game.status === "ended" ? "was sealed" : "sealed · yours"}</span>` : "";
  const voided = voids.some(([from, by]) => e.version >= from && e.version < by
    && !["annotation", "dispute", "ruling"].includes(cat)); // audit events are never play
  return `<li class="ev ${cat}${voided ? " voided" : ""}${sealedFor ? " is-sealed" : ""}" data-version="${e.version}" data-type="${esc(e.type)}" tabindex="-1"`
    + (sealedFor ? ` data-sealed-for="${esc(sealedFor.join(" "))}"` : "")
    + (voided ? ' title="voided by a ruling"' : "") + ">"
    + `<span class="v">${e.version}</span>`
    + (seat ? `<span class="seat seat-${esc(seat)}" data-seat="${esc(seat)}" title="seat ${esc(seat)}">${esc(who(seat))}</span>` : "")
    + (label ? `<span class="tag">${label}</span>` : "")
    + seal
    + `${body}</li>`;
}

/** The study notes and disputes about the step on the board. */
function drawNotes() {
  const here = S.events.filter((e) => (e.type === "Annotated" && e.data.at_version === S.version)
    || (e.type === "DisputeRaised" && e.data.about_version === S.version));
  const box = $("#notes");
  box.hidden = here.length === 0;
  box.innerHTML = here.map((e) => `<li class="${category(e.type)}" data-version="${e.version}">`
    + (e.type === "Annotated" ? `<b>${esc(who(e.data.by) || "note")}</b>: ${esc(e.data.text)}`
      : `<b>${esc(who(e.data.seat))} disputes</b>: ${esc(e.data.reason)}`)
    + (afterword(e) ? ' <span class="muted">(written after the game ended)</span>' : "") + "</li>").join("");
}

/** The notes written after the end: beside the record, each a link to the step it is about. */
function drawAfterwords() {
  const notes = S.events.filter(afterword);
  const box = $("#afterwords");
  box.hidden = notes.length === 0;
  $("#afterword-list").innerHTML = notes.map((e) => `<li data-version="${e.version}" data-at="${esc(e.data.at_version)}">`
    + `<b>${esc(who(e.data.by) || "note")}</b> on ${goto(e.data.at_version)}: “${esc(e.data.text)}”</li>`).join("");
}

function drawTimeline() {
  const voids = voidedRanges(); // once for the list, not once an event: a long game has tens of thousands
  $("#timeline").innerHTML = S.events.filter((e) => !afterword(e)).map((e) => eventItem(e, voids)).join("");
  drawAfterwords();
  markTimeline();
}

function appendTimeline(e) {
  if (afterword(e)) { drawAfterwords(); return; }
  if (e.type === "DecisionsVoided") {
    // A ruling refolds the game without the voided play: boards fetched before may be stale.
    if (MODE === "game") S.states.clear();
    drawTimeline();
    return;
  }
  $("#timeline").insertAdjacentHTML("beforeend", eventItem(e));
}

function markTimeline() {
  const list = $("#timeline");
  list.classList.toggle("only-decisions", $("#only-decisions").checked);
  const old = list.querySelector(".current");
  if (old) old.classList.remove("current");
  const current = list.querySelector(`[data-version="${S.version}"]`);
  if (current) {
    current.classList.add("current");
    const box = list.getBoundingClientRect(), item = current.getBoundingClientRect();
    if (item.top < box.top || item.bottom > box.bottom) {
      list.scrollTop += item.top - box.top - box.height / 3;
    }
  }
}

let timelineTimer = null;
function refreshTimeline() {
  // Fetch the readable lines of events that arrived live, then redraw them.
  return new Promise((resolve) => {
    clearTimeout(timelineTimer);
    timelineTimer = setTimeout(async () => {
      const missing = S.events.filter((e) => !S.timeline.has(e.version));
      if (missing.length && MODE === "game") {
        try {
          const entries = await pages(`/games/${GAME_ID}/timeline`, "entries", missing[0].version - 1);
          for (const entry of entries) S.timeline.set(entry.version, entry);
        } catch { /* the raw type stays shown */ }
        for (const e of missing) {
          const li = $(`#timeline [data-version="${e.version}"]`);
          if (li) li.outerHTML = eventItem(e);
        }
        markTimeline();
      }
      resolve();
    }, 80);
  });
}

// -- stepping ---------------------------------------------------------------------------------
function clamp(v) { return Math.max(1, Math.min(S.head, v | 0)); }

function setUrl() {
  const url = new URL(location.href);
  url.searchParams.set("v", S.version);
  history.replaceState(null, "", url);
}

function drawControls() {
  $("#head").textContent = S.head;
  $("#step").max = S.head;
  $("#step").value = S.version;
  $("#first").disabled = $("#back").disabled = S.version <= 1;
  $("#forward").disabled = $("#last").disabled = S.version >= S.head;
  const e = S.events[S.version - 1];
  const entry = S.timeline.get(S.version);
  $("#step-label").textContent = e ? `Step ${S.version} of ${S.head}: ${entry ? humanize(entry.text) : e.type}` : "";
  $("#annotate").textContent = `Annotate step ${S.version}`;
}

async function show(version) {
  if (!S.head) return;
  S.version = clamp(version);
  setUrl();
  drawControls();
  markTimeline();
  drawNotes();
  await drawBoard();
}

async function drawBoard() {
  const seq = ++S.renderSeq;
  const version = S.version;
  let st;
  try {
    st = await stateAt(version);
  } catch (error) {
    if (seq === S.renderSeq) say(`Could not load the board at step ${version}: ${problemText(error)}`, "error");
    return;
  }
  if (seq !== S.renderSeq) return; // a later step was asked for meanwhile
  const board = $("#board");
  const renderer = rendererFor(S.game.rules);
  const ctx = { view: st.view, version, toAct: st.to_act, events: S.events.slice(0, version), game: S.game,
    width: board.clientWidth || window.innerWidth };
  try {
    renderer.render(board, ctx);
  } catch (error) {
    console.error(error);
    rendererFor("").render(board, ctx); // the generic tree never fails on JSON
    say(`The ${esc(S.game.rules)} renderer failed at step ${version}; showing the raw view.`, "error");
  }
  $("#text").textContent = st.text || "";
  await drawChanges(st, version, seq);
  if (seq !== S.renderSeq) return;
  drawResult(st);
  drawMoves();
  drawAnalysisNow();
  document.body.dataset.version = String(version);
  if (S.playing && version < S.head) stateAt(version + 1).catch(() => {}); // prefetch the next step
}

// -- what changed --------------------------------------------------------------------------------
/** The step's decision, its dice, the board's differences and the marks on the board. */
async function drawChanges(st, version, seq) {
  const group = groupOf(S.events, version);
  const since = $("#changes-since").value === "decision" ? group.start - 1 : version - 1;
  let before = null, beforeDecision = null;
  if (since >= 1) {
    try { before = (await stateAt(since)).view; } catch { before = null; }
  }
  if (group.start > 1) { // the board the step's decision was taken from: its moves are the arrows
    try { beforeDecision = (await stateAt(group.start - 1)).view; } catch { beforeDecision = null; }
  }
  if (seq !== S.renderSeq) return;
  // The dice of this step (its decision's rolls up to here), beside the board.
  const dice = diceOf(group);
  const tray = $("#step-dice");
  tray.hidden = dice.length === 0;
  tray.innerHTML = dice.length ? `<h3>Dice of this step</h3>` + dice.map((d) => `<div class="roll${d.version === version ? " here" : ""}"`
    + ` data-version="${d.version}"><div class="dice">${diceRow(d, 30)}</div><div class="purpose">${esc(d.purpose || d.kind)}`
    + `${d.forced ? " <b>(forced)</b>" : ""} <span class="muted">v${d.version}</span></div></div>`).join("") : "";
  // The last move in words.
  const last = $("#last-move");
  const d = group.decision;
  if (d && d.data && !(typeof d.data.sealed === "string")) {
    const entry = S.timeline.get(d.version);
    const text = entry ? humanize(ownWords(entry.text, d.data.seat)) : d.data.command.type;
    last.innerHTML = `<span class="tag">last move</span> <b>${esc(who(d.data.seat))}</b>: ${esc(text)}`
      + (d.version !== version ? ` <span class="muted">(step ${d.version}; this is step ${version})</span>` : "");
    last.hidden = false;
    last.dataset.version = String(d.version);
  } else {
    last.hidden = true;
  }
  // The differences.
  const rows = before && st.view ? diff(before, st.view) : [];
  const decided = d && d.version === version && since === version - 1 && !rows.length;
  $("#changes-count").textContent = since < 1 ? "(the first step)"
    : decided ? `the decision itself changes nothing on the board: what it does follows in the next steps (since step ${since})`
      : rows.length === 0 ? `nothing on the board changed since step ${since}`
        : `${rows.length}${rows.length >= 80 ? "+" : ""} change${rows.length === 1 ? "" : "s"} since step ${since}`;
  const seatName = (s) => (S.game && S.game.seats && S.game.seats[s] ? S.game.seats[s].player : s);
  $("#changes-table").innerHTML = rows.map((r) => {
    const t = describe(r, seatName);
    return `<tr data-path="${esc(t.where)}"><th>${esc(t.place)}</th><td class="before">${esc(t.before)}</td><td>→</td><td class="after">${esc(t.after)}</td></tr>`;
  }).join("");
  // Marks on the board: moved pieces and attacks as arrows, the command's pieces ringed,
  // what changed haloed, and the study notes' arrows and circles at this step.
  const marks = [];
  const moved = beforeDecision && st.view ? moves(beforeDecision, st.view) : [];
  for (const m of moved) marks.push({ kind: "arrow", from: m.from, to: m.to, style: "move", label: `${m.count} moved ${m.from} → ${m.to}` });
  if (d && d.data && d.data.command) {
    const names = [...new Set(namesIn(d.data.command))];
    const attack = isAttack(d.data.command);
    for (const n of names) marks.push({ kind: "ring", at: n, label: "the last move" });
    if (!moved.length && names.length >= 2) {
      for (let i = 1; i < names.length; i++) marks.push({ kind: "arrow", from: names[0], to: names[i], style: attack ? "attack" : "move", label: d.data.command.type });
    }
  }
  for (const n of changedNames(rows)) marks.push({ kind: "halo", at: n, label: "changed" });
  for (const e of S.events) {
    if (e.type !== "Annotated" || e.data.at_version !== version) continue;
    if (Array.isArray(e.data.arrow) && e.data.arrow.length >= 2) {
      for (let i = 1; i < e.data.arrow.length; i++) marks.push({ kind: "arrow", from: e.data.arrow[i - 1], to: e.data.arrow[i], style: "note", label: e.data.text });
    }
    if (e.data.target) {
      for (const at of [e.data.target.location, e.data.target.piece]) if (at) marks.push({ kind: "circle", at, label: e.data.text });
    }
  }
  S.marks = marks;
  drawMarks();
}

function drawMarks() {
  const drawn = overlay.draw($("#board"), S.marks || []);
  const board = $("#board");
  board.dataset.marks = String(drawn.filter((m) => m.drawn).length);
}

/** A rule system's own words (an outcome's reason) with each seat id in it, as a whole word, said as
 * its player ("crusaders placed their last Order" -> "Richard (crusaders) placed ..."). */
function withNames(words) {
  const seats = Object.keys((S.game && S.game.seats) || {}).sort((a, b) => b.length - a.length);
  if (!seats.length) return words;
  const pattern = new RegExp(`(?<![\\w-])(${seats.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?![\\w-])`, "g");
  return String(words).replace(pattern, (seat) => who(seat));
}

/** The end banner, the one line that says the end (the boards do not say it again): who won,
 * with the players' names, why, and the score. */
function drawResult(st) {
  const box = $("#result");
  const ended = S.events.slice(0, S.version).reverse().find((e) => e.type === "GameEnded");
  const o = (ended && ended.data && ended.data.outcome) || (st.view && typeof st.view === "object" && (st.view.outcome || null));
  if (!o || typeof o !== "object" || (!o.winner && !o.draw && !(o.ranking && o.ranking.length))) {
    box.hidden = true;
    delete box.dataset.outcome;
    return;
  }
  const scores = o.scores && Object.keys(o.scores).length
    ? Object.entries(o.scores).sort((a, b) => b[1] - a[1]).map(([seat, n]) => `${esc(who(seat))} ${esc(n)}`).join(" · ") : "";
  const headline = o.draw ? "Draw" : o.winner ? `${esc(who(o.winner))} wins` : `${esc(who(o.ranking[0]))} first`;
  box.innerHTML = `<b>${headline}</b>${o.reason ? `: ${esc(withNames(o.reason))}` : ""}`
    + (scores ? ` <span class="score" data-scores="${esc(JSON.stringify(o.scores))}">Score: ${scores}</span>` : "")
    + (o.ranking && o.ranking.length > 2 ? ` <span class="ranking">Places: ${o.ranking.map((seat, i) => `${i + 1}. ${esc(who(seat))}`).join(", ")}</span>` : "")
    + ratingsText();
  box.dataset.outcome = o.winner || (o.draw ? "draw" : "");
  box.hidden = false;
  if (S.ratings === undefined && MODE !== "record") { // what the game did to its players' ratings (issue 29)
    S.ratings = null;
    const at = S.version; // an answer that comes after the reader stepped away redraws nothing
    getJSON(`/games/${GAME_ID}/ratings`).then((r) => {
      S.ratings = r.changes;
      if (S.version === at) drawResult(st);
    }).catch(() => {});
  }
}

/** Each player's rating before and after this game, on the display scale (none: not rated). */
function ratingsText() {
  if (!S.ratings || !S.ratings.length) return "";
  const sign = (n) => (n >= 0 ? `+${n}` : `${n}`);
  return ` <span class="ratings">Ratings: ${S.ratings.map((c) => `<span class="rating" data-player="${esc(c.player)}" `
    + `data-after="${esc(c.after)}" data-change="${esc(c.change)}">${esc(c.player)} ${esc(c.before)} → ${esc(c.after)} `
    + `(${esc(sign(c.change))})</span>`).join(" · ")}</span>`;
}

// -- the move list ----------------------------------------------------------------------------------
function drawMoves() {
  const decisions = [];
  for (const e of S.events) {
    if (e.type !== "DecisionTaken") continue;
    const entry = S.timeline.get(e.version);
    const seat = (entry && entry.seat) || (e.data && e.data.seat) || "";
    const text = entry ? humanize(ownWords(entry.text, seat)) : "a decision";
    decisions.push({ version: e.version, seat, text });
  }
  const sections = S.sections.length ? S.sections : [{ start: 1, turn: null, phase: null }];
  drawMoveList($("#movelist"), { sections, head: S.head, version: S.version, decisions, who });
}

function jumpBy(unit, direction) {
  stop();
  const sections = S.sections.length ? S.sections : [{ start: 1, turn: null, phase: null }];
  const to = neighbour(sections, S.head, S.version, unit, direction);
  if (to !== null) show(to);
}

let outlineTimer = null;
function refreshOutline() {
  if (MODE !== "game") return;
  clearTimeout(outlineTimer);
  outlineTimer = setTimeout(async () => { await loadOutline(); drawMoves(); }, 300);
}

// -- analysis -----------------------------------------------------------------------------------------
/** The analysis costs minutes of the server's workers: it starts when the reader asks for it
 * (the button, or ?analysis / ?rollouts / ?policy in the page's URL). */
function offerAnalysis() {
  const state = $("#analysis-state");
  if (MODE !== "game") {
    state.textContent = "— a record file is analysed offline: herald analyse FILE";
    document.body.dataset.analysis = "offline";
    return;
  }
  const asked = new URLSearchParams(location.search);
  if (["analysis", "rollouts", "policy"].some((k) => asked.has(k))) { loadAnalysis(); return; }
  state.innerHTML = '— <button id="analyse" type="button">Analyse this game</button> <span class="muted">(seeded rollouts'
    + " from every board a decision was taken from; it may take a minute or more)</span>";
  document.body.dataset.analysis = "offered";
  $("#analyse").onclick = () => {
    const url = new URL(location.href);
    url.searchParams.set("analysis", "1");
    history.replaceState(null, "", url);
    loadAnalysis();
  };
}

async function loadAnalysis() {
  const state = $("#analysis-state");
  state.textContent = "— asking…";
  for (let tries = 0; ; tries++) {
    let found;
    try { found = await fetchAnalysis(GAME_ID, S.token, analysisQuery()); } catch (error) { found = { status: 0, body: { detail: String(error) } }; }
    if (found.status === 200) {
      S.analysis = found.body;
      state.textContent = "";
      document.body.dataset.analysis = "ready";
      drawAnalysisNow();
      return;
    }
    if (found.status === 202) {
      state.textContent = `— computing: ${progressText(found.body)}`;
      document.body.dataset.analysis = "running";
      await new Promise((r) => setTimeout(r, Math.min(4000, 600 + tries * 200)));
      continue;
    }
    const detail = found.body && (found.body.detail || found.body.title);
    state.textContent = found.status === 403 ? `— not during play: ${detail || "no engine help for a live game's seats"}`
      : found.status === 404 && !(found.body && found.body.code && found.body.code !== "not_found")
        ? "— not available on this server" : `— unavailable (${found.status}${detail ? `: ${detail}` : ""})`;
    document.body.dataset.analysis = `refused-${found.status}`;
    return;
  }
}

/** The policy and rollouts asked for: the page's ?policy= and ?rollouts= (the server's defaults otherwise). */
function analysisQuery() {
  const mine = new URLSearchParams(location.search);
  const q = new URLSearchParams();
  for (const key of ["policy", "rollouts"]) if (mine.get(key)) q.set(key, mine.get(key));
  return q.toString() ? `?${q}` : "";
}

/** The point the ranked commands are asked about: the board the step's decision was taken
 * from (a point whose ``decision`` is that DecisionTaken), or at the last board the point there. */
function rankedVersion() {
  const group = groupOf(S.events, S.version);
  const points = (S.analysis && S.analysis.points) || [];
  if (group.decision) {
    const taken = points.find((p) => p.decision === group.decision.version);
    if (taken) return taken.version;
  }
  const here = points.find((p) => p.version === S.version && p.decision);
  return here ? here.version : null;
}

let rankedTimer = null;
function drawAnalysisNow() {
  if (!S.analysis) return;
  const box = $("#analysis-graph");
  box.innerHTML = graphSvg(S.analysis, S.version, who, S.sections);
  const point = pointAt(S.analysis, S.version);
  box.dataset.version = String(point ? point.version : "");
  const at = rankedVersion();
  const ranked = $("#ranked");
  if (at === null) {
    ranked.innerHTML = groupOf(S.events, S.version).decision
      ? '<p class="muted">This decision was not analysed (the analysis stopped at its time budget).</p>'
      : '<p class="muted">No decision at this step.</p>';
    ranked.dataset.version = "";
    return;
  }
  if (S.ranked.has(at)) { showRanked(at); return; }
  ranked.innerHTML = '<p class="muted">Ranking the commands of this decision…</p>';
  clearTimeout(rankedTimer);
  rankedTimer = setTimeout(async () => {
    for (let tries = 0; tries < 60 && !S.ranked.has(at); tries++) {
      try {
        const found = await fetchRanked(GAME_ID, at, S.token, analysisQuery());
        if (found && (found.commands || found.ranked)) S.ranked.set(at, found);
        else await new Promise((r) => setTimeout(r, 1000)); // still being computed (202)
      } catch (error) {
        S.ranked.set(at, { error: problemText(error) });
      }
    }
    if (rankedVersion() === at) showRanked(at);
  }, 150);
}

function showRanked(at) {
  const found = S.ranked.get(at);
  const box = $("#ranked");
  box.dataset.version = String(at);
  box.innerHTML = !found ? "" : found.error ? `<p class="muted">The ranked commands are unavailable: ${found.error}</p>`
    : rankedHtml(found, who, () => null);
}

function step(delta) { stop(); show(S.version + delta); }

function nextDecision(direction) {
  stop();
  let v = S.version + direction;
  while (v >= 1 && v <= S.head && S.events[v - 1].type !== "DecisionTaken") v += direction;
  show(v);
}

function play() {
  if (S.playing) return stop();
  if (S.version >= S.head) show(1);
  const speed = Number($("#speed").value) || 2;
  $("#play").innerHTML = PAUSE;
  $("#play").setAttribute("aria-label", "Pause");
  S.playing = setInterval(() => {
    if (S.version >= S.head) return stop();
    show(S.version + 1);
  }, 1000 / speed);
}

function stop() {
  if (!S.playing) return;
  clearInterval(S.playing);
  S.playing = null;
  $("#play").innerHTML = PLAY;
  $("#play").setAttribute("aria-label", "Play");
}

// -- live -------------------------------------------------------------------------------------------
function addEvent(e) {
  if (e.version <= S.events.length) return false;
  const wasAtHead = S.version === S.head;
  S.events.push(e);
  if (e.type === "GameEnded" || e.type === "SeedRevealed") S.endAt = e.version;
  appendTimeline(e);
  if (afterword(e)) { if (e.data.at_version === S.version) drawNotes(); return true; }
  S.head = e.version;
  if (e.type === "GameEnded") { S.game.status = "ended"; drawHeader(); }
  if (wasAtHead) {
    S.unseen = 0;
    show(S.head);
  } else {
    S.unseen += 1;
    drawControls();
  }
  const badge = $("#new-events");
  badge.hidden = S.unseen === 0;
  badge.textContent = `${S.unseen} new`;
  return true;
}

async function follow() {
  // Server-Sent Events read with fetch (event types are open-ended, EventSource would need a
  // listener per type). Reconnects after the last version seen until the game has ended.
  const live = $("#live");
  let failures = 0;
  while (S.game.status !== "ended") {
    try {
      // The token goes in a header (never the URL): this connection is redacted for its reader.
      const headers = { Accept: "text/event-stream" };
      if (S.token) headers.Authorization = `Bearer ${S.token}`;
      const response = await fetch(`/games/${GAME_ID}/events/stream?after=${S.events.length}`, { headers });
      if (!response.ok) throw new ApiError(response.status, "the event stream is unavailable");
      live.hidden = false;
      document.body.dataset.live = "on";
      failures = 0;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
        let cut;
        let added = false;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
          if (!data) continue;
          try { added = addEvent(JSON.parse(data)) || added; } catch (error) { console.error(error); }
        }
        if (added) { refreshTimeline(); refreshOutline(); }
      }
    } catch (error) {
      failures += 1;
      console.warn("event stream", error);
    }
    live.hidden = true;
    document.body.dataset.live = "off";
    if (S.game.status === "ended") break;
    try { S.game.status = (await getJSON(`/games/${GAME_ID}`)).status; } catch { /* retry below */ }
    await new Promise((r) => setTimeout(r, Math.min(10000, 500 * 2 ** Math.min(failures, 5))));
  }
  refreshTimeline();
}

// -- study: fork, annotation, token ------------------------------------------------------------
function missingEndpoint(error, what, pathText) {
  if (error instanceof ApiError && (error.status === 404 || error.status === 405) && (!error.body || !error.body.code || error.body.code === "not_found" || error.body.code === "http_405")) {
    return `${what} is not available on this server yet (<code>${esc(pathText)}</code> answered ${error.status}).`;
  }
  return `${what} failed: ${problemText(error)}`;
}

async function fork() {
  const body = { version: S.version, dice: $("#fork-dice").value };
  try {
    const made = await getJSON(`/games/${GAME_ID}/fork`, { method: "POST", body, token: S.token });
    const id = made.id || (made.game && made.game.id);
    const tokens = made.seat_tokens ? Object.entries(made.seat_tokens) : [];
    if (id && tokens.length) sessionStorage.setItem(`herald.tokens.${id}`, JSON.stringify(made.seat_tokens));
    const list = tokens.map(([seat, t]) => `<li>${esc(seat)}: <code class="token">${esc(t)}</code></li>`).join("");
    // A step inside a command forks after the whole command (its dice, a ruling's effects): made.version.
    const at = made.version || S.version;
    say(`Forked at step ${esc(at)}${at !== S.version ? ` (the end of the command step ${esc(S.version)} belongs to)` : ""}: `
      + `<a id="fork-link" href="/viewer/${esc(id)}">open the fork</a>.`
      + (list ? ` Its seat tokens, shown once — keep them:<ul>${list}</ul>` : ""), "ok", true, "#study-message");
    document.body.dataset.fork = id || "";
    drawForks();
  } catch (error) {
    say(missingEndpoint(error, "Forking", `POST /games/${GAME_ID}/fork`), "error", true, "#study-message");
  }
}

async function drawForks() {
  // The study games branched off this one (GET /games/{id}/forks); nothing when the server has no forks.
  try {
    const found = await getJSON(`/games/${GAME_ID}/forks`);
    const forks = found.forks || [];
    $("#forks").hidden = forks.length === 0;
    $("#forks").innerHTML = forks.map((f) => `<li><a href="/viewer/${esc(f.id)}">fork ${esc(String(f.id).slice(0, 8))}</a>`
      + ` <span class="muted">${esc(f.status)} · v${esc(f.version)}</span></li>`).join("");
    if (forks.length) $("#forks").insertAdjacentHTML("afterbegin", `<li class="muted">Forks of this game:</li>`);
  } catch { $("#forks").hidden = true; }
}

async function annotate() {
  const note = $("#note").value.trim();
  if (!note) { say("Write the annotation first.", "error", false, "#study-message"); return; }
  try {
    await getJSON(`/games/${GAME_ID}/annotations`, { method: "POST", body: { at_version: S.version, text: note }, token: S.token });
    $("#note").value = "";
    say(`Annotation recorded at step ${S.version}.`, "ok", false, "#study-message");
    const at = S.version;
    await catchUp();
    if (S.version !== at) await show(at); // the page followed its own note to the head: come back
    drawNotes();
    document.body.dataset.annotated = String(at);
  } catch (error) {
    say(missingEndpoint(error, "Annotating", `POST /games/${GAME_ID}/annotations`), "error", true, "#study-message");
  }
}

function drawToken() {
  $("#token-state").textContent = S.token ? "Viewing with a seat token" : "Viewing as a spectator";
  $("#token").value = "";
}

async function setToken(token) {
  S.token = token || null;
  if (S.token) sessionStorage.setItem(TOKEN_KEY, S.token); else sessionStorage.removeItem(TOKEN_KEY);
  S.states.clear();
  drawToken();
  try {
    await getJSON(`/games/${GAME_ID}`, { token: S.token });
  } catch (error) {
    say(`The server refused the token: ${problemText(error)}`, "error", false, "#study-message");
    return;
  }
  // The events and the timeline are redacted for each reader: read them again as this one
  // (sessionStorage now holds the token; a stream already open keeps its first reader).
  const at = S.version;
  S.events = []; S.timeline.clear();
  await loadGame();
  drawTimeline();
  await show(Math.min(at, S.head));
  document.body.dataset.reader = S.token ? "seat" : "spectator"; // read again as this reader
}

// -- wiring -------------------------------------------------------------------------------------
function openHelp() {
  const dialog = $("#help");
  if (dialog.open) { dialog.close(); return; }
  dialog.showModal();
  document.body.dataset.help = "open";
  dialog.addEventListener("close", () => { document.body.dataset.help = "closed"; }, { once: true });
}

function wire() {
  $("#first").onclick = () => { stop(); show(1); };
  $("#back").onclick = () => step(-1);
  $("#forward").onclick = () => step(1);
  $("#last").onclick = () => { stop(); show(S.head); };
  $("#play").onclick = play;
  $("#speed").onchange = () => { if (S.playing) { stop(); play(); } };
  $("#step").onchange = () => { stop(); show(Number($("#step").value)); };
  $("#only-decisions").onchange = markTimeline;
  $("#help-open").onclick = openHelp;
  $("#changes-since").onchange = () => drawBoard();
  $("#changes-since").onclick = (ev) => ev.stopPropagation(); // inside the summary: do not fold the panel
  $("#movelist").addEventListener("click", (ev) => {
    const jump = ev.target.closest("[data-goto]");
    if (jump) { stop(); show(Number(jump.dataset.goto)); }
  });
  $("#turn-jump").onchange = () => { stop(); show(Number($("#turn-jump").value)); };
  $("#afterwords").addEventListener("click", (ev) => {
    const jump = ev.target.closest("button[data-goto]");
    if (jump) { stop(); show(Number(jump.dataset.goto)); }
  });
  $("#analysis-graph").addEventListener("click", (ev) => {
    const swing = ev.target.closest("[data-goto]");
    if (swing) { stop(); show(Number(swing.dataset.goto)); return; }
    const svg = ev.target.closest("svg.graph");
    if (svg && S.analysis) { stop(); show(versionAt(svg, ev.clientX, S.analysis.points)); }
  });
  $("#timeline").addEventListener("click", (ev) => {
    const jump = ev.target.closest("button[data-goto]");
    if (jump) { stop(); show(Number(jump.dataset.goto)); return; }
    const li = ev.target.closest("li[data-version]");
    if (li) { stop(); show(Number(li.dataset.version)); }
  });
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const keys = {
      ArrowRight: () => (ev.shiftKey ? nextDecision(1) : step(1)),
      ArrowLeft: () => (ev.shiftKey ? nextDecision(-1) : step(-1)),
      Home: () => { stop(); show(1); },
      End: () => { stop(); show(S.head); },
      " ": play,
      PageDown: () => jumpBy("turn", 1),
      PageUp: () => jumpBy("turn", -1),
      "]": () => jumpBy("phase", 1),
      "[": () => jumpBy("phase", -1),
      "?": openHelp,
      c: () => { $("#changes").open = !$("#changes").open; },
    };
    if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  });
  let resizeTimer = null;
  document.addEventListener("herald:board-moved", () => drawMarks()); // a map zoomed or panned: marks follow
  window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(drawBoard, 120); });
  if (MODE === "game") {
    $("#fork").onclick = fork;
    $("#annotate").onclick = annotate;
    $("#token-save").onclick = () => setToken($("#token").value.trim());
    $("#token-clear").onclick = () => setToken(null);
  } else {
    $("#study").hidden = true;
  }
}

async function start(loader) {
  await loader();
  drawHeader();
  $("#controls").hidden = false;
  $("#layout").hidden = false;
  drawTimeline();
  drawToken();
  // 'same' dice need the parent's seed in public: a study game, or one that has ended.
  $("#fork-dice").value = S.game.study || S.game.status === "ended" ? "same" : "fresh";
  const asked = Number(new URLSearchParams(location.search).get("v"));
  await show(asked >= 1 ? asked : S.head);
  offerAnalysis();
  document.body.dataset.ready = "yes";
}

async function main() {
  wire();
  if (MODE === "game") {
    try {
      await start(loadGame);
    } catch (error) {
      $("#title").textContent = "Game not found";
      say(`Could not open game ${esc(GAME_ID)}: ${problemText(error)}`, "error", true);
      return;
    }
    drawForks();
    if (S.game.status !== "ended") follow();
    return;
  }
  // A portable record file: chosen here, kept in this tab so a reload or a ?v= link works.
  $("#title").textContent = "Open a record";
  $("#opener").hidden = false;
  const open = async (textBody) => {
    try {
      await start(() => loadRecord(textBody));
      try { sessionStorage.setItem(RECORD_KEY, textBody); } catch { /* too big to keep: fine */ }
    } catch (error) {
      say(`This record cannot be opened: ${problemText(error)}`, "error", true);
    }
  };
  $("#record-file").onchange = async (ev) => {
    const file = ev.target.files[0];
    if (file) {
      S.events = []; S.states.clear(); S.timeline.clear();
      const url = new URL(location.href); url.searchParams.delete("v"); history.replaceState(null, "", url);
      await open(await file.text());
    }
  };
  // A record file dropped anywhere on the page opens too.
  document.addEventListener("dragover", (ev) => { ev.preventDefault(); });
  document.addEventListener("drop", async (ev) => {
    ev.preventDefault();
    const file = ev.dataTransfer && ev.dataTransfer.files[0];
    if (!file) return;
    S.events = []; S.states.clear(); S.timeline.clear();
    const url = new URL(location.href); url.searchParams.delete("v"); history.replaceState(null, "", url);
    await open(await file.text());
  });
  document.body.dataset.opener = "ready"; // the file input listens from here on
  const kept = sessionStorage.getItem(RECORD_KEY);
  if (kept) await open(kept);
}

main();
