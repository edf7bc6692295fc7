// Saxon Shore: the map of Britain and Ireland as SVG — provinces placed from a hand-made
// schematic layout (saxon-shore-layout.json, which also carries map.json's borders and
// coasts), borders coloured and dashed by type, owners' colours and castles, troops by kind
// with counts, improvements, morale and ravage, wild provinces shaded, the three sea zones
// with the boats in them — and beside it (below it on a phone) each player's resources,
// king and boats. Drawn only from the rule system's view JSON and the layout.
import { esc, playerName, tag, text, titleCase } from "../dom.js";

const response = await fetch(new URL("./saxon-shore-layout.json", import.meta.url), { headers: { Accept: "application/json" } });
if (!response.ok) throw new Error(`the Saxon Shore layout is unavailable (${response.status})`);
const LAYOUT = await response.json();

const COLOURS = ["#b8312b", "#2459a8", "#2d7f35", "#c07010", "#77389b"]; // seats in the view's order
const SOFT = ["#f5d6d2", "#d6e1f3", "#d5ecd6", "#f7e2c2", "#e8d7f1"];
const NEUTRAL = "#857b69";
const KINDS = ["king", "knight", "berserker", "monk", "regular", "mercenary", "peasant", "boat"];
const LETTER = { king: "K", knight: "N", berserker: "B", monk: "M", regular: "R", mercenary: "$", peasant: "p", boat: "b" };
const KIND_NAME = { knight: "mounted knight", monk: "warrior monk" };
const BORDER = {
  normal: { stroke: "#7d705a", width: 1.6, dash: null },
  forest: { stroke: "#2e7d32", width: 3.2, dash: "7 4" },
  marsh: { stroke: "#2a7f9e", width: 3.4, dash: "1.5 4.5" },
  mountain: { stroke: "#7a4a22", width: 3.6, dash: "11 3 3 3" },
};
const RESOURCE_COLOUR = { wheat: "#d8b13c", wool: "#f4f1e8", iron: "#6f7680", gold: "#f0c419", slaves: "#8d6e63" };
const IMPROVEMENTS = ["road", "wall", "city", "monastery"];
const SEA_COLOURS = ["#16897d", "#2d4f9e", "#3a9ad4"]; // the sea zones in the layout's order

