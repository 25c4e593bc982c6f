import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { drawnLayers } from '../../client/src/view/mapLayers';

const tile = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'tilelayer', visible: true, ...extra });

describe('the tile layers the client draws', () => {
  it('draws every visible tile layer of the shipped town, in order, but not collision', () => {
    const town = JSON.parse(fs.readFileSync('maps/town.tmj', 'utf8'));
    expect(drawnLayers(town)).toEqual([
      { name: 'ground', above: false },
      { name: 'walls', above: false },
      { name: 'furniture', above: false },
    ]);
  });

  it('draws layers named any way, flattens groups as Phaser names them, and skips hidden ones', () => {
    const map = {
      layers: [
        tile('Terrain'),
        { name: 'Buildings', type: 'group', visible: true, layers: [tile('Floors'), tile('Walls'), tile('Scratch', { visible: false })] },
        { name: 'Old', type: 'group', visible: false, layers: [tile('Ruins')] },
        { name: 'places', type: 'objectgroup', visible: true },
        tile('collision', { visible: true }),
        { name: 'Backdrop', type: 'imagelayer', visible: true },
      ],
    };
    expect(drawnLayers(map)).toEqual([
      { name: 'Terrain', above: false },
      { name: 'Buildings/Floors', above: false },
      { name: 'Buildings/Walls', above: false },
    ]);
  });

  it('puts a layer above the agents by its `above` property, a group\'s, or a name like "Above Player"', () => {
    const map = {
      layers: [
        tile('Below Player'),
        tile('Roofs', { properties: [{ name: 'above', type: 'bool', value: true }] }),
        {
          name: 'Canopy',
          type: 'group',
          properties: [{ name: 'above', type: 'bool', value: true }],
          layers: [tile('Leaves'), tile('Trunks', { properties: [{ name: 'above', type: 'bool', value: false }] })],
        },
        tile('Above Player'),
        tile('Foreground L1'),
        tile('overhead wires'),
        tile('Foreground but low', { properties: [{ name: 'above', type: 'bool', value: false }] }),
      ],
    };
    expect(drawnLayers(map).map((l) => [l.name, l.above])).toEqual([
      ['Below Player', false],
      ['Roofs', true],
      ['Canopy/Leaves', true],
      ['Canopy/Trunks', false],
      ['Above Player', true],
      ['Foreground L1', true],
      ['overhead wires', true],
      ['Foreground but low', false],
    ]);
  });
});
