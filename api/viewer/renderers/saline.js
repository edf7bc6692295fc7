// Saline: the village square (the market track with its prices, the gabelle die, the rain scale,
// the face-up objectives), then every player's saline: the œillets around the mulon on the eight
// places (N, NE, … NW) with the salt on each, the mulon's salt, liards, favour and claimed
// objectives; the reader's own hand and secret objective face up when the view carries them
// (a seat's token), every other hand as card backs with a count and every other secret objective
// face down. Drawn only from the rule system's view JSON.
import { boardWidth, esc, ownSeat, playerName, tag, text } from "../dom.js";

let who = (seat) => seat; // the player in a seat, set by render

const PAD = 8;
const CELL = 44;
const CARD_W = 72;
const CARD_H = 40;
const GRID = { NW: [0, 0], N: [1, 0], NE: [2, 0], W: [0, 1], E: [2, 1], SW: [0, 2], S: [1, 2], SE: [2, 2] };
const COLOURS = { green: "#5a9e4b", red: "#c0483c", yellow: "#d9b43a", blue: "#3f6fb5" };

function oeillet(pos, o, x, y) {
  return tag("g", { class: "oeillet", "data-position": pos, "data-oeillet": o.id, "data-colour": o.colour,
    "data-salt": o.salt },
    tag("title", {}, `${o.id}: ${o.colour}, ${o.salt}/${o.capacity} salt`),
    tag("rect", { x, y, width: CELL - 4, height: CELL - 4, rx: 4, fill: COLOURS[o.colour] || "#999", class: "oeillet-face" }),
    text(x + (CELL - 4) / 2, y + CELL / 2 + 2, `${o.salt}/${o.capacity}`, { class: "small strong", "text-anchor": "middle" }));
}

function eventCard(card, x, y) {
  return tag("g", { class: "card face-up", "data-card": card.id },
    tag("title", {}, `${card.id}: ${card.effects.map((e) => `${e.name} (${e.phase})`).join(" / ")}`),
    tag("rect", { x, y, width: CARD_W, height: CARD_H, rx: 3, class: "card-face", fill: "#fffdf7", stroke: "#8a7d68" }),
    text(x + 3, y + 12, card.effects[0].name.slice(0, 13), { class: "tiny" }),
    text(x + 3, y + 24, card.effects[1].name.slice(0, 13), { class: "tiny" }),
    text(x + CARD_W - 3, y + CARD_H - 4, card.id, { class: "micro", "text-anchor": "end" }));
}

function cardBack(x, y) {
  return tag("g", { class: "card back" }, tag("rect", { x, y, width: CARD_W / 2, height: CARD_H, rx: 3, class: "card-back", fill: "#7a6a55", stroke: "#4d4236" }));
}

function objective(o, x, y, w, cls) {
  const cells = Object.entries(o.cells).map(([p, c]) => `${p} ${c}`).join(", ");
  return tag("g", { class: `objective ${cls}`, "data-objective": o.id },
    tag("title", {}, `${o.name}: ${cells}`),
    tag("rect", { x, y, width: w, height: 30, rx: 4, class: "objective-face", fill: "#f3ead2", stroke: "#b9a77a" }),
    text(x + 4, y + 12, o.name.slice(0, 26), { class: "tiny strong" }),
    text(x + 4, y + 25, cells.slice(0, Math.floor(w / 5)), { class: "micro" }));
}

