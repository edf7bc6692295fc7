// Small helpers shared by the viewer's modules: escaping, SVG building, fetch with problems.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** Escape text for HTML and SVG markup. */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** An attribute string from an object; null/undefined/false values are left out. */
export function attrs(obj) {
  return Object.entries(obj)
    .filter(([, v]) => v !== null && v !== undefined && v !== false)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join("");
}

/** An SVG element as markup: tag(name, attributes, ...children markup). */
export function tag(name, attributes = {}, ...children) {
  const inner = children.flat().filter((c) => c !== null && c !== undefined && c !== false).join("");
  return `<${name}${attrs(attributes)}>${inner}</${name}>`;
}

/** An SVG text element with escaped content. */
export function text(x, y, content, attributes = {}) {
  return `<text${attrs({ x, y, ...attributes })}>${esc(content)}</text>`;
}

/** A problem+json (or any failed response) as an Error carrying status and detail. */
export class ApiError extends Error {
  constructor(status, detail, body) {
    super(detail || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** fetch + JSON, throwing ApiError with the problem's detail when the answer is not 2xx. */
export async function getJSON(url, { token = null, method = "GET", body = undefined, raw = false, encoding = null } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (encoding) headers["Content-Encoding"] = encoding;
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : raw ? body : JSON.stringify(body) });
  let parsed = null;
  const textBody = await response.text();
  try { parsed = textBody ? JSON.parse(textBody) : null; } catch { parsed = null; }
  if (!response.ok) {
    const detail = parsed && (parsed.detail || parsed.title) ? parsed.detail || parsed.title : textBody.slice(0, 200);
    throw new ApiError(response.status, detail, parsed);
  }
  return parsed;
}

// The player in ``seat`` ("Ada"), from the game's seats; the seat's id when it names no player.
export function playerName(game, seat) {
  const info = game && game.seats && game.seats[seat];
  return info && info.player ? info.player : String(seat ?? "");
}

// A board's width: the phone layout (390) below 700 pixels of page, else the desktop one (1016).
export function boardWidth(ctx) {
  const narrow = ctx.width < 700;
  return { narrow, W: narrow ? 390 : 1016 };
}

// The one seat whose hidden cards this view shows (the reader's own), else null: a spectator's
// view shows none, and once the seed is revealed every seat's are shown, nobody's in particular.
export function ownSeat(seats, shows) {
  const shown = seats.filter(shows);
  return shown.length === 1 ? shown[0] : null;
}

/** Human title case for ids that are proper names, like "henry-ii" or "ala_afdal" (never for a
 * rule system's or scenario's title: those are said as the rule system writes them). */
export function titleCase(id) {
  return String(id ?? "").replace(/[-_]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

/** An id said as words, its first letter capital only: "end-of-turn" -> "End of turn". */
export function sentence(id) {
  const words = String(id ?? "").replace(/[-_]+/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

let systems = null;
/** The rule systems as they name themselves (GET /rules), by id; asked once a page ({} when
 * the server does not answer). */
export function ruleSystems() {
  if (!systems) {
    systems = getJSON("/rules").then((found) => Object.fromEntries(found.rules.map((r) => [r.id, r]))).catch(() => ({}));
  }
  return systems;
}

/** A rule system's own name: its title up to a colon ("Saxon Shore"); its id without one. */
export function systemName(id, info) {
  return info ? info.title.split(":")[0].trim() : String(id ?? "");
}

/** A scenario's own title ("The Battle of Arsuf — 1191"); its id when the rule system is unknown. */
export function scenarioName(id, info) {
  const found = info && (info.scenarios || []).find((x) => x.id === id);
  return found ? found.title : String(id ?? "");
}

/** "Saladin — The Battle of Arsuf — 1191": a game named as its rule system and scenario name
 * themselves (a scenario titled with the rule system's name stands alone, up to a colon). */
export function gameTitle(rules, scenario, info) {
  const name = systemName(rules, info);
  const titled = scenarioName(scenario, info);
  if (!info) return scenario ? `${name} — ${titled}` : name;
  if (info.scenarios.length === 1 && titled.startsWith(name)) return titled.split(":")[0].trim();
  return titled.startsWith(name) ? titled : `${name} — ${titled}`;
}
