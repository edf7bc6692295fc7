// Saladin (Hattin, Arsuf): both armies' banner cards, each lance location filled or empty,
// the Losses Tracks, the three Order pools per side, the Fire and Shield wall markers,
// Lusignan on the Horns, Arsuf's garrison and who holds which captured banner — as SVG,
// drawn only from the rule system's view JSON.
import { esc, tag, text, titleCase } from "../dom.js";

const SIDES = ["ayyubids", "crusaders"]; // Ayyubids across the top, Crusaders facing them below
const NAMES = { crusaders: "Crusaders", ayyubids: "Ayyubids" };
const MARKERS = { fire: "Fire", "shield-wall": "Shield wall" };
const PAD = 8;
const TOKEN = 14;

/** Blocks of fixed size placed left to right, wrapping at the board's width. */
function flow(blocks, x0, y0, width, gap = PAD) {
  const parts = [];
  let x = x0, y = y0, rowH = 0;
  for (const b of blocks) {
    if (x > x0 && x + b.w > x0 + width) { x = x0; y += rowH + gap; rowH = 0; }
    parts.push(b.draw(x, y));
    x += b.w + gap;
    rowH = Math.max(rowH, b.h);
  }
  return { svg: parts.join(""), height: y - y0 + rowH };
}

function orderPool(side, pool, label, count, slashed) {
  const perRow = 7;
  const rows = Math.max(1, Math.ceil(count / perRow));
  const w = PAD * 2 + perRow * TOKEN, h = 22 + Math.max(2, rows) * TOKEN;
  return {
    w, h, draw: (x, y) => {
      const tokens = [];
      for (let i = 0; i < count; i++) {
        const cx = x + PAD + (i % perRow) * TOKEN + TOKEN / 2, cy = y + 24 + Math.floor(i / perRow) * TOKEN + TOKEN / 2 - 2;
        tokens.push(tag("g", { class: `order-token ${pool}` },
          tag("circle", { cx, cy, r: TOKEN / 2 - 1.5 }),
          slashed ? tag("line", { x1: cx - 4, y1: cy + 4, x2: cx + 4, y2: cy - 4 }) : ""));
      }
      return tag("g", { class: `pool pool-${pool}`, "data-side": side, "data-pool": pool, "data-count": count },
        tag("rect", { x, y, width: w, height: h, rx: 5, class: "pool-frame" }),
        text(x + PAD, y + 15, `${label} ${count}`, { class: "small strong" }), tokens);
    },
  };
}

function lossesTrack(side, s) {
  const w = PAD * 2 + 6 * 16, h = 22 + 2 * TOKEN;
  return {
    w, h, draw: (x, y) => {
      const slots = [];
      for (let i = 0; i < 6; i++) {
        const filled = i < s.losses_track;
        slots.push(tag("circle", { cx: x + PAD + 8 + i * 16, cy: y + 33, r: 6.5, class: `loss ${filled ? "filled" : "empty"}` }));
      }
      return tag("g", { class: "losses", "data-side": side, "data-count": s.losses_track },
        tag("rect", { x, y, width: w, height: h, rx: 5, class: "pool-frame" }),
        text(x + PAD, y + 15, `Losses ${s.losses_track}/6`, { class: "small strong" }), slots,
        s.lances_boxed ? text(x + w - PAD, y + h - 3, `${s.lances_boxed} in box`, { class: "small muted", "text-anchor": "end" }) : "");
    },
  };
}

function leaderCard(side, s) {
  const w = 150, h = 22 + 2 * TOKEN;
  const ordered = s.leader.card_side === "ordered";
  return {
    w, h, draw: (x, y) => tag("g", { class: `leader ${side}${ordered ? " ordered" : ""}`, "data-side": side, "data-card-side": s.leader.card_side },
      tag("rect", { x, y, width: w, height: h, rx: 5, class: "card-bg" }),
      text(x + PAD, y + 15, s.leader.name.slice(0, 24), { class: "small strong" }),
      text(x + PAD, y + 33, `Leader · ${ordered ? "Ordered" : "Deployed"}`, { class: "small card-side" }),
      s.leader.used.length ? text(x + PAD, y + 45, `used: ${s.leader.used.join(", ")}`.slice(0, 26), { class: "tiny muted" }) : ""),
  };
}

