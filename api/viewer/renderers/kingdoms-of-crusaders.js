// The Kingdoms of Crusaders: the five territories (sectors 1 to 5, left to right), each with
// every player's army of up to four unit cards, its squads and the victory marker; below, the
// hands: the reader's own face up when the view carries it (a seat's token), every other hand as
// card backs with a count. Two players sit in the mirror position (the other across the table,
// sector 1 facing sector 1). Drawn only from the rule system's view JSON.
import { boardWidth, esc, ownSeat, playerName, tag, text } from "../dom.js";

let who = (seat) => seat; // the player in a seat, set by render

const PAD = 8;
const CARD_W = 34;
const CARD_H = 54;
const SYMBOLS = { lance: "L", bow: "B", sword: "S", helmet: "H", banner: "F" };
const SQUADS = [["regiments", "Reg"], ["battalions", "Bat"], ["companies", "Co"]];

function unitCard(card, x, y) {
  const marks = card.symbols.map((s, i) => tag("g", { class: `symbol ${s}` },
    tag("rect", { x: x + 3, y: y + 3 + i * 8, width: CARD_W - 6, height: 7, rx: 2 }),
    text(x + CARD_W / 2, y + 9 + i * 8, SYMBOLS[s] || "?", { class: "tiny", "text-anchor": "middle" })));
  return tag("g", { class: "card face-up", "data-card": card.id, "data-symbols": card.symbols.join(" ") },
    tag("title", {}, `${card.id}: ${card.symbols.join(", ")}`),
    tag("rect", { x, y, width: CARD_W, height: CARD_H, rx: 3, class: "card-face" }), marks,
    text(x + CARD_W / 2, y + CARD_H - 3, card.id, { class: "micro", "text-anchor": "middle" }));
}

function cardBack(x, y) {
  return tag("g", { class: "card back" }, tag("rect", { x, y, width: CARD_W, height: CARD_H, rx: 3, class: "card-back" }),
    tag("path", { d: `M${x + 6} ${y + CARD_H / 2}h${CARD_W - 12}M${x + CARD_W / 2} ${y + 8}v${CARD_H - 16}`, class: "cross" }));
}

function squadLine(squads) {
  return SQUADS.filter(([k]) => squads[k] && squads[k].length)
    .map(([k, short]) => `${short} ${squads[k].map((s) => SYMBOLS[s]).join("")}`).join(" ");
}

function army(seat, sector, a, x, y, w, toAct) {
  const cards = a.cards.map((c, i) => unitCard(c, x + 4 + i * (CARD_W + 2), y + 16));
  return tag("g", { class: `army${a.complete ? " complete" : ""}`, "data-seat": seat, "data-sector": sector,
    "data-cards": a.cards.length, "data-complete": a.complete ? "yes" : "no" },
    tag("rect", { x, y, width: w, height: CARD_H + 34, rx: 5, class: `army-frame${seat === toAct ? " to-act" : ""}` }),
    text(x + 4, y + 12, `${who(seat)}${a.complete ? ` ✓${a.completed_order}` : ""}`, { class: "small strong" }),
    cards, text(x + 4, y + CARD_H + 30, squadLine(a.squads), { class: "tiny" }));
}

function hand(seat, h, x, y, width, own) {
  const parts = [text(x, y + 12, `${who(seat)}${own ? " (you)" : ""}: ${h.count} card${h.count === 1 ? "" : "s"}`,
    { class: "small strong" })];
  const step = Math.min(CARD_W + 3, (width - CARD_W) / Math.max(1, h.count - 1));
  for (let i = 0; i < h.count; i++) {
    const cx = x + i * step, cy = y + 18;
    parts.push(h.cards ? unitCard(h.cards[i], cx, cy) : cardBack(cx, cy));
  }
  return tag("g", { class: `hand${h.cards ? " shown" : " hidden"}`, "data-seat": seat, "data-count": h.count }, parts);
}