function saline(seat, p, x, y, w, own, toAct) {
  const parts = [tag("rect", { x, y, width: w, height: 3 * CELL + 120, rx: 6, class: `army-frame${seat === toAct ? " to-act" : ""}`,
    fill: "#fbf8f0", stroke: seat === toAct ? "#c9932e" : "#b8b0a0", "stroke-width": seat === toAct ? 2 : 1 }),
    text(x + 6, y + 14, `${who(seat)}${own ? " (you)" : ""} · ${p.liards} liards · favour ${p.favour ? "unused" : "used"}`,
      { class: "small strong" })];
  const gx = x + 6, gy = y + 20;
  for (const [pos, [cx, cy]] of Object.entries(GRID)) {
    const o = p.saline[pos];
    if (o) parts.push(oeillet(pos, o, gx + cx * CELL, gy + cy * CELL));
    else parts.push(tag("rect", { x: gx + cx * CELL, y: gy + cy * CELL, width: CELL - 4, height: CELL - 4, rx: 4, class: "empty-place", fill: "none", stroke: "#cfc6b4", "stroke-dasharray": "3 3" }));
  }
  parts.push(tag("g", { class: "mulon", "data-salt": p.mulon },
    tag("circle", { cx: gx + 1.5 * CELL - 2, cy: gy + 1.5 * CELL - 2, r: CELL / 2 - 4, class: "mulon-heap", fill: "#ffffff", stroke: "#9a9080" }),
    text(gx + 1.5 * CELL - 2, gy + 1.5 * CELL + 2, `${p.mulon}`, { class: "small strong", "text-anchor": "middle" })));
  const sx = gx + 3 * CELL + 6;
  const claimed = p.claimed.map((o, i) => objective(o, sx, gy + i * 34, w - (sx - x) - 6, "claimed"));
  parts.push(tag("g", { class: "claimed", "data-count": p.claimed.length }, claimed));
  const hy = gy + 3 * CELL + 6;
  const h = p.hand;
  const cards = [];
  for (let i = 0; i < h.count; i++) {
    cards.push(h.cards ? eventCard(h.cards[i], gx + i * (CARD_W + 4), hy) : cardBack(gx + i * (CARD_W / 2 + 4), hy));
  }
  parts.push(tag("g", { class: `hand${h.cards ? " shown" : " hidden"}`, "data-seat": seat, "data-count": h.count }, cards));
  const so = p.secret_objective;
  const secret = !so ? "" : so.face_down
    ? tag("g", { class: "secret face-down", "data-seat": seat }, tag("rect", { x: gx, y: hy + CARD_H + 6, width: 60, height: 30, rx: 4, class: "card-back", fill: "#7a6a55" }),
      text(gx + 4, hy + CARD_H + 24, "secret", { class: "tiny" }))
    : tag("g", { class: "secret face-up", "data-seat": seat }, objective(so, gx, hy + CARD_H + 6, w - 12, "secret-objective"));
  parts.push(secret);
  return tag("g", { class: "player-saline", "data-seat": seat, "data-oeillets": p.oeillets, "data-liards": p.liards }, parts);
}

export function render(target, ctx) {
  const view = ctx.view;
  const { narrow, W } = boardWidth(ctx);
  const seats = view.seats;
  who = (seat) => playerName(ctx.game, seat);
  const own = view.outcome ? null : ownSeat(seats, (s) => view.players[s] && view.players[s].hand.cards);
  const out = [];
  let y = PAD;
  out.push(text(PAD, y + 14, "Saline", { class: "title" }));
  const status = view.outcome ? "game over" : `day ${view.day} · ${view.phase}${view.to_act ? ` · ${who(view.to_act)} to act` : ""}`;
  out.push(text(W - PAD, y + 14, `${status} · gabelle ${view.gabelle} · rain ${view.rain}/3`,
    { class: "counts", "text-anchor": "end", "data-gabelle": view.gabelle, "data-rain": view.rain }));
  y += 24;
  // the end is said once, by the page's banner above the board (game.js, drawResult)
  const spaceW = (Math.min(W, 520) - PAD * 5) / 4;
  const market = view.market.map((m, i) => {
    const x = PAD + i * (spaceW + PAD);
    return tag("g", { class: "market-space", "data-space": m.space, "data-price": m.price, "data-oeillet": m.oeillet || "",
      "data-colour": m.colour || "" },
      tag("rect", { x, y, width: spaceW, height: 40, rx: 4, fill: m.colour ? COLOURS[m.colour] : "none", stroke: "#8a7d68", class: "market-slot" }),
      text(x + 4, y + 14, `${m.price} liard${m.price === 1 ? "" : "s"}`, { class: "small strong" }),
      text(x + 4, y + 32, m.colour || "empty", { class: "tiny" }));
  });
  out.push(tag("g", { class: "market-track" }, market));
  y += 48;
  const objW = narrow ? W - 2 * PAD : (W - PAD * (view.objectives.length + 1)) / Math.max(1, view.objectives.length);
  view.objectives.forEach((o, i) => {
    out.push(objective(o, narrow ? PAD : PAD + i * (objW + PAD), narrow ? y + i * 34 : y, objW, "public"));
  });
  y += narrow ? view.objectives.length * 34 + 6 : 40;
  const order = own ? [own, ...seats.filter((s) => s !== own)] : seats;
  const per = narrow ? 1 : Math.min(order.length, 4);
  const sw = (W - PAD * (per + 1)) / per;
  const sh = 3 * CELL + 128;
  order.forEach((s, i) => {
    const x = PAD + (i % per) * (sw + PAD);
    const sy = y + Math.floor(i / per) * (sh + PAD);
    out.push(saline(s, view.players[s], x, sy, sw, s === own, view.to_act));
  });
  y += Math.ceil(order.length / per) * (sh + PAD);
  const title = `Saline${own ? ` — ${who(own)}'s view` : ""}`;
  target.innerHTML = `<svg class="board saline" data-renderer="saline"
    viewBox="0 0 ${W} ${Math.ceil(y + PAD)}" width="100%" role="img" aria-label="${esc(title)} at version ${esc(ctx.version)}">${out.join("")}</svg>`;
}