const ICON = {
  // 10×10 glyphs drawn at (0,0)
  road: "M1 10L4 0H6L9 10H7L5.6 5H4.4L3 10Z",
  wall: "M0 1H4.5V4H0ZM5.5 1H10V4H5.5ZM0 5H2V8H0ZM3 5H7V8H3ZM8 5H10V8H8ZM0 9H4.5V10H0ZM5.5 9H10V10H5.5Z",
  city: "M0 10V4L3 1L6 4V2H8V5L10 5V10Z",
  monastery: "M4 0H6V3H9V5H6V10H4V5H1V3H4Z",
  castle: "M0 12V2H2.5V4.5H4.25V2H6.75V4.5H8.5V2H11V12H7V8.5H4V12Z",
  ravage: "M5 0C6 3 10 4 9.5 7.5C9 10 7 11 5 11C3 11 1 10 0.5 7.5C0.2 5.5 2 4 2.8 3C3 5 4 6 5 6C5.2 4 4.2 2 5 0Z",
};
const PW = LAYOUT.card.province[0], PH = LAYOUT.card.province[1];
const WW = LAYOUT.card.wild[0], WH = LAYOUT.card.wild[1];
const STYLE_ID = "saxon-shore-style";
const STYLE = `
.saxon-shore { display: flex; flex-wrap: wrap; gap: 8px; padding: 6px; align-items: flex-start; }
.saxon-shore .ss-map { flex: 1 1 560px; min-width: 0; }
.saxon-shore .ss-map svg { display: block; width: 100%; height: auto; touch-action: none; cursor: grab; }
.saxon-shore .ss-map svg.dragging { cursor: grabbing; }
.saxon-shore .ss-zoom { display: flex; gap: 4px; align-items: center; font-size: 0.8rem; margin-bottom: 4px; flex-wrap: wrap; }
.saxon-shore .ss-zoom button { min-width: 30px; min-height: 28px; border: 1px solid #d9d0bd; border-radius: 5px; background: #fffdf7; cursor: pointer; font-size: 1rem; }
.saxon-shore .ss-side { flex: 1 0 210px; max-width: 100%; min-width: 0; display: flex; flex-direction: column; gap: 6px; font-size: 0.82rem; }
@media (min-width: 900px) { .saxon-shore .ss-side { flex: 0 0 214px; } }
.saxon-shore .ss-head { flex: 1 1 100%; display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; font-size: 0.9rem; overflow-wrap: anywhere; }
.saxon-shore .ss-head b { font-weight: 700; }
.saxon-shore .ss-ended { flex: 1 1 100%; background: #444; color: white; border-radius: 6px; padding: 5px 10px; font-weight: 700; }
.saxon-shore .ss-battle { color: #9b1c1c; font-weight: 600; }
.saxon-shore .ss-storm { color: #1f4f7a; font-weight: 600; }
.saxon-shore .ss-players { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 6px; }
.saxon-shore .ss-player { border: 1px solid #d9d0bd; border-left: 6px solid var(--seat); border-radius: 6px; padding: 5px 7px;
  background: #fffdf7; min-width: 0; overflow-wrap: anywhere; }
.saxon-shore .ss-player.to-act { outline: 2px solid #b98a1b; }
.saxon-shore .ss-player.dead { opacity: 0.55; }
.saxon-shore .ss-player h3 { margin: 0 0 3px; font-size: 0.9rem; display: flex; gap: 6px; align-items: baseline; flex-wrap: wrap; }
.saxon-shore .ss-player h3 .seat { color: var(--seat); }
.saxon-shore .ss-player .who { font-weight: 400; color: #2a2620; }
.saxon-shore .ss-player .act { font-size: 0.7rem; background: #b98a1b; color: white; border-radius: 8px; padding: 0 6px; }
.saxon-shore .ss-player p { margin: 2px 0; }
.saxon-shore .ss-res { display: flex; flex-wrap: wrap; gap: 3px 8px; margin: 3px 0; }
.saxon-shore .ss-res span { white-space: nowrap; }
.saxon-shore .ss-res .sw { display: inline-block; width: 9px; height: 9px; border: 1px solid #555; border-radius: 2px; margin-right: 3px; vertical-align: -1px; }
.saxon-shore .ss-res .none { color: #a59a86; }
.saxon-shore .muted { color: #7a7062; }
.saxon-shore .ss-key { font-size: 0.75rem; color: #5d5548; border-top: 1px solid #e6dfcf; padding-top: 4px; }
.saxon-shore .ss-key summary { cursor: pointer; }
.saxon-shore .ss-key svg { vertical-align: -2px; }
.saxon-shore .ss-key ul { list-style: none; margin: 2px 0; padding: 0; display: flex; flex-wrap: wrap; gap: 2px 10px; }
svg.saxon-shore-map text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; fill: #2a2620; }
svg.saxon-shore-map .pname { font-size: 12.5px; font-weight: 700; }
svg.saxon-shore-map .wname { font-size: 10.5px; font-weight: 700; fill: #4d473d; }
svg.saxon-shore-map .terrain { font-size: 9px; font-style: italic; fill: #5d5548; }
svg.saxon-shore-map .pop { font-size: 10px; fill: #7a7062; }
svg.saxon-shore-map .letter { font-size: 10.5px; font-weight: 800; fill: white; }
svg.saxon-shore-map .count { font-size: 11.5px; font-weight: 700; }
svg.saxon-shore-map .sea-name { font-size: 13.5px; font-weight: 700; font-style: italic; fill: #1f4f7a; }
svg.saxon-shore-map .storm-text { font-size: 10px; font-weight: 700; fill: white; }
svg.saxon-shore-map .ravage-n { font-size: 9px; font-weight: 700; fill: #b3261e; }
svg.saxon-shore-map .empty { font-size: 9px; fill: #8d8473; font-style: italic; }
@media (max-width: 600px) {
  svg.saxon-shore-map .pname { font-size: 14.5px; }
  svg.saxon-shore-map .wname { font-size: 13px; }
  svg.saxon-shore-map .sea-name { font-size: 15px; }
}
`;

function ensureStyle() {
  if (typeof document === "undefined" || document.getElementById(STYLE_ID)) return;
  const style = document.createElement("style");
  style.id = STYLE_ID;
  style.textContent = STYLE;
  document.head.append(style);
}

/** Each seat's colours, by its place among the view's players. */
function palette(view) {
  const seats = Object.keys(view.players || {});
  const out = {};
  seats.forEach((seat, i) => { out[seat] = { strong: COLOURS[i % COLOURS.length], soft: SOFT[i % SOFT.length] }; });
  return out;
}

