// Day of Battle, First Crusade: the table to scale (units at the positions the players declared,
// each army's rear edge at its own side), the armies with their leaders and every unit's state,
// and each exchange of fire as it was resolved: who fired in which order, the combat value and
// each modifier, the target number, every die (hits marked) and the damage. Drawn only from the
// rule system's view JSON and the events read with the same token.
import { esc, tag, text } from "../dom.js";

const PAD = 8;
const P = "day-of-battle.";

function tableXY(army, unit, widthIn) {
  // table inches from the south-west corner; a north army's left flank is the table's east
  return army.edge === "south" ? [unit.x, unit.y] : [widthIn - unit.x, 48 - unit.y];
}

function tableView(view, x0, y0, w) {
  const widthIn = view.table.width_feet * 12;
  const scale = w / widthIn;
  const h = 48 * scale;
  const parts = [tag("rect", { x: x0, y: y0, width: w, height: h, class: "dob-table", rx: 4 }),
    text(x0 + 4, y0 + h - 4, `${view.table.width_feet}' × ${view.table.depth_feet}'`, { class: "tiny" })];
  for (const army of view.armies) {
    for (const u of army.units) {
      if (u.x === null || u.condition === "lost") continue;
      const [tx, ty] = tableXY(army, u, widthIn);
      const cx = x0 + tx * scale, cy = y0 + (48 - ty) * scale;
      parts.push(tag("g", { class: `dob-unit ${army.edge} ${u.condition}`, "data-unit": u.id },
        tag("title", {}, `${u.name}: ${u.cos} Cos., ${u.condition}`),
        tag("rect", { x: cx - 7, y: cy - 3, width: 14, height: 6, class: `stand ${army.edge}` })));
    }
  }
  return [tag("g", { class: "dob-table-view" }, parts), h];
}

function armyPanel(army, x, y, w, toAct) {
  const lines = [text(x + 4, y + 14, `${army.name} (${army.seat}) · ${army.kind} · ${army.army_points}`
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

function volleyRow(v, x, y) {
  const mods = v.modifiers.map((m) => (m.halve ? `½ ${m.reason}` : `${m.add >= 0 ? "+" : ""}${m.add} ${m.reason}`)).join(", ");
  const dice = v.faces.map((f, i) => tag("g", { class: `die${f <= v.target_number ? " hit" : ""}` },
    tag("rect", { x: x + 8 + i * 20, y: y + 20, width: 17, height: 15, rx: 3 }),
    text(x + 16 + i * 20, y + 31, String(f), { class: "tiny", "text-anchor": "middle" })));
  return tag("g", { class: "dob-volley", "data-order": v.order, "data-firer": v.firer, "data-target": v.target,
    "data-target-number": v.target_number, "data-faces": v.faces.join(" "), "data-hits": v.hits, "data-damage": v.damage,
    "data-dice": v.dice },
    text(x + 4, y + 12, `${v.order}. ${v.firer} → ${v.target}: ${v.weapon} (ROF ${v.rate_of_fire}), ${v.range_inches}" `
      + `${v.range_band}; CV ${v.combat_value} ${mods} = ${v.target_number}; ${v.dice} dice${v.half_dice ? " (half)" : ""}`
      + ` → ${v.hits} hit${v.hits === 1 ? "" : "s"}, ${v.damage}${v.figures_lost ? `, ${v.figures_lost} fig.` : ""}`
      + `${v.disordered ? ", disordered" : ""}${v.reaction ? " (reaction)" : ""}`, { class: "tiny" }), dice);
}

export function render(target, ctx) {
  const view = ctx.view;
  const narrow = ctx.width < 700;
  const W = narrow ? 390 : 1016;
  const out = [text(PAD, PAD + 14, "Day of Battle: The First Crusade", { class: "title" })];
  const status = view.outcome ? "battle over" : view.phase === "battle"
    ? `move ${view.move}: ${view.mover} to move` : view.phase;
  out.push(text(narrow ? PAD : W - PAD, narrow ? PAD + 32 : PAD + 14,
    `${status} · deck ${view.deck.left}/${view.deck.size}, ${view.deck.shuffles} shuffle${view.deck.shuffles === 1 ? "" : "s"}`,
    { class: "counts", "text-anchor": narrow ? "start" : "end" }));
  let y = PAD + (narrow ? 44 : 28);
  if (view.outcome) {
    const o = view.outcome;
    out.push(tag("rect", { x: PAD, y, width: W - 2 * PAD, height: 24, rx: 5, class: "ended-band" }));
    out.push(text(W / 2, y + 16, `${o.draw ? "A draw" : `${o.winner} win`}: ${o.reason}`.slice(0, narrow ? 58 : 150),
      { class: "ended-text", "text-anchor": "middle", "data-outcome": o.winner || "draw" }));
    y += 32;
  }
  const [table, th] = tableView(view, PAD, y, W - 2 * PAD);
  out.push(table);
  y += th + PAD;
  for (const army of view.armies) {
    const [panel, h] = armyPanel(army, PAD, y, W - 2 * PAD, ctx.toAct || []);
    out.push(panel);
    y += h + PAD;
  }
  const list = exchanges(ctx.events || []);
  if (list.length) {
    out.push(text(PAD, y + 12, "Exchanges of fire", { class: "small strong" }));
    y += 18;
  }
  for (const ex of list) {
    const rows = [];
    let ry = y + 14;
    for (const v of ex.volleys) {
      rows.push(volleyRow(v, PAD, ry));
      ry += 40;
    }
    for (const a of ex.after) {
      const line = a.type === "MoraleChecked"
        ? `${a.unit} morale check: ${a.roll} against ${a.target_number}, ${a.passed ? "holds" : "routs"}`
        : `${a.leader} distracted (+${a.modifier} on his next initiative die)`;
      rows.push(text(PAD + 8, ry + 4, line, { class: "tiny" }));
      ry += 14;
    }
    out.push(tag("g", { class: "dob-exchange", "data-exchange": ex.n },
      tag("rect", { x: PAD, y, width: W - 2 * PAD, height: ry - y, rx: 4, class: "army-frame" }),
      text(PAD + 4, y + 11, `Exchange ${ex.n}: ${ex.declared.firer} fires on ${ex.declared.target}`, { class: "tiny strong" }),
      rows));
    y = ry + PAD;
  }
  target.innerHTML = `<svg class="board dob" data-renderer="day-of-battle" viewBox="0 0 ${W} ${Math.ceil(y + PAD)}"
    width="100%" role="img" aria-label="${esc("Day of Battle")} at version ${esc(ctx.version)}">${out.join("")}</svg>`;
}
