// Dice drawn as die faces, never as bare numbers: pips for numbered dice up to 6, the
// Saladin combat die's strokes and slash, and the face's label on any other die.
import { attrs, esc } from "./dom.js";

const PIPS = {
  1: [[2, 2]],
  2: [[1, 1], [3, 3]],
  3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

/** The inside of one die face in a 0..24 box. */
function faceMarks(kind, face) {
  if (kind === "saladin-combat") {
    switch (face) {
      case "blank": return "";
      case "stroke": return '<line x1="12" y1="5" x2="12" y2="19" class="mark"/>';
      case "double": return '<line x1="9" y1="5" x2="9" y2="19" class="mark"/><line x1="15" y1="5" x2="15" y2="19" class="mark"/>';
      case "slash": return '<line x1="6" y1="18" x2="18" y2="6" class="mark slash"/>';
      default: break;
    }
  }
  const sides = /^d(\d+)$/.exec(kind || "");
  if (sides && Number(sides[1]) <= 6 && PIPS[face]) {
    return PIPS[face].map(([cx, cy]) => `<circle cx="${cx * 6}" cy="${cy * 6}" r="2.2" class="pip"/>`).join("");
  }
  const label = String(face);
  const size = label.length <= 2 ? 11 : label.length <= 3 ? 8 : 6;
  return `<text x="12" y="12" class="label" font-size="${size}" dominant-baseline="central" text-anchor="middle">${esc(label.slice(0, 6))}</text>`;
}

/** Markup for one die face placed at (x, y) inside an enclosing SVG, `size` wide. */
export function dieGroup(kind, face, x, y, size = 24) {
  const s = size / 24;
  return `<g${attrs({ class: `die die-${kind}`, "data-face": face, transform: `translate(${x} ${y}) scale(${s})` })}>`
    + `<title>${esc(kind)}: ${esc(face)}</title><rect x="0.5" y="0.5" width="23" height="23" rx="4" class="body"/>${faceMarks(kind, face)}</g>`;
}

/** A standalone inline SVG die (for the timeline). */
export function dieSVG(kind, face, size = 22) {
  return `<svg${attrs({ class: `die-svg die-${kind}`, viewBox: "0 0 24 24", width: size, height: size, role: "img", "aria-label": `${kind} ${face}`, "data-face": face })}>`
    + dieGroup(kind, face, 0, 0, 24).replace(/^<g/, "<g") + "</svg>";
}

/** Every die of a DiceRolled event, as inline SVGs. */
export function diceRow(data, size = 22) {
  return (data.faces || []).map((f) => dieSVG(data.kind, f, size)).join("");
}