export function render(target, ctx) {
  const view = ctx.view;
  const { narrow, W } = boardWidth(ctx);
  const seats = view.seats;
  who = (seat) => playerName(ctx.game, seat);
  const own = view.outcome ? null : ownSeat(seats, (s) => view.hands[s] && view.hands[s].cards);
  const colW = narrow ? W - 2 * PAD : (W - PAD * 6) / 5;
  const armyW = 4 * (CARD_W + 2) + 8;
  const perRow = Math.max(1, Math.floor((colW - 4) / (armyW + 4)));
  const armyH = CARD_H + 38;
  const mirror = seats.length === 2;
  // who sits at the bottom (the reader, else p1) and across the table (mirror position)
  const bottom = own || seats[0];
  const across = mirror ? seats.find((s) => s !== bottom) : null;
  const below = mirror ? [bottom] : seats;
  const out = [];
  let y = PAD;
  out.push(text(PAD, y + 14, "The Kingdoms of Crusaders", { class: "title" }));
  const status = view.outcome ? "game over" : view.to_act ? `turn ${view.turn}: ${who(view.to_act)} to act` : view.phase;
  const counts = `${status} · deck ${view.deck.left}/${view.deck.size}`;
  if (narrow) {
    out.push(text(PAD, y + 32, counts, { class: "counts" }));
    y += 18;
  } else {
    out.push(text(W - PAD, y + 14, counts, { class: "counts", "text-anchor": "end" }));
  }
  y += 24;
  // the end is said once, by the page's banner above the board (game.js, drawResult)
  const columns = [];
  let colH = 0;
  view.territories.forEach((t, i) => {
    const x = narrow ? PAD : PAD + i * (colW + PAD);
    const y0 = narrow ? y + colH : y;
    const parts = [];
    let cy = y0;
    const place = (list) => {
      list.forEach((s, k) => {
        const ax = x + (k % perRow) * (armyW + 4) + 2;
        if (k % perRow === 0 && k) cy += armyH;
        parts.push(army(s, t.sector, t.armies[s], ax, cy, armyW, view.to_act));
      });
      cy += armyH;
    };
    if (across) place([across]);
    const m = t.marker;
    parts.push(tag("g", { class: "territory-name" },
      tag("rect", { x, y: cy, width: colW, height: 34, rx: 6, class: `name-band${m ? " won" : ""}` }),
      text(x + 6, cy + 14, `${t.sector} · ${t.name}`, { class: "small strong" }),
      text(x + 6, cy + 28, m ? `marker ${m.number}: ${who(m.seat)}` : "not yet won", { class: "tiny" }),
      m ? tag("g", { class: "marker", "data-number": m.number, "data-seat": m.seat },
        tag("circle", { cx: x + colW - 16, cy: cy + 17, r: 11, class: "victory-marker" }),
        text(x + colW - 16, cy + 21, String(m.number), { class: "small strong", "text-anchor": "middle" })) : ""));
    cy += 40;
    place(below);
    const h = cy - y0;
    columns.push(tag("g", { class: "territory", "data-sector": t.sector, "data-name": t.name,
      "data-winner": m ? m.seat : "", "data-marker": m ? m.number : "" }, parts));
    colH = narrow ? colH + h + PAD : Math.max(colH, h);
  });
  out.push(columns.join(""));
  y += colH + PAD;
  const order = [bottom, ...seats.filter((s) => s !== bottom)];
  const handW = narrow ? W - 2 * PAD : (W - PAD * (order.length + 1)) / order.length;
  order.forEach((s, i) => {
    const x = narrow ? PAD : PAD + i * (handW + PAD);
    const hy = narrow ? y + i * (CARD_H + 28) : y;
    out.push(hand(s, view.hands[s], x, hy, handW, s === own));
  });
  y += narrow ? order.length * (CARD_H + 28) : CARD_H + 28;
  const title = `The Kingdoms of Crusaders${own ? ` — ${who(own)}'s view` : ""}`;
  target.innerHTML = `<svg class="board koc" data-renderer="kingdoms-of-crusaders" data-layout="${esc(view.layout)}"
    viewBox="0 0 ${W} ${Math.ceil(y + PAD)}" width="100%" role="img" aria-label="${esc(title)} at version ${esc(ctx.version)}">${out.join("")}</svg>`;
}