function captured(side, s, names) {
  // Up to four captured banners by name, in two columns; any more as "+n".
  const w = 176, h = 22 + 2 * TOKEN, shown = s.captured_banners.slice(0, 4), more = s.captured_banners.length - shown.length;
  const enemy = side === "crusaders" ? "ayyubids" : "crusaders";
  return {
    w, h, draw: (x, y) => tag("g", { class: "captured", "data-side": side, "data-count": s.captured_banners.length },
      tag("rect", { x, y, width: w, height: h, rx: 5, class: "pool-frame" }),
      text(x + PAD, y + 15, `Captured banners ${s.captured_banners.length}`, { class: "small strong" }),
      shown.length
        ? shown.map((id, i) => {
          const cx = x + PAD + (i >> 1) * 80, cy = y + 21 + (i % 2) * 13;
          return tag("g", { class: "captured-banner", "data-banner": id },
            tag("rect", { x: cx, y: cy, width: 10, height: 10, class: `flag ${enemy}` }),
            text(cx + 14, cy + 9, (names[id] || id).slice(0, 11), { class: "tiny" }));
        }).join("") + (more > 0 ? text(x + w - PAD, y + 15, `+${more}`, { class: "tiny", "text-anchor": "end" }) : "")
        : text(x + PAD, y + 34, "none", { class: "tiny muted" })),
  };
}

function sideName(side, game) {
  const info = game && game.seats && game.seats[side];
  const player = info && (typeof info === "string" ? info : info.player);
  return `${NAMES[side] || titleCase(side)}${player ? ` (${player})` : ""}`;
}

function sideBlock(side, s, view, names, width, game) {
  const blocks = [
    leaderCard(side, s),
    orderPool(side, "available", "Available", s.orders.available, false),
    orderPool(side, "spent", "Spent", s.orders.spent, true),
    orderPool(side, "box", "Box", s.orders.box, false),
  ];
  if (s.orders.in_arsuf) blocks.push(orderPool(side, "in-arsuf", "In Arsuf", s.orders.in_arsuf, false));
  blocks.push(lossesTrack(side, s), captured(side, s, names));
  const toAct = view.to_act === side;
  const head = text(PAD, 15, `${sideName(side, game)}${toAct ? " — to act" : ""}${s.passed ? " — passed" : ""}`
    + (view.initiative === side ? " · initiative" : ""), { class: `side-title ${side}` });
  const body = flow(blocks, PAD, 24, width - 2 * PAD);
  return { svg: head + body.svg, height: 24 + body.height };
}

const STRIP = 20;
const ICONS = {
  "shield-wall": "M6 0L12 2V6C12 9 9 11.5 6 12C3 11.5 0 9 0 6V2Z",
  fire: "M6 0C7 3 11 5 10 9C9.5 11 8 12 6 12C4 12 2.5 11 2 9C1.5 7 3 5.5 4 4C4 6 5 7 6 7C6 5 5 3 6 0Z",
};

function icon(marker, x, y) {
  return tag("path", { d: ICONS[marker] || "M0 0H12V12H0Z", transform: `translate(${x} ${y})`, class: `icon icon-${marker}` });
}

