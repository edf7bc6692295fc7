// Marks drawn on a rule system's board: the last move's pieces ringed, arrows for moves and
// attacks, study annotations' arrows and circles. A board names its places and pieces with
// data attributes (data-banner, data-province, data-sea, … or data-anchor); a mark finds
// them there, so a renderer added later gets marks by naming its elements, nothing more.
//
// The marks go into the board's own SVG, BENEATH its cards and pieces (in the renderer's
// <g class="overlay-slot">, or as the first thing drawn): a ring shows around a card, an
// arrow runs between cards, and no mark ever hides a lance or a troop.
import { SVG_NS } from "./dom.js";

const ANCHOR_ATTRS = ["anchor", "banner", "province", "wild", "sea", "army", "seat", "player", "place"];

/** The board elements named ``name`` (exact, then case-insensitive), or null. */
export function findAnchor(board, name) {
  if (typeof name !== "string" || !name || name.length > 80) return null;
  const quoted = name.replace(/["\\]/g, "\\$&");
  for (const key of ANCHOR_ATTRS) {
    const hit = board.querySelector(`svg [data-${key}="${quoted}"]`);
    if (hit && !hit.closest(".overlay")) return hit;
  }
  const lower = name.toLowerCase();
  for (const key of ANCHOR_ATTRS) {
    for (const el of board.querySelectorAll(`svg [data-${key}]`)) {
      if (el.dataset[key].toLowerCase() === lower && !el.closest(".overlay")) return el;
    }
  }
  return null;
}

/** An element's box in its outermost SVG's user units: {x, y, w, h, svg}. */
function boxOf(el) {
  let svg = el.ownerSVGElement;
  while (svg && svg.ownerSVGElement) svg = svg.ownerSVGElement;
  if (!svg || typeof el.getBBox !== "function") return null;
  let b;
  try { b = el.getBBox(); } catch { return null; }
  if (!b || (b.width === 0 && b.height === 0)) return null;
  const m = svg.getCTM() && el.getCTM() ? svg.getCTM().inverse().multiply(el.getCTM()) : null;
  const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
    .map(([x, y]) => (m ? [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f] : [x, y]));
  const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y, svg };
}

/** Where the segment from the centre of ``box`` towards (tx, ty) leaves the box (+ margin). */
function edge(box, tx, ty, margin) {
  const cx = box.x + box.w / 2, cy = box.y + box.h / 2;
  const dx = tx - cx, dy = ty - cy;
  const hw = box.w / 2 + margin, hh = box.h / 2 + margin;
  const t = Math.min(dx ? hw / Math.abs(dx) : Infinity, dy ? hh / Math.abs(dy) : Infinity, 1);
  return [cx + dx * t, cy + dy * t];
}

function el(name, attributes) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attributes)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  return node;
}

/** The overlay group of one SVG, created empty in the renderer's slot (or first). */
function layer(svg) {
  let g = svg.querySelector(":scope g.overlay");
  if (g) return g;
  g = el("g", { class: "overlay", "pointer-events": "none" });
  const slot = svg.querySelector("g.overlay-slot");
  if (slot) slot.append(g);
  else {
    const defs = svg.querySelector(":scope > defs");
    const bg = svg.querySelector(":scope > .board-bg");
    const after = bg || defs;
    if (after) after.after(g); else svg.prepend(g);
  }
  if (!svg.querySelector(":scope > defs.overlay-defs")) {
    const defs = el("defs", { class: "overlay-defs" });
    for (const kind of ["move", "attack", "note"]) {
      const marker = el("marker", { id: `ov-head-${kind}`, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5,
        markerHeight: 5, orient: "auto-start-reverse", class: `ov-head ov-${kind}` });
      marker.append(el("path", { d: "M0 0L10 5L0 10Z" }));
      defs.append(marker);
    }
    svg.prepend(defs);
  }
  return g;
}

/** Remove every mark from a board. */
export function clear(board) {
  for (const g of board.querySelectorAll("g.overlay")) g.remove();
}

/**
 * Draw marks on ``board``: ``marks`` is a list of
 *   {kind: "ring"|"halo"|"circle", at: name, label?}
 *   {kind: "arrow", from: name, to: name, style: "move"|"attack"|"note", label?}
 * Returns what was drawn: [{mark, drawn: bool}] (a name the board does not show is skipped).
 */
export function draw(board, marks) {
  clear(board);
  const done = [];
  for (const mark of marks) {
    if (mark.kind === "arrow") {
      const a = findAnchor(board, mark.from), b = findAnchor(board, mark.to);
      const ba = a && boxOf(a), bb = b && boxOf(b);
      if (!ba || !bb || ba.svg !== bb.svg || a === b) { done.push({ mark, drawn: false }); continue; }
      const g = layer(ba.svg);
      const [x1, y1] = edge(ba, bb.x + bb.w / 2, bb.y + bb.h / 2, 3);
      const [x2, y2] = edge(bb, ba.x + ba.w / 2, ba.y + ba.h / 2, 4);
      const style = mark.style || "move";
      // A slight bend keeps an arrow off the straight line two cards' borders may already draw.
      const mx = (x1 + x2) / 2 - (y2 - y1) * 0.12, my = (y1 + y2) / 2 + (x2 - x1) * 0.12;
      const path = el("path", { d: `M${x1} ${y1}Q${mx} ${my} ${x2} ${y2}`, class: `ov-arrow ov-${style}`,
        "marker-end": `url(#ov-head-${style})`, "data-from": mark.from, "data-to": mark.to, "data-style": style });
      if (mark.label) path.append(Object.assign(el("title", {}), { textContent: mark.label }));
      g.append(path);
      done.push({ mark, drawn: true });
    } else {
      const a = findAnchor(board, mark.at);
      const box = a && boxOf(a);
      if (!box) { done.push({ mark, drawn: false }); continue; }
      const g = layer(box.svg);
      const pad = mark.kind === "halo" ? 5 : 4;
      const shape = mark.kind === "circle"
        ? el("ellipse", { cx: box.x + box.w / 2, cy: box.y + box.h / 2, rx: box.w / 2 * 1.2 + pad, ry: box.h / 2 * 1.25 + pad,
          class: "ov-circle", "data-at": mark.at })
        : el("rect", { x: box.x - pad, y: box.y - pad, width: box.w + 2 * pad, height: box.h + 2 * pad, rx: 8,
          class: `ov-${mark.kind}`, "data-at": mark.at });
      if (mark.label) shape.append(Object.assign(el("title", {}), { textContent: mark.label }));
      g.append(shape);
      done.push({ mark, drawn: true });
    }
  }
  return done;
}
