// Which tile layers of a Tiled map the client draws, and which of them go above the agents: the rule is
// shared with the server (its collision rule leaves the layers agents walk under), in protocol/mapLayers.ts.
export { drawnLayers, type DrawnLayer } from '@protocol/mapLayers';
