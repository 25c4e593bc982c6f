// Which tile layers of a Tiled map the client draws, and which of them go above the agents.
// Every visible tile layer is drawn, in the map's order, groups flattened (Phaser names a layer in a
// group "group/layer"). Not drawn: the `collision` layer, and any layer hidden in Tiled (or inside a
// hidden group). Above the agents: a layer, or a group around it, with the boolean custom property
// `above` set to true; or a layer whose name starts with "above", "overhead" or "foreground" (any case),
// as in "Above Player" or "Foreground L1". `above: false` keeps such a name below. See maps/README.md.

interface TiledLayerJson {
  name: string;
  type: string;
  visible?: boolean;
  properties?: Array<{ name: string; value: unknown }>;
  layers?: TiledLayerJson[];
}

export interface DrawnLayer {
  /** The name Phaser gives it: the group path and the layer's name, "Group/Layer". */
  name: string;
  above: boolean;
}

const ABOVE_NAME = /^(above|overhead|foreground)/i;

function aboveProperty(layer: TiledLayerJson): boolean | undefined {
  const p = layer.properties?.find((x) => x.name === 'above');
  return p === undefined ? undefined : p.value === true || p.value === 'true';
}

/** The tile layers to draw, bottom to top. */
export function drawnLayers(map: { layers?: TiledLayerJson[] }): DrawnLayer[] {
  const out: DrawnLayer[] = [];
  const walk = (layers: readonly TiledLayerJson[], prefix: string, groupAbove: boolean | undefined): void => {
    for (const layer of layers) {
      if (layer.visible === false) continue;
      const own = aboveProperty(layer);
      if (layer.type === 'group') walk(layer.layers ?? [], `${prefix}${layer.name}/`, own ?? groupAbove);
      else if (layer.type === 'tilelayer' && layer.name !== 'collision')
        out.push({ name: `${prefix}${layer.name}`, above: own ?? groupAbove ?? ABOVE_NAME.test(layer.name) });
    }
  };
  walk(map.layers ?? [], '', undefined);
  return out;
}