/** Units grouped by owner and kind: [{owner, kind, count, quality}] in a stable order. */
function groups(units, firstOwner, seats) {
  const found = new Map();
  for (const u of units || []) {
    const owner = u.owner || "neutral";
    const key = `${owner}/${u.kind}`;
    const g = found.get(key) || { owner, kind: u.kind, count: 0, quality: 0 };
    g.count += 1;
    if (u.kind === "king") g.quality = u.quality || 0;
    found.set(key, g);
  }
  const ownerRank = (o) => (o === firstOwner ? -1 : o === "neutral" ? 99 : seats.indexOf(o));
  const kindRank = (k) => { const i = KINDS.indexOf(k); return i < 0 ? KINDS.length : i; };
  return [...found.values()].sort((a, b) => ownerRank(a.owner) - ownerRank(b.owner) || kindRank(a.kind) - kindRank(b.kind));
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

function chipLabel(g) {
  return g.kind === "king" ? (g.quality ? signed(g.quality) : "") : g.count > 1 ? String(g.count) : "";
}

/** A chip's width: the disc, then its label. */
function chipWidth(g) {
  const label = chipLabel(g);
  return 20 + (label ? 3 + 6.6 * label.length : 0);
}

/** One troop counter: a disc in the owner's colour with the kind's letter, and the count. */
function chip(g, x, y, colours) {
  const fill = g.owner === "neutral" ? NEUTRAL : (colours[g.owner] || {}).strong || NEUTRAL;
  const label = chipLabel(g);
  const name = `${g.owner === "neutral" ? "neutral" : g.owner} ${KIND_NAME[g.kind] || g.kind}${g.count > 1 ? ` ×${g.count}` : ""}`
    + (g.kind === "king" && g.quality ? ` (${signed(g.quality)})` : "");
  return tag("g", { class: `troop kind-${g.kind}`, "data-owner": g.owner, "data-kind": g.kind, "data-count": g.count },
    tag("title", {}, esc(name)),
    g.kind === "king" ? tag("circle", { cx: x + 9, cy: y, r: 10.5, fill: "#f0c419", stroke: "#7a5b00", "stroke-width": 1 }) : "",
    g.kind === "boat"
      ? tag("path", { d: `M${x} ${y - 5}H${x + 18}L${x + 14.5} ${y + 7}H${x + 3.5}Z`, fill, stroke: "#2a2620", "stroke-width": 0.8 })
      : tag("circle", { cx: x + 9, cy: y, r: 8.5, fill, stroke: "#2a2620", "stroke-width": 0.8 }),
    text(x + 9, y + (g.kind === "boat" ? 3.2 : 3.6), LETTER[g.kind] || "?", { class: "letter", "text-anchor": "middle" }),
    label ? text(x + 21, y + 4.5, label, { class: "count" }) : "");
}

/** Chips left to right from (x, y), wrapping at ``width``; returns markup and the rows used. */
function chips(list, x, y, width, colours, rowH = 20) {
  const out = [];
  let cx = x, row = 0;
  for (const g of list) {
    const w = chipWidth(g);
    if (cx > x && cx + w > x + width) { cx = x; row += 1; }
    out.push(chip(g, cx, y + row * rowH, colours));
    cx += w + 2;
  }
  return { svg: out.join(""), rows: list.length ? row + 1 : 0 };
}

function icon(name, x, y, fill, scale = 1, title = null) {
  return tag("path", { d: ICON[name], transform: `translate(${x} ${y}) scale(${scale})`, fill, class: `icon icon-${name}` },
    title ? tag("title", {}, esc(title)) : "");
}

function seaColour(zone) {
  const i = Object.keys(LAYOUT.sea_zones).indexOf(zone);
  return i < 0 ? "#6d93b3" : SEA_COLOURS[i % SEA_COLOURS.length];
}

function provinceCard(name, p, pos, ctx) {
  const { colours, seats, battle, prompt } = ctx;
  const x = pos.x - PW / 2, y = pos.y - PH / 2;
  const own = p.owner ? colours[p.owner] || { strong: NEUTRAL, soft: "#eee" } : null;
  const fighting = battle && battle.prov === name;
  const asked = prompt && prompt.prov === name;
  const parts = [];
  parts.push(tag("rect", {
    x, y, width: PW, height: PH, rx: 6, class: "card",
    fill: own ? own.soft : "#fbf7ec", stroke: fighting ? "#c62828" : own ? own.strong : "#a89c84",
    "stroke-width": fighting ? 3 : own ? 2.2 : 1.2, "stroke-dasharray": fighting ? "5 3" : null,
  }));
  if (asked && !fighting) parts.push(tag("rect", { x: x - 3, y: y - 3, width: PW + 6, height: PH + 6, rx: 8, fill: "none", stroke: "#b98a1b", "stroke-width": 2.5 }));
  parts.push(text(x + 5, y + 14, name, { class: "pname" }));
  if (p.castle) parts.push(icon("castle", x + PW - 16, y + 3, own ? own.strong : NEUTRAL, 1.1, `castle of ${p.owner}`));
  // Markers: improvements, morale, ravage; on the right the population and what it produces.
  let mx = x + 5;
  const my = y + 20;
  for (const imp of IMPROVEMENTS) {
    if (!p.improvements.includes(imp)) continue;
    parts.push(tag("g", { class: `improvement improvement-${imp}`, "data-improvement": imp },
      tag("rect", { x: mx - 1, y: my - 1, width: 12, height: 12, rx: 2, fill: "white", stroke: "#8c806a", "stroke-width": 0.6 }),
      icon(imp, mx, my, imp === "monastery" ? "#6a3d9a" : imp === "city" ? "#9a5b12" : "#4d473d", 1, imp)));
    mx += 14;
  }
  if (p.morale !== "normal") {
    const up = p.morale === "high";
    parts.push(tag("path", {
      d: up ? `M${mx} ${my + 10}L${mx + 5.5} ${my}L${mx + 11} ${my + 10}Z` : `M${mx} ${my}L${mx + 5.5} ${my + 10}L${mx + 11} ${my}Z`,
      fill: up ? "#2e7d32" : "#c62828", class: `morale morale-${p.morale}`,
    }, tag("title", {}, esc(`${p.morale} morale`))));
    mx += 14;
  }
  if (p.ravage) {
    parts.push(tag("g", { class: "ravage", "data-ravage": p.ravage }, icon("ravage", mx, my, "#d84315", 1, `ravaged ×${p.ravage}`),
      p.ravage > 1 ? text(mx + 11, my + 9, p.ravage, { class: "ravage-n" }) : ""));
    mx += p.ravage > 1 ? 20 : 13;
  }
  if (p.trade) {
    parts.push(tag("rect", { x: mx, y: my + 1, width: 9, height: 9, rx: 4.5, fill: RESOURCE_COLOUR[p.trade.resource] || "#ccc",
      stroke: (colours[p.trade.seat] || {}).strong || NEUTRAL, "stroke-width": 2, class: "trade" },
    tag("title", {}, esc(`${p.trade.seat} offers ${p.trade.resource} for trade here`))));
  }
  let rx = x + PW - 5;
  parts.push(text(rx, y + 29.5, `${p.population}`, { class: "pop", "text-anchor": "end" }));
  rx -= 8;
  for (const r of [...p.produces].reverse()) {
    rx -= 9;
    parts.push(tag("rect", { x: rx, y: y + 22, width: 8, height: 8, rx: 1.5, fill: RESOURCE_COLOUR[r] || "#ccc", stroke: "#4d473d",
      "stroke-width": 0.6, class: "produces", "data-resource": r }, tag("title", {}, esc(`produces ${r}`))));
  }
  const list = groups(p.troops, p.owner, seats);
  const c = chips(list, x + 4, y + 44, PW - 6, colours);
  parts.push(c.svg);
  const height = Math.max(PH, 44 + c.rows * 20 - 9);
  if (height > PH) parts[0] = parts[0].replace(`height="${PH}"`, `height="${height}"`);
  // The coasts: a bar along the card's foot in each sea zone's colour.
  const coasts = pos.coasts || [];
  coasts.forEach((zone, i) => {
    const w = (PW - 12) / coasts.length;
    parts.push(tag("rect", { x: x + 6 + i * w + (i ? 1 : 0), y: y + height - 5, width: w - (coasts.length > 1 ? 1 : 0), height: 3, rx: 1.5,
      fill: seaColour(zone), class: "coast", "data-coast": zone }, tag("title", {}, esc(`coast: ${zone}`))));
  });
  return tag("g", {
    class: `province${p.owner ? " owned" : " neutral"}${fighting ? " battle" : ""}`, "data-province": name, "data-owner": p.owner || "",
    "data-castle": p.castle ? "yes" : "no", "data-morale": p.morale, "data-ravage": p.ravage,
    "data-improvements": p.improvements.join(","), "data-troops": p.troops.length,
  }, tag("title", {}, esc(`${name}: ${p.owner ? `held by ${p.owner}` : "neutral"}, population ${p.population}, capacity ${p.capacity}`
    + (p.produces.length ? `, produces ${p.produces.join(" and ")}` : "")
    + (pos.coasts && pos.coasts.length ? `; coast: ${pos.coasts.join(", ")}` : "; inland"))), parts);
}

function wildCard(name, w) {
  const x = w.x - WW / 2, y = w.y - WH / 2;
  const coasts = w.coasts || [];
  // A coastal wild province: boats pass along its coast but cannot end there (§7).
  const bars = coasts.map((zone, i) => {
    const bw = (WW - 12) / coasts.length;
    return tag("rect", { x: x + 6 + i * bw + (i ? 1 : 0), y: y + WH - 5, width: bw - (coasts.length > 1 ? 1 : 0), height: 3, rx: 1.5,
      fill: seaColour(zone), class: "coast" });
  });
  return tag("g", { class: "wild", "data-wild": name, "data-terrain": w.terrain, "data-coasts": coasts.join(",") },
    tag("title", {}, esc(`${name}: wild ${w.terrain} — troops pass with ${w.terrain} paths`
      + (coasts.length ? `; coast: ${coasts.join(", ")} (boats pass, never stop)` : ""))),
    tag("rect", { x, y, width: WW, height: WH, rx: 12, fill: "url(#ss-wild)", stroke: "#8f8778", "stroke-width": 1, "stroke-dasharray": "3 2" }),
    text(w.x, y + 14, name, { class: "wname", "text-anchor": "middle" }),
    text(w.x, y + 27, `wild ${w.terrain}`, { class: "terrain", "text-anchor": "middle" }), ...bars);
}

function seaBox(name, zone, pos, colours, seats) {
  const list = groups(zone.units, null, seats);
  const w = 116;
  const rows = Math.max(1, chips(list, 0, 0, w - 10, colours).rows);
  const h = 28 + rows * 20;
  const x = pos.x - w / 2, y = pos.y - 24;
  const c = chips(list, x + 5, y + 32, w - 10, colours);
  const colour = seaColour(name);
  return tag("g", { class: `sea${zone.storm ? " storm" : ""}`, "data-sea": name, "data-storm": zone.storm ? "yes" : "no", "data-units": zone.units.length },
    tag("rect", { x, y, width: w, height: h, rx: 8, fill: "#f2f7fb", stroke: colour, "stroke-width": zone.storm ? 3 : 1.6,
      "stroke-dasharray": zone.storm ? "6 3" : null }),
    tag("rect", { x: x + 6, y: y + 19, width: 30, height: 3, rx: 1.5, fill: colour }),
    text(x + 7, y + 15, name, { class: "sea-name", fill: colour, style: `fill:${colour}` }),
    zone.storm ? tag("g", { class: "storm-badge" }, tag("rect", { x: x + w - 46, y: y + 20, width: 42, height: 14, rx: 7, fill: "#1f4f7a" }),
      text(x + w - 25, y + 30.5, "STORM", { class: "storm-text", "text-anchor": "middle" })) : "",
    list.length ? c.svg : text(x + 7, y + 34, "no boats", { class: "empty" }));
}

function mapSvg(view, ctx, version) {
  const [W, H] = LAYOUT.size;
  const at = (name) => LAYOUT.provinces[name] || LAYOUT.wild_provinces[name];
  const out = [];
  out.push(tag("defs", {},
    tag("pattern", { id: "ss-wild", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      tag("rect", { width: 6, height: 6, fill: "#ddd6c7" }), tag("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#b9b09d", "stroke-width": 2.5 }))));
  out.push(tag("rect", { x: 0, y: 0, width: W, height: H, fill: "#d8e7f1", class: "sea-bg" }));
  // Land: thick strokes along every land border and a disc at every province, in one colour.
  const land = [];
  for (const [a, b] of LAYOUT.borders) {
    const pa = at(a), pb = at(b);
    land.push(`M${pa.x} ${pa.y}L${pb.x} ${pb.y}`);
  }
  out.push(tag("path", { d: land.join(""), stroke: "#efe6cf", "stroke-width": 96, "stroke-linecap": "round", fill: "none", class: "land" }));
  for (const name of [...Object.keys(LAYOUT.provinces), ...Object.keys(LAYOUT.wild_provinces)]) {
    const p = at(name);
    out.push(tag("circle", { cx: p.x, cy: p.y, r: 54, fill: "#efe6cf", class: "land" }));
  }
  // Borders, by type.
  for (const [a, b, kind] of LAYOUT.borders) {
    const pa = at(a), pb = at(b), s = BORDER[kind] || BORDER.normal;
    out.push(tag("line", {
      x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y, stroke: s.stroke, "stroke-width": s.width, "stroke-dasharray": s.dash,
      "stroke-linecap": kind === "marsh" ? "round" : null, class: `border border-${kind}`, "data-border": `${a}|${b}`, "data-type": kind,
    }));
  }
  out.push(tag("g", { class: "overlay-slot" })); // the viewer's marks: above the land, beneath every card
  for (const [name, w] of Object.entries(LAYOUT.wild_provinces)) out.push(wildCard(name, w));
  for (const [name, pos] of Object.entries(LAYOUT.provinces)) {
    const p = view.provinces[name];
    if (p) out.push(provinceCard(name, p, pos, ctx));
  }
  for (const [name, pos] of Object.entries(LAYOUT.sea_zones)) {
    const zone = (view.sea_zones || {})[name];
    if (zone) out.push(seaBox(name, zone, pos, ctx.colours, ctx.seats));
  }
  const z = ctx.zoom;
  return `<svg class="saxon-shore-map" viewBox="${z.x} ${z.y} ${z.w} ${z.h}" width="100%" role="img" preserveAspectRatio="xMidYMid meet"
    aria-label="Saxon Shore map at version ${esc(version)}">${out.join("")}</svg>`;
}

function playerCard(seat, pl, view, ctx) {
  const colour = (ctx.colours[seat] || {}).strong || NEUTRAL;
  const who = ctx.game && ctx.game.seats && ctx.game.seats[seat] ? ctx.game.seats[seat].player : "";
  const toAct = (view.to_act || []).includes(seat);
  const res = Object.entries(pl.resources).map(([r, n]) => `<span class="res${n ? "" : " none"}" data-res="${esc(r)}" data-count="${esc(n)}">`
    + `<i class="sw" style="background:${RESOURCE_COLOUR[r] || "#ccc"}"></i>${esc(r)} <b>${esc(n)}</b></span>`).join("");
  const paths = Object.entries(pl.paths || {}).filter(([, n]) => n).map(([t, n]) => `${esc(t)} ${esc(n)}`).join(", ");
  const king = pl.king
    ? `King in <b>${esc(pl.king.province)}</b>${pl.king.quality ? ` (${esc(signed(pl.king.quality))})` : ""}`
    : `<span class="muted">no king on the map</span>`;
  return `<section class="ss-player${toAct ? " to-act" : ""}${pl.alive ? "" : " dead"}" style="--seat:${colour}" data-player="${esc(seat)}"`
    + ` data-alive="${pl.alive ? "yes" : "no"}" data-religion="${esc(pl.religion)}" data-provinces="${esc(pl.provinces)}"`
    + ` data-boats="${esc(pl.boats)}" data-king-province="${esc(pl.king ? pl.king.province : "")}"`
    + ` data-king-quality="${esc(pl.king ? pl.king.quality : "")}">`
    + `<h3><span class="seat">${esc(seat)}</span><span class="who">${esc(who)}</span>${toAct ? '<span class="act">to act</span>' : ""}`
    + `${pl.alive ? "" : '<span class="muted">eliminated</span>'}</h3>`
    + `<p>${esc(titleCase(pl.religion))} · <span class="provinces">${esc(pl.provinces)} province${pl.provinces === 1 ? "" : "s"}</span>`
    + ` · <span class="boats">${esc(pl.boats)} boat${pl.boats === 1 ? "" : "s"}</span></p>`
    + `<p class="king">${king}</p>`
    + `<div class="ss-res">${res}</div>`
    + (paths ? `<p class="paths">Paths: ${paths}</p>` : "")
    + (pl.cards && pl.cards.length ? `<p class="cards">Cards: ${pl.cards.map((c) => esc(titleCase(c))).join(", ")}</p>` : "")
    + "</section>";
}

function keySvg(kind) {
  const s = BORDER[kind];
  return `<svg width="26" height="8" aria-hidden="true"><line x1="1" y1="4" x2="25" y2="4" stroke="${s.stroke}" stroke-width="${s.width}"`
    + `${s.dash ? ` stroke-dasharray="${s.dash}"` : ""}${kind === "marsh" ? ' stroke-linecap="round"' : ""}/></svg>`;
}

function iconSvg(name) {
  return `<svg width="11" height="11" viewBox="0 0 12 12" aria-hidden="true"><path d="${ICON[name]}" fill="#4d473d"/></svg>`;
}

function key() {
  return `<details class="ss-key" open><summary>Key</summary>`
    + `<ul>${Object.keys(BORDER).map((k) => `<li>${keySvg(k)} ${esc(k)}</li>`).join("")}</ul>`
    + `<ul>${KINDS.map((k) => `<li><b>${esc(LETTER[k])}</b> ${esc(KIND_NAME[k] || k)}</li>`).join("")}</ul>`
    + `<ul>${[...IMPROVEMENTS, "castle", "ravage"].map((k) => `<li>${iconSvg(k)} ${esc(k)}</li>`).join("")}`
    + `<li><span style="color:#2e7d32">▲</span>/<span style="color:#c62828">▼</span> morale</li><li>n population</li></ul>`
    + `<ul>${Object.keys(LAYOUT.sea_zones).map((z) => `<li><svg width="18" height="6" aria-hidden="true"><rect width="18" height="4" y="1" rx="2" fill="${seaColour(z)}"/></svg> coast: ${esc(z)}</li>`).join("")}</ul>`
    + `<p style="margin:2px 0">A hand-made schematic layout, not the printed map.</p></details>`;
}

function head(view, ctx) {
  const bits = [`<b>Turn ${esc(view.turn)}</b>${view.options && view.options.turn_limit ? ` of ${esc(view.options.turn_limit)}` : ""}`,
    `${esc(titleCase(view.phase || ""))}${view.stage ? ` (stage ${esc(view.stage)})` : ""}`];
  const who = (seat) => esc(playerName(ctx.game, seat)); // players by name, not seats
  if (view.order && view.order.length) bits.push(`order ${view.order.map(who).join(" → ")}`);
  const p = view.prompt;
  if (p) {
    const what = p.kind === "phase" ? `${(p.args || [])[0] || ""} phase` : `${p.kind}${p.prov ? ` in ${p.prov}` : ""}`;
    bits.push(`<span class="ss-to-act"><b style="color:${(ctx.colours[p.seat] || {}).strong || NEUTRAL}">${who(p.seat)}</b> to act: ${esc(what)}</span>`);
  }
  const b = view.battle;
  if (b) bits.push(`<span class="ss-battle" data-battle="${esc(b.prov)}">Battle in ${esc(b.prov)}: ${who(b.attacker)} against ${b.defender ? who(b.defender) : "the neutral defenders"}${b.round ? `, round ${esc(b.round)}` : ""}</span>`);
  const storms = Object.entries(view.sea_zones || {}).filter(([, z]) => z.storm).map(([n]) => n);
  if (storms.length) bits.push(`<span class="ss-storm">Storm: ${storms.map(esc).join(", ")}</span>`);
  // the end is said once, by the page's banner above the board (game.js, drawResult)
  return `<div class="ss-head">${bits.map((x) => `<span>${x}</span>`).join("")}</div>`;
}

// Zoom and pan: the map's viewBox, kept per board element across steps (a new step redraws
// the board, the reader's view of the map stays where it was).
const ZOOMS = new WeakMap();
const MIN_W = 180;

function zoomOf(target) {
  const [W, H] = LAYOUT.size;
  if (!ZOOMS.has(target)) ZOOMS.set(target, { x: 0, y: 0, w: W, h: H });
  return ZOOMS.get(target);
}

function setZoom(target, z) {
  const [W, H] = LAYOUT.size;
  const w = Math.max(MIN_W, Math.min(W, z.w)), h = (w / W) * H;
  const next = { w, h, x: Math.max(0, Math.min(W - w, z.x)), y: Math.max(0, Math.min(H - h, z.y)) };
  ZOOMS.set(target, next);
  const svg = target.querySelector("svg.saxon-shore-map");
  if (svg) {
    svg.setAttribute("viewBox", `${next.x} ${next.y} ${next.w} ${next.h}`);
    svg.dataset.zoom = (W / next.w).toFixed(2);
    target.querySelector(".ss-zoom-level").textContent = `${Math.round((100 * W) / next.w)}%`;
    document.dispatchEvent(new CustomEvent("herald:board-moved"));
  }
}

/** Zoom by ``factor`` about the map point (cx, cy) (the centre when not given). */
function zoomBy(target, factor, cx = null, cy = null) {
  const z = zoomOf(target);
  const px = cx ?? z.x + z.w / 2, py = cy ?? z.y + z.h / 2;
  const w = z.w / factor, h = z.h / factor;
  setZoom(target, { x: px - (px - z.x) * (w / z.w), y: py - (py - z.y) * (h / z.h), w, h });
}

function mapPoint(svg, clientX, clientY) {
  const m = svg.getScreenCTM();
  if (!m) return [null, null];
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return [p.x, p.y];
}

function wireZoom(target) {
  if (target.dataset.zoomWired) return;
  target.dataset.zoomWired = "yes";
  target.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-zoom-action]");
    if (!b) return;
    const act = b.dataset.zoomAction;
    if (act === "in") zoomBy(target, 1.5);
    else if (act === "out") zoomBy(target, 1 / 1.5);
    else setZoom(target, { x: 0, y: 0, w: LAYOUT.size[0], h: LAYOUT.size[1] });
  });
  target.addEventListener("wheel", (ev) => {
    const svg = ev.target.closest("svg.saxon-shore-map");
    if (!svg) return;
    ev.preventDefault();
    const [x, y] = mapPoint(svg, ev.clientX, ev.clientY);
    zoomBy(target, ev.deltaY < 0 ? 1.25 : 1 / 1.25, x, y);
  }, { passive: false });
  let drag = null;
  target.addEventListener("pointerdown", (ev) => {
    const svg = ev.target.closest("svg.saxon-shore-map");
    if (!svg || ev.button !== 0) return;
    drag = { id: ev.pointerId, x: ev.clientX, y: ev.clientY, z: { ...zoomOf(target) }, scale: zoomOf(target).w / svg.getBoundingClientRect().width };
    svg.setPointerCapture(ev.pointerId);
    svg.classList.add("dragging");
  });
  target.addEventListener("pointermove", (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    setZoom(target, { ...drag.z, x: drag.z.x - (ev.clientX - drag.x) * drag.scale, y: drag.z.y - (ev.clientY - drag.y) * drag.scale });
  });
  const end = (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    drag = null;
    const svg = target.querySelector("svg.saxon-shore-map");
    if (svg) svg.classList.remove("dragging");
  };
  target.addEventListener("pointerup", end);
  target.addEventListener("pointercancel", end);
  document.addEventListener("keydown", (ev) => {
    if (!target.isConnected || !target.querySelector("svg.saxon-shore-map")) return;
    const t = ev.target;
    if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName)) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "+" || ev.key === "=") zoomBy(target, 1.5);
    else if (ev.key === "-" || ev.key === "_") zoomBy(target, 1 / 1.5);
    else if (ev.key === "0") setZoom(target, { x: 0, y: 0, w: LAYOUT.size[0], h: LAYOUT.size[1] });
  });
}

