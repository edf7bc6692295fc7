// One renderer module per rule system; anything else falls back to the generic tree.
// A renderer exports render(target, ctx) with ctx = { view, version, toAct, events, game, width }.
import * as dayOfBattle from "./day-of-battle.js";
import * as generic from "./generic.js";
import * as kingdomsOfCrusaders from "./kingdoms-of-crusaders.js";
import * as openTable from "./open-table.js";
import * as saladin from "./saladin.js";
import * as saline from "./saline.js";

const RENDERERS = {
  "day-of-battle": dayOfBattle,
  "kingdoms-of-crusaders": kingdomsOfCrusaders,
  "open-table": openTable,
  saladin,
  saline,
  "saxon-shore": await import("./saxon-shore.js").catch((error) => { console.error(error); return generic; }),
};

export function rendererFor(rules) {
  return RENDERERS[rules] || generic;
}

export { generic };