function bannerCard(b, w, markers, faceUp, names) {
  // The strip on the edge facing the enemy (bottom for the Ayyubids, top for the Crusaders)
  // carries the markers in front of the banner's lances and whom it is engaged with.
  const locations = Object.keys(b.lances);
  const trackN = b.track.length;
  const slot = Math.min(18, (w - 2 * PAD - 70) / trackN);
  const h = 62 + locations.length * 26 + STRIP;
  const inPlay = b.fate === "in-play";
  const ordered = b.card_side === "ordered";
  const own = Object.entries(markers).filter(([, banner]) => banner === b.id).map(([marker]) => marker);
  return {
    w, h, draw: (x, y) => {
      const top = y + (faceUp ? 0 : STRIP);
      const stripY = faceUp ? y + h - STRIP - 1 : y + 21;
      const rows = locations.map((loc, i) => {
        const ly = top + 54 + i * 26;
        const here = b.lances[loc] > 0;
        const circles = b.track.map((t, k) => {
          const cx = x + PAD + 70 + k * slot + slot / 2;
          const filled = here && t.lance;
          return tag("g", { class: "slot" },
            tag("circle", { cx, cy: ly, r: Math.min(7, slot / 2 - 1), class: `lance ${filled ? "filled" : "empty"} ${b.side}`, "data-location": loc }),
            t.marker && i === 0 ? text(cx, ly - 9, t.marker === "give" ? "▾" : t.marker, { class: "tiny track-marker", "text-anchor": "middle" }) : "");
        }).join("");
        return tag("g", { class: `location${here ? " occupied" : ""}`, "data-location": loc, "data-lances": b.lances[loc] },
          text(x + PAD, ly + 4, titleCase(loc), { class: "tiny loc-name" }), circles);
      }).join("");
      const badges = own.map((marker, i) => {
        const bw = 78, bx = x + w - PAD - bw - i * (bw + 4);
        return tag("g", { class: `marker marker-${marker}`, "data-marker": marker },
          tag("rect", { x: bx, y: stripY + 1, width: bw, height: STRIP - 4, rx: 8 }),
          icon(marker, bx + 5, stripY + 3),
          text(bx + 20, stripY + 13, MARKERS[marker] || titleCase(marker), { class: "tiny strong" }));
      }).join("");
      const foes = b.engaged || [];
      const engaged = foes.length
        ? text(x + PAD, stripY + 13, `melee: ${foes.map((f) => names[f] || f).join(", ")}`.slice(0, own.length ? Math.floor((w - 100) / 5) : 40),
          { class: "tiny engaged", "data-engaged": foes.join(" ") })
        : "";
      // A banner out of play says so on a badge in its edge strip: nothing is laid over its
      // lance locations, which stay readable (issue 19: overlays never hide the lances).
      const fate = inPlay ? "" : tag("g", { class: "fate", "data-fate": b.fate },
        tag("rect", { x: x + w - PAD - 92, y: stripY + 2, width: 92, height: STRIP - 5, rx: 7, class: "fate-veil" }),
        text(x + w - PAD - 46, stripY + 13, b.fate.replace("-", " ").toUpperCase(), { class: "fate-text", "text-anchor": "middle" }));
      return tag("g", {
        class: `banner ${b.side}${ordered ? " ordered" : ""}`, "data-banner": b.id, "data-side": b.side,
        "data-card-side": b.card_side, "data-status": b.status, "data-fate": b.fate,
      },
      tag("rect", { x, y, width: w, height: h, rx: 6, class: "card-bg" }),
      tag("rect", { x, y, width: w, height: 20, rx: 6, class: "card-head" }),
      text(x + PAD, y + 14, b.name.slice(0, 18), { class: "small strong card-name" }),
      text(x + w - PAD, y + 14, ordered ? "Ordered" : "Deployed", { class: "tiny card-side", "text-anchor": "end" }),
      tag("line", { x1: x + 4, x2: x + w - 4, y1: faceUp ? stripY : stripY + STRIP, y2: faceUp ? stripY : stripY + STRIP, class: "strip-line" }),
      text(x + PAD, top + 32, titleCase(b.status), { class: `tiny status status-${b.status}` }),
      b.surcharge ? text(x + w - PAD, top + 32, `+${b.surcharge} Order${b.surcharge > 1 ? "s" : ""}`,
        { class: "tiny surcharge", "text-anchor": "end" }) : "",
      rows, engaged, badges, fate);
    },
  };
}

function centre(view, banners, width, game) {
  const parts = [];
  const blocks = [];
  const line = [`Turn ${view.turn}`, titleCase(view.phase)];
  if (view.to_act) line.push(`${NAMES[view.to_act] || view.to_act} to act`);
  if (view.initiative) line.push(`initiative: ${NAMES[view.initiative] || view.initiative}`);
  if (view.arsuf_lances !== null && view.arsuf_lances !== undefined) {
    blocks.push({
      w: 150, h: 40, draw: (x, y) => tag("g", { class: "arsuf", "data-lances": view.arsuf_lances, "data-anchor": "arsuf" },
        tag("rect", { x, y, width: 150, height: 40, rx: 6, class: "place" }),
        text(x + PAD, y + 15, "Arsuf", { class: "small strong" }),
        [0, 1].map((i) => tag("circle", { cx: x + PAD + 8 + i * 18, cy: y + 28, r: 7,
          class: `lance ${i < view.arsuf_lances ? "filled" : "empty"} ayyubids`, "data-location": "arsuf" })).join(""),
        text(x + 56, y + 32, `${view.arsuf_lances} Ayyubid lance${view.arsuf_lances === 1 ? "" : "s"}`, { class: "tiny" })),
    });
  }
  const lusignan = banners.find((b) => b.id === "lusignan" && "horns" in b.lances);
  if (lusignan || view.horns) {
    blocks.push({
      w: 180, h: 40, draw: (x, y) => tag("g", { class: `horns${view.horns ? " occupied" : ""}`, "data-horns": view.horns ? "yes" : "no", "data-anchor": "horns" },
        tag("rect", { x, y, width: 180, height: 40, rx: 6, class: "place" }),
        text(x + PAD, y + 15, "Horns of Hattin", { class: "small strong" }),
        text(x + PAD, y + 32, view.horns ? "Lusignan holds the Horns" : view.horns_required ? "Lusignan must move (fewer than 5 Orders)" : "Lusignan in camp",
          { class: `tiny${view.horns ? " strong" : ""}` })),
    });
  }
  for (const [marker, banner] of Object.entries(view.markers || {})) {
    const name = (banners.find((b) => b.id === banner) || {}).name || banner;
    blocks.push({
      w: 160, h: 40, draw: (x, y) => tag("g", { class: `marker-place marker-${marker}`, "data-marker": marker, "data-banner": banner },
        tag("rect", { x, y, width: 160, height: 40, rx: 6, class: "place" }),
        icon(marker, x + PAD, y + 5),
        text(x + PAD + 16, y + 15, MARKERS[marker] || titleCase(marker), { class: "small strong" }),
        text(x + PAD, y + 32, `in front of ${name}`.slice(0, 26), { class: "tiny" })),
    });
  }
  if (view.pending) {
    const p = view.pending;
    blocks.push({
      w: 220, h: 40, draw: (x, y) => tag("g", { class: "pending" },
        tag("rect", { x, y, width: 220, height: 40, rx: 6, class: "place pending-box" }),
        text(x + PAD, y + 15, `${(banners.find((b) => b.id === p.banner) || {}).name || p.banner}: ${titleCase(p.action)}`.slice(0, 32), { class: "small strong" }),
        text(x + PAD, y + 32, `${p.target ? `at ${(banners.find((b) => b.id === p.target) || {}).name || p.target} — ` : ""}reaction?`.slice(0, 34), { class: "tiny" })),
    });
  }
  let height = 24;
  if (line.join(" · ").length * 7 > width - 2 * PAD) {
    parts.push(text(PAD, 16, line.slice(0, 2).join(" · "), { class: "subtitle" }));
    parts.push(text(PAD, 34, line.slice(2).join(" · "), { class: "subtitle" }));
    height += 18;
  } else {
    parts.push(text(PAD, 16, line.join(" · "), { class: "subtitle" }));
  }
  // the end is said once, by the page's banner above the board (game.js, drawResult)
  if (blocks.length) {
    const f = flow(blocks, PAD, height, width - 2 * PAD);
    parts.push(f.svg);
    height += f.height + PAD;
  }
  return { svg: parts.join(""), height };
}

