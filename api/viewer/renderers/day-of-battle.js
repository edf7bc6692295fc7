// Day of Battle, First Crusade: the table to scale (units at the positions the players declared,
// each army's rear edge at its own side, each unit labelled with its name and Cos. and facing the
// enemy's edge; the current game move's charges and volleys as arrows, the last exchange ringed), the armies with their leaders and every unit's state,
// and each exchange of fire as it was resolved: who fired in which order, the combat value and
// each modifier, the target number, every die (hits marked) and the damage. Drawn only from the
// rule system's view JSON and the events read with the same token.
import { boardWidth, esc, playerName, tag, text } from "../dom.js";

const PAD = 8;
const P = "day-of-battle.";

function tableXY(edge, x, y, widthIn) {
  // table inches from the south-west corner; a north army's left flank is the table's east
  return edge === "south" ? [x, y] : [widthIn - x, 48 - y];
}

const MOVED = { UnitDeployed: "unit", UnitMoved: "unit", FellBack: "unit", Evaded: "unit", HorseHoldersPlaced: "unit" };

/** Where every unit stood, event by event (positions in its army's frame), and what the current
 * game move did: charges and volleys as arrows (from where each unit stood then), and the last
 * exchange (a volley's or a combat's units) to ring. */
function battleMarks(view, events) {
  const edges = Object.fromEntries(view.armies.map((a) => [a.seat, a.edge]));
  const widthIn = view.table.width_feet * 12;
  const at = new Map();
  const where = (unit) => {
    const p = at.get(unit);
    return p ? tableXY(edges[unit.split("/")[0]], p[0], p[1], widthIn) : null;
  };
  let arrows = [], last = null;
  for (const e of events) {
    const d = e.data || {};
    if (d.sealed || !e.type.startsWith(P)) continue;
    const kind = e.type.slice(P.length);
    if (kind === "MoveBegan") { arrows = []; continue; }
    if (MOVED[kind] && d.x !== null && d.x !== undefined) { at.set(d.unit, [d.x, d.y]); continue; }
    if (kind === "ChargeDeclared") {
      const from = where(d.charger), to = where(d.target);  // from where the charger stood, at its target
      if (d.x !== null && d.x !== undefined) at.set(d.charger, [d.x, d.y]);
      if (from && to) arrows.push({ kind: "charge", from, to, units: [d.charger, d.target], v: e.version });
    } else if (kind === "VolleyFired") {
      const from = where(d.firer), to = where(d.target);
      if (from && to) arrows.push({ kind: "volley", from, to, units: [d.firer, d.target], v: e.version });
      last = { kind: "volley", units: [d.firer, d.target], v: e.version };
    } else if (kind === "CombatJoined") {
      last = { kind: "combat", units: [d.charger, d.target], v: e.version };
    }
  }
  return { arrows, last };
}

function shortName(name) {
  return name.length > 16 ? `${name.slice(0, 15)}…` : name;
}