export function render(target, ctx) {
  ensureStyle();
  wireZoom(target);
  const view = ctx.view;
  const seats = Object.keys(view.players || {});
  const zoom = zoomOf(target);
  const draw = { colours: palette(view), seats, battle: view.battle, prompt: view.prompt, game: ctx.game, zoom };
  const players = seats.map((seat) => playerCard(seat, view.players[seat], view, draw)).join("");
  target.innerHTML = `<div class="saxon-shore board" data-renderer="saxon-shore" data-version="${esc(ctx.version)}">`
    + head(view, draw)
    + `<div class="ss-map"><div class="ss-zoom" role="group" aria-label="Zoom the map">`
    + `<button type="button" data-zoom-action="in" title="Zoom in (+)" aria-label="Zoom in">+</button>`
    + `<button type="button" data-zoom-action="out" title="Zoom out (-)" aria-label="Zoom out">−</button>`
    + `<button type="button" data-zoom-action="reset" title="The whole map (0)" aria-label="The whole map">⤢</button>`
    + `<span class="ss-zoom-level">${Math.round((100 * LAYOUT.size[0]) / zoom.w)}%</span>`
    + `<span class="muted">drag to pan · wheel to zoom</span></div>${mapSvg(view, draw, ctx.version)}</div>`
    + `<aside class="ss-side"><div class="ss-players">${players}</div>${key()}</aside></div>`;
}

export { LAYOUT as layout };
