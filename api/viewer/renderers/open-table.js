// The open table: seats and what each decided, the hands (the reader's own face up, others
// as card backs), the decks, and the dice log, as SVG.
import { esc, playerName, tag, text } from "../dom.js";
import { dieGroup } from "../dice.js";

const LOG_LENGTH = 10;

function outcomeText(o, game) {
  if (!o) return "";
  return (o.draw ? "draw" : `${playerName(game, o.winner)} wins`) + (o.reason ? ` (${o.reason})` : "");
}

export function render(target, ctx) {
  const { view, events, game } = ctx;
  const narrow = ctx.width < 560;
  const W = narrow ? 360 : 720;
  const pad = 12;
  const parts = [];
  let y = pad;

  // Header: counts and the end.
  parts.push(text(pad, y + 14, "Open table", { class: "title" }));
  parts.push(text(W - pad, y + 14, `decisions ${view.decisions} · rolls ${view.rolls}`,
    { class: "counts", "text-anchor": "end", "data-decisions": view.decisions, "data-rolls": view.rolls }));
  y += 28;
  // the end is said once, by the page's banner above the board (game.js, drawResult)

  // Seats: one card each, with the decisions and rolls it made.
  const decided = {}, rolled = {}, lastSaid = {};
  for (const e of events) {
    const seat = e.data && e.data.seat;
    if (!seat) continue;
    if (e.type === "DecisionTaken") {
      decided[seat] = (decided[seat] || 0) + 1;
      lastSaid[seat] = e.data.command;
    }
    if (e.type === "DiceRolled") rolled[seat] = (rolled[seat] || 0) + 1;
  }
  const cols = narrow ? 2 : Math.min(4, Math.max(1, view.seats.length));
  const cw = (W - pad * (cols + 1)) / cols, ch = 78;
  view.seats.forEach((seat, i) => {
    const x = pad + (i % cols) * (cw + pad), sy = y + Math.floor(i / cols) * (ch + pad);
    const toAct = (ctx.toAct || []).includes(seat);
    const proposal = view.end_proposals && view.end_proposals[seat];
    const player = game.seats && game.seats[seat] ? game.seats[seat].player : "";
    const last = lastSaid[seat];
    const lastText = !last ? "—" : {
      note: () => `“${last.text || ""}”`,
      roll: () => `rolled ${last.dice}${last.label ? ` for ${last.label}` : ""}`,
      shuffle: () => `shuffled ${last.deck}`,
      draw: () => `drew ${last.count || 1} from ${last.deck}`,
      take: () => `took ${last.count || 1} from ${last.deck}`,
      play: () => `played ${last.card}`,
      discard: () => `discarded ${last.card} face down`,
      "show-hand": () => "showed their hand",
      end: () => "proposed to end",
    }[last.type]?.() ?? last.type;
    parts.push(tag("g", { class: `seat${toAct ? " to-act" : ""}`, "data-seat": seat, "data-decisions": decided[seat] || 0 },
      tag("rect", { x, y: sy, width: cw, height: ch, rx: 6, class: "seat-card" }),
      text(x + 8, sy + 18, player || seat, { class: "player" }),
      text(x + cw - 8, sy + 18, player ? seat : "", { class: "seat-id small muted", "text-anchor": "end" }),
      text(x + 8, sy + 38, `${decided[seat] || 0} decisions · ${rolled[seat] || 0} rolls`, { class: "small" }),
      text(x + 8, sy + 56, `last: ${lastText}`.slice(0, narrow ? 24 : 40), { class: "small muted" }),
      proposal ? text(x + 8, sy + 72, `proposes: ${outcomeText(proposal, game)}`.slice(0, 40), { class: "small proposal" }) : ""));
  });
  y += Math.ceil(view.seats.length / cols) * (ch + pad);

  // Hands: the reader's own face up (the view lists its cards), every other hand as card
  // backs (the view gives only a count), and each seat's cards discarded face down.
  const hands = view.hands || {};
  const perRow = Math.floor((W - 2 * pad - 70) / 58);
  const cardFace = (x, cy, card, cls) => tag("g", { class: cls, "data-card": card },
    tag("title", {}, esc(card)),
    tag("rect", { x, y: cy, width: 52, height: 30, rx: 3 }),
    text(x + 26, cy + 19, card.length > 8 ? `${card.slice(0, 7)}…` : card, { "text-anchor": "middle", class: "small" }));
  const cardBack = (x, cy) => tag("g", { class: "card card-back" },
    tag("rect", { x, y: cy, width: 52, height: 30, rx: 3, class: "back" }),
    tag("path", { d: `M${x + 6} ${cy + 6} l40 18 M${x + 46} ${cy + 6} l-40 18`, class: "back-mark" }));
  if (Object.keys(hands).length) {
    parts.push(text(pad, y + 14, "Hands", { class: "subtitle" }));
    y += 22;
    for (const [seat, hand] of Object.entries(hands)) {
      const open = Array.isArray(hand);
      const count = open ? hand.length : hand;
      const down = (view.face_down || {})[seat] || 0;
      parts.push(tag("g", { class: `hand${open ? " open" : " hidden"}`, "data-seat": seat, "data-count": count },
        text(pad, y + 19, playerName(game, seat).slice(0, 9), { class: "player" }),
        ...(open ? hand.slice(0, perRow).map((card, i) => cardFace(pad + 70 + i * 58, y, card, "card face"))
          : Array.from({ length: Math.min(count, perRow) }, (_, i) => cardBack(pad + 70 + i * 58, y))),
        count > perRow ? text(W - pad, y + 19, `+${count - perRow}`, { "text-anchor": "end", class: "small" }) : "",
        down ? text(pad, y + 34, `${down} face down`, { class: "small muted", "data-face-down": down }) : ""));
      y += 42;
    }
  }
  const played = (view.played || []).slice(-perRow);
  if (played.length) {
    parts.push(text(pad, y + 14, "Played (latest last)", { class: "subtitle" }));
    y += 20;
    played.forEach((p, i) => parts.push(cardFace(pad + i * 58, y, p.card, "card played")));
    y += 38;
  }

  // Decks: cards left, the last cards drawn face up.
  for (const [name, d] of Object.entries(view.decks || {})) {
    const barW = W - 2 * pad;
    parts.push(text(pad, y + 12, `${name}: ${d.left}/${d.size} left${d.shuffled ? " · shuffled" : ""}`, { class: "small" }));
    parts.push(tag("rect", { x: pad, y: y + 18, width: barW, height: 6, rx: 3, class: "bar-bg" }));
    parts.push(tag("rect", { x: pad, y: y + 18, width: d.size ? (barW * d.left) / d.size : 0, height: 6, rx: 3, class: "bar" }));
    y += 30;
    const shown = d.drawn.slice(-(narrow ? 6 : 12));
    shown.forEach((card, i) => {
      const x = pad + i * 54;
      parts.push(tag("g", { class: "card", "data-card": card },
        tag("rect", { x, y, width: 48, height: 30, rx: 3 }),
        text(x + 24, y + 19, card, { "text-anchor": "middle", class: "small" })));
    });
    if (shown.length) y += 38;
  }

  // Dice log: the latest rolls up to this step, as faces.
  const rolls = events.filter((e) => e.type === "DiceRolled").slice(-LOG_LENGTH).reverse();
  parts.push(text(pad, y + 14, rolls.length ? "Dice log (latest first)" : "Dice log: no rolls yet", { class: "subtitle" }));
  y += 24;
  const size = narrow ? 18 : 22;
  for (const e of rolls) {
    const d = e.data;
    const label = `v${e.version} ${d.seat ? d.seat + ": " : ""}${d.purpose}`;
    const perRow = Math.floor((W - 2 * pad) / (size + 4));
    const faces = d.faces.slice(0, perRow * 2);
    const g = [text(pad, y + 12, label.slice(0, narrow ? 48 : 90), { class: "small" })];
    faces.forEach((f, i) => {
      g.push(dieGroup(d.kind, f, pad + (i % perRow) * (size + 4), y + 18 + Math.floor(i / perRow) * (size + 4), size));
    });
    const rowsUsed = Math.ceil(faces.length / perRow);
    parts.push(tag("g", { class: "roll", "data-version": e.version }, g));
    y += 22 + rowsUsed * (size + 4);
  }
  y += pad;
  target.innerHTML = `<svg class="board open-table" data-renderer="open-table" viewBox="0 0 ${W} ${y}" width="100%" role="img"
    aria-label="Open table at version ${esc(ctx.version)}">${parts.join("")}</svg>`;
}
