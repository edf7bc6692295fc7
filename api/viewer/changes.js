// What changed at a step, read generically from the record and the views (no rule system's
// internals): the decision the step belongs to and the dice it rolled, the difference between
// the board before and after, the pieces that moved (objects with an ``id`` that stand under
// another named place), and the places and pieces the decision's command names.

const ATTACK = /attack|assault|charge|melee|loose|shoot|battle|raid|siege|fight|sack|storm|ambush|volley/i;
const MAX_ROWS = 80;

/** The step's decision group: the version of the decision at or before ``version`` (1 when
 * none) and the versions of its events up to ``version``. */
export function groupOf(events, version) {
  let start = version;
  while (start > 1 && events[start - 1] && events[start - 1].type !== "DecisionTaken") start -= 1;
  const decision = events[start - 1] && events[start - 1].type === "DecisionTaken" ? events[start - 1] : null;
  return { start, decision, events: events.slice(start - 1, version) };
}

/** The dice rolled in the step's group, up to this step: [{version, kind, faces, purpose, forced}]. */
export function diceOf(group) {
  return group.events.filter((e) => (e.type === "DiceRolled" || e.type === "DiceForced") && e.data && Array.isArray(e.data.faces))
    .map((e) => ({ version: e.version, kind: e.data.kind, faces: e.data.faces, purpose: e.data.purpose, forced: e.type === "DiceForced" }));
}

function isObject(x) { return x !== null && typeof x === "object" && !Array.isArray(x); }

/** A list's items keyed by their id (or name) when every item has one, else null. */
function keyed(list) {
  if (!list.length || !list.every((x) => isObject(x) && (typeof x.id === "string" || typeof x.id === "number" || typeof x.name === "string"))) return null;
  const out = new Map();
  for (const x of list) out.set(String(x.id ?? x.name), x);
  return out.size === list.length ? out : null;
}

/** The differences between two views: [{path: [keys], names: [words], before, after}] (leaves, at
 * most MAX_ROWS); ``names`` says each key as a reader would: an item with an id by its name. */
export function diff(before, after) {
  const rows = [];
  const walk = (a, b, path, names) => {
    if (rows.length >= MAX_ROWS) return;
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    if (isObject(a) && isObject(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], [...path, k], [...names, k]);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const ka = keyed(a), kb = keyed(b);
      if (ka && kb) {
        for (const k of new Set([...ka.keys(), ...kb.keys()])) {
          const item = ka.get(k) || kb.get(k);
          walk(ka.get(k), kb.get(k), [...path, k], [...names, typeof item.name === "string" ? item.name : k]);
        }
        return;
      }
      if (a.length === b.length && a.every(isObject)) {
        a.forEach((x, i) => walk(x, b[i], [...path, i], [...names, i]));
        return;
      }
    }
    rows.push({ path, names, before: a, after: b });
  };
  walk(before, after, [], []);
  return rows;
}

/** A value in words: "none", "yes"/"no", lists joined, an object's fields as "name value". */
export function words(value, who = (seat) => seat) {
  if (value === undefined || value === null) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return who(value);
  if (Array.isArray(value)) return value.length ? value.map((x) => words(x, who)).join(", ") : "nothing";
  const fields = Object.entries(value);
  return fields.length ? fields.map(([k, v]) => `${k.replace(/_/g, " ")} ${words(v, who)}`).join("; ") : "nothing";
}

/** One diff row: ``where``, its path as the view names it ("provinces › Kent › owner", kept to
 * find it again), and in words: ``place`` ("provinces › Kent › owner", seats as their players),
 * ``before`` and ``after`` ("none" → "Ada"). ``who(seat)`` names a seat's player. */
export function describe(row, who = (seat) => seat) {
  const place = (row.names || row.path).map((k) => (typeof k === "number" ? `#${k + 1}` : who(String(k)).replace(/_/g, " "))).join(" › ");
  const clip = (s) => (s.length > 80 ? `${s.slice(0, 77)}…` : s);
  return { where: row.path.join(" › "), place, before: clip(words(row.before, who)), after: clip(words(row.after, who)) };
}

/** Where each identified piece stands: id -> the name of the keyed place holding it. */
function placesOf(view) {
  const out = new Map();
  const walk = (node, place) => {
    if (Array.isArray(node)) { for (const x of node) walk(x, place); return; }
    if (!isObject(node)) return;
    if ((typeof node.id === "number" || typeof node.id === "string") && place !== null && typeof node.kind === "string") out.set(String(node.id), place);
    for (const [k, v] of Object.entries(node)) {
      if (isObject(v) || Array.isArray(v)) walk(v, isObject(node) && !("id" in node) && isObject(v) ? k : place);
    }
  };
  walk(view, null);
  return out;
}

/** Pieces that stand under another named place than before: [{from, to, count}]. */
export function moves(before, after) {
  if (!before || !after) return [];
  const was = placesOf(before), now = placesOf(after);
  const counted = new Map();
  for (const [id, to] of now) {
    const from = was.get(id);
    if (from && from !== to) {
      const key = `${from}\u0000${to}`;
      counted.set(key, (counted.get(key) || 0) + 1);
    }
  }
  return [...counted].map(([key, count]) => { const [from, to] = key.split("\u0000"); return { from, to, count }; });
}

/** The names a command gives, in its own field order (strings, and strings in lists). */
export function namesIn(command) {
  const out = [];
  const walk = (v) => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.entries(v).forEach(([k, x]) => { if (k !== "type") walk(x); });
  };
  walk(command || {});
  return out;
}

/** Is this command an attack, by its own words (its type or any of its values)? */
export function isAttack(command) {
  return ATTACK.test([command && command.type, ...namesIn(command)].join(" "));
}

/** The top-level places and pieces whose part of the view changed (provinces › Kent → "Kent"). */
export function changedNames(rows) {
  const out = new Set();
  for (const r of rows) {
    for (const k of r.path.slice(1, 3)) if (typeof k === "string") out.add(k);
  }
  return [...out];
}