export function render(target, ctx) {
  const view = ctx.view;
  const narrow = ctx.width < 700;
  const cols = narrow ? 2 : 6;
  const W = narrow ? 390 : 1016;
  const cw = (W - PAD * (cols + 1)) / cols;
  const names = Object.fromEntries(view.banners.map((b) => [b.id, b.name]));
  const out = [];
  let y = PAD;

  const title = `Saladin — ${titleCase(view.scenario)}`;
  out.push(text(PAD, y + 14, title, { class: "title" }));
  out.push(text(W - PAD, y + 14, `turn ${view.turn}`, { class: "counts", "text-anchor": "end" }));
  y += 24;
  // Which card data the game plays with (GameCreated.data_hash): the reconstruction, or the owner's own cards.
  const data = view.card_data;
  if (data) {
    const options = Object.entries(data.options || {}).map(([k, v]) => `${k}: ${v}`).join(", ");
    const label = `cards: ${data.source === "owner" ? "the owner's own" : "Herald's reconstruction"} · ${String(data.data_hash).slice(0, 12)}`
      + (options ? ` · ${options}` : "");
    out.push(text(PAD, y + 6, label.slice(0, narrow ? 60 : 140),
      { class: "tiny muted card-data", "data-source": data.source, "data-hash": data.data_hash }));
    y += 14;
  }

  const bannerRows = (side, faceUp) => {
    const cards = view.banners.filter((b) => b.side === side).map((b) => bannerCard(b, cw, view.markers || {}, faceUp, names));
    const f = flow(cards, PAD, y + 6, W - 2 * PAD);
    out.push(tag("g", { class: `army ${side}`, "data-side": side }, f.svg));
    y += f.height + 12;
  };
  const sideRow = (side) => {
    const block = sideBlock(side, view.sides[side], view, names, W, ctx.game);
    out.push(tag("g", { class: `side ${side}`, transform: `translate(0 ${y})` },
      tag("rect", { x: 2, y: 0, width: W - 4, height: block.height + 6, rx: 8, class: `side-band ${side}` }), block.svg));
    y += block.height + 12;
  };

  sideRow("ayyubids");
  bannerRows("ayyubids", true);
  const mid = centre(view, view.banners, W, ctx.game);
  out.push(tag("g", { class: "field-line", transform: `translate(0 ${y})` },
    tag("line", { x1: PAD, y1: 0, x2: W - PAD, y2: 0, class: "front" }), mid.svg));
  y += mid.height + 6;
  bannerRows("crusaders", false);
  sideRow("crusaders");

  target.innerHTML = `<svg class="board saladin" data-renderer="saladin" viewBox="0 0 ${W} ${Math.ceil(y)}" width="100%" role="img"
    aria-label="${esc(title)} at version ${esc(ctx.version)}">${out.join("")}</svg>`;
}