function tableView(view, x0, y0, w, marks) {
  const widthIn = view.table.width_feet * 12;
  const scale = w / widthIn;
  const h = 48 * scale;
  const px = ([tx, ty]) => [x0 + tx * scale, y0 + (48 - ty) * scale];
  const parts = [tag("rect", { x: x0, y: y0, width: w, height: h, class: "dob-table", rx: 4 }),
    text(x0 + 4, y0 + h - 4, `${view.table.width_feet}' × ${view.table.depth_feet}'`, { class: "tiny" })];
  const centre = new Map();
  for (const army of view.armies) {
    const facing = army.edge === "south" ? "north" : "south";  // each army faces the enemy's edge
    for (const u of army.units) {
      if (u.x === null || u.condition === "lost") continue;
      const [cx, cy] = px(tableXY(army.edge, u.x, u.y, widthIn));
      centre.set(u.id, [cx, cy]);
      const front = facing === "north" ? cy - 4 : cy + 4;
      const tip = facing === "north" ? front - 4 : front + 4;
      const label = `${shortName(u.name)} ${u.cos}`;
      parts.push(tag("g", { class: `dob-unit ${army.edge} ${u.condition}`, "data-unit": u.id, "data-facing": facing,
        "data-label": label, "data-strength": u.cos },
        tag("title", {}, `${u.name}: ${u.cos} Cos. (${u.figures} fig.), ${u.condition}, ${u.formation}, facing ${facing}`),
        tag("rect", { x: cx - 8, y: cy - 4, width: 16, height: 8, class: `stand ${army.edge}` }),
        tag("polygon", { points: `${cx - 4},${front} ${cx + 4},${front} ${cx},${tip}`, class: "facing" }),
        text(cx, facing === "north" ? cy + 12 : cy - 10, label, { class: "unit-label", "text-anchor": "middle" })));
    }
  }
  for (const a of marks.arrows) {
    const [fx, fy] = px(a.from), [tx, ty] = px(a.to);
    parts.push(tag("line", { x1: fx, y1: fy, x2: tx, y2: ty, class: `dob-arrow ${a.kind}`, "data-kind": a.kind,
      "data-from": a.units[0], "data-to": a.units[1], "marker-end": `url(#dob-head-${a.kind})` }));
  }
  if (marks.last) {
    for (const unit of marks.last.units) {
      const c = centre.get(unit);
      if (c) parts.push(tag("circle", { cx: c[0], cy: c[1], r: 14, class: "dob-last", "data-unit": unit,
        "data-kind": marks.last.kind }));
    }
  }
  const defs = tag("defs", {}, ["charge", "volley"].map((k) => tag("marker", { id: `dob-head-${k}`, viewBox: "0 0 10 10",
    refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" },
    tag("path", { d: "M 0 0 L 10 5 L 0 10 z", class: `head ${k}` }))));
  return [tag("g", { class: "dob-table-view" }, defs, parts), h];
}

function armyPanel(army, x, y, w, toAct, game) {
  const lines = [text(x + 4, y + 14, `${army.name} (${playerName(game, army.seat)}) · ${army.kind} · ${army.army_points}`
    + `${army.handicap ? `+${army.handicap}` : ""} points · honour ${army.honour}`,
    { class: `small strong${toAct.includes(army.seat) ? " to-act" : ""}` })];
  let cy = y + 30;
  for (const l of army.leaders) {
    const skills = l.initiative !== null && l.initiative !== undefined
      ? ` · initiative ${l.initiative}, morale ${l.morale}, ${l.motivation}${l.command_points ? `, ${l.command_points} command points` : ""}` : "";
    lines.push(tag("g", { class: "dob-leader", "data-leader": l.id, "data-rank": l.social_rank ?? "" },
      text(x + 8, cy, `${l.title || "?"} ${l.name}${l.social_rank !== null ? ` (rank ${l.social_rank})` : ""}`
        + ` · honour ${l.honour}${l.distraction ? ` · distracted +${l.distraction}` : ""}${skills}`, { class: "tiny" })));
    cy += 14;
  }
  for (const u of army.units) {
    const weapon = u.weapon ? ` · ${u.weapon} ROF ${u.rate_of_fire}` : "";
    lines.push(tag("g", { class: `dob-unit-row ${u.condition}`, "data-unit": u.id, "data-condition": u.condition,
      "data-cos": u.cos, "data-figures": u.figures },
      text(x + 8, cy, `${u.name}: ${u.cos} Cos. (${u.figures} fig.), CV ${u.combat_value}${weapon}`
        + `${u.note8 ? " · Note 8" : ""} · ${u.condition}, ${u.formation}${u.counts_as ? " · dismounted" : ""}`
        + `${u.half_dice_in_fight ? " · half dice" : ""}`, { class: "tiny" })));
    cy += 13;
  }
  return [tag("g", { class: "dob-army", "data-seat": army.seat },
    tag("rect", { x, y, width: w, height: cy - y + 2, rx: 5, class: "army-frame" }), lines), cy - y + 2];
}

function exchanges(events) {
  const out = new Map();
  for (const e of events) {
    const d = e.data || {};
    if (d.sealed) continue;
    if (e.type === P + "FireDeclared") out.set(d.exchange, { n: d.exchange, declared: d, volleys: [], after: [] });
    else if (e.type === P + "VolleyFired" && out.has(d.exchange)) out.get(d.exchange).volleys.push(d);
    else if ((e.type === P + "MoraleChecked" || e.type === P + "DistractionIncurred") && out.size) {
      [...out.values()].pop().after.push({ type: e.type.slice(P.length), ...d });
    }
  }
  return [...out.values()].filter((x) => x.volleys.length);
}

/** "crusaders/archers" -> "Archers (Ann)": a unit or leader by its profile's name and its player. */
function namer(view, game) {
  const names = new Map();
  for (const a of view.armies) for (const x of [...a.units, ...a.leaders]) names.set(x.id, x.name);
  return (ref) => {
    const seat = String(ref ?? "").split("/")[0];
    return `${names.get(ref) || String(ref ?? "").split("/").pop()} (${playerName(game, seat)})`;
  };
}

function volleyRow(v, x, y, named) {
  const mods = v.modifiers.map((m) => (m.halve ? `½ ${m.reason}` : `${m.add >= 0 ? "+" : ""}${m.add} ${m.reason}`)).join(", ");
  const dice = v.faces.map((f, i) => tag("g", { class: `die${f <= v.target_number ? " hit" : ""}` },
    tag("rect", { x: x + 8 + i * 20, y: y + 20, width: 17, height: 15, rx: 3 }),
    text(x + 16 + i * 20, y + 31, String(f), { class: "tiny", "text-anchor": "middle" })));
  return tag("g", { class: "dob-volley", "data-order": v.order, "data-firer": v.firer, "data-target": v.target,
    "data-target-number": v.target_number, "data-faces": v.faces.join(" "), "data-hits": v.hits, "data-damage": v.damage,
    "data-dice": v.dice },
    text(x + 4, y + 12, `${v.order}. ${named(v.firer)} → ${named(v.target)}: ${v.weapon} (ROF ${v.rate_of_fire}), ${v.range_inches}" `
      + `${v.range_band}; CV ${v.combat_value} ${mods} = ${v.target_number}; ${v.dice} dice${v.half_dice ? " (half)" : ""}`
      + ` → ${v.hits} hit${v.hits === 1 ? "" : "s"}, ${v.damage}${v.figures_lost ? `, ${v.figures_lost} fig.` : ""}`
      + `${v.disordered ? ", disordered" : ""}${v.reaction ? " (reaction)" : ""}`, { class: "tiny" }), dice);
}

export function render(target, ctx) {
  const view = ctx.view;
  const { narrow, W } = boardWidth(ctx);
  const out = [text(PAD, PAD + 14, "Day of Battle: The First Crusade", { class: "title" })];
  const status = view.outcome ? "battle over" : view.phase === "battle"
    ? `move ${view.move}: ${playerName(ctx.game, view.mover)} to move` : view.phase;
  out.push(text(narrow ? PAD : W - PAD, narrow ? PAD + 32 : PAD + 14,
    `${status} · deck ${view.deck.left}/${view.deck.size}, ${view.deck.shuffles} shuffle${view.deck.shuffles === 1 ? "" : "s"}`,
    { class: "counts", "text-anchor": narrow ? "start" : "end" }));
  let y = PAD + (narrow ? 44 : 28);
  // the end is said once, by the page's banner above the board (game.js, drawResult)
  const [table, th] = tableView(view, PAD, y, W - 2 * PAD, battleMarks(view, ctx.events || []));
  out.push(table);
  y += th + PAD;
  for (const army of view.armies) {
    const [panel, h] = armyPanel(army, PAD, y, W - 2 * PAD, ctx.toAct || [], ctx.game);
    out.push(panel);
    y += h + PAD;
  }
  const list = exchanges(ctx.events || []);
  const named = namer(view, ctx.game);
  if (list.length) {
    out.push(text(PAD, y + 12, "Exchanges of fire", { class: "small strong" }));
    y += 18;
  }
  for (const ex of list) {
    const rows = [];
    let ry = y + 14;
    for (const v of ex.volleys) {
      rows.push(volleyRow(v, PAD, ry, named));
      ry += 40;
    }
    for (const a of ex.after) {
      const line = a.type === "MoraleChecked"
        ? `${named(a.unit)} morale check: ${a.roll} against ${a.target_number}, ${a.passed ? "holds" : "routs"}`
        : `${named(a.leader)} distracted (+${a.modifier} on his next initiative die)`;
      rows.push(text(PAD + 8, ry + 4, line, { class: "tiny" }));
      ry += 14;
    }
    out.push(tag("g", { class: "dob-exchange", "data-exchange": ex.n },
      tag("rect", { x: PAD, y, width: W - 2 * PAD, height: ry - y, rx: 4, class: "army-frame" }),
      text(PAD + 4, y + 11, `Exchange ${ex.n}: ${named(ex.declared.firer)} fires on ${named(ex.declared.target)}`, { class: "tiny strong" }),
      rows));
    y = ry + PAD;
  }
  target.innerHTML = `<svg class="board dob" data-renderer="day-of-battle" viewBox="0 0 ${W} ${Math.ceil(y + PAD)}"
    width="100%" role="img" aria-label="${esc("Day of Battle")} at version ${esc(ctx.version)}">${out.join("")}</svg>`;
}
