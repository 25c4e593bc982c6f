// Which tile layers of a Tiled map are drawn, and which of them go above the agents: one rule for the
// page (which draws them) and the server (whose collision rule leaves the layers agents walk under).
// Every visible tile layer is drawn, in the map's order, groups flattened (Phaser names a layer in a
// group "group/layer"). Not drawn: the `collision` layer, and any layer hidden in Tiled (or inside a
// hidden group). Above the agents: a layer, or a group around it, with the boolean custom property
// `above` set to true; or a layer whose name starts with "above", "overhead" or "foreground" (any case),
// as in "Above Player" or "Foreground L1". `above: false` keeps such a name below. See maps/README.md.

export interface TiledLayerJson {
  name: string;
  type: string;
  visible?: boolean;
  properties?: Array<{ name: string; value?: unknown }>;
  layers?: unknown[];
}

export interface DrawnLayer {
  /** The name Phaser gives it: the group path and the layer's name, "Group/Layer". */
  name: string;
  above: boolean;
}

const ABOVE_NAME = /^(above|overhead|foreground)/i;

/** A layer's boolean custom property, or undefined when it has none (Tiled writes bools; "true" as text counts too). */
export function boolProperty(layer: { properties?: Array<{ name: string; value?: unknown }> }, name: string): boolean | undefined {
  const p = layer.properties?.find((x) => x.name === name);
  return p === undefined ? undefined : p.value === true || p.value === 'true';
}

/** Whether a tile layer is drawn above the agents, given what its groups say (undefined: nothing). */
export function isAboveAgents(layer: TiledLayerJson, groupAbove: boolean | undefined): boolean {
  return boolProperty(layer, 'above') ?? groupAbove ?? ABOVE_NAME.test(layer.name);
}

/** The tile layers to draw, bottom to top. */
export function drawnLayers(map: { layers?: TiledLayerJson[] }): DrawnLayer[] {
  const out: DrawnLayer[] = [];
  const walk = (layers: readonly TiledLayerJson[], prefix: string, groupAbove: boolean | undefined): void => {
    for (const layer of layers) {
      if (layer.visible === false) continue;
      if (layer.type === 'group') walk((layer.layers ?? []) as TiledLayerJson[], `${prefix}${layer.name}/`, boolProperty(layer, 'above') ?? groupAbove);
      else if (layer.type === 'tilelayer' && layer.name !== 'collision') out.push({ name: `${prefix}${layer.name}`, above: isAboveAgents(layer, groupAbove) });
    }
  };
  walk(map.layers ?? [], '', undefined);
  return out;
}
