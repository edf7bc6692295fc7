// The fallback for any rule system without its own renderer: the structured view as a
// tree (objects and lists fold open and shut), so every game can be stepped through.
import { esc } from "../dom.js";

function node(key, value, depth) {
  const label = key === null ? "" : `<span class="key">${esc(key)}</span>: `;
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    const kind = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    const open = depth < 2 ? " open" : "";
    const children = entries.map(([k, v]) => `<li>${node(k, v, depth + 1)}</li>`).join("");
    return `<details${open}><summary>${label}<span class="kind">${kind}</span></summary><ul>${children}</ul></details>`;
  }
  const type = value === null ? "null" : typeof value;
  return `${label}<span class="value ${type}">${esc(JSON.stringify(value))}</span>`;
}

export function render(target, ctx) {
  target.innerHTML = `<div class="generic-view" data-renderer="generic"><p class="hint">No board renderer for
    <b>${esc(ctx.game.rules)}</b> yet: its view, as the API gives it.</p>${node(null, ctx.view, 0)}</div>`;
}
