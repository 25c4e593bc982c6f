// The soak's plot (bench/soak.ts soakSvg): its hour labels stay apart however long the run, so a week-long plot reads.
import { describe, expect, it } from 'vitest';
import { soakSvg, type SoakSample } from '../../bench/soak';

const samples = (hours: number): SoakSample[] =>
  Array.from({ length: hours + 1 }, (_, h) => ({
    gameHour: h,
    wallS: h * 30,
    rssMb: 400 + h,
    heapMb: 150,
    heapTotalMb: 300,
    externalMb: 80,
    cacheMb: h / 2,
    cacheBytes: h * 524_288,
    cacheAgents: 1000,
    cacheVectors: h * 100,
    arrayBuffersMb: 50,
    cpuMs: h * 6000,
    fileKb: 18_000 + h * 6_000,
    memories: h * 25_000,
  }));

/** The hour labels under the x axis: [x, the label]. */
function hourLabels(svg: string): Array<[number, string]> {
  return [...svg.matchAll(/<text x="([\d.]+)" y="\d+" text-anchor="middle">(\d+:00)<\/text>/g)].map((m) => [Number(m[1]), m[2]]);
}

describe('soakSvg', () => {
  it.each([
    [24, 3],
    [72, 6],
    [96, 12],
    [168, 12],
    [336, 24],
    [720, 48],
    [2016, 144],
  ])('labels a %i-hour run every %i game hours, at least 40 px apart, from 0:00 to its end', (hours, step) => {
    const labels = hourLabels(soakSvg(samples(hours), 'test'));
    expect(labels[0][1]).toBe('0:00');
    expect(labels.at(-1)![1]).toBe(`${hours}:00`);
    expect(labels.map(([, text]) => text)).toEqual(Array.from({ length: hours / step + 1 }, (_, i) => `${i * step}:00`));
    for (let i = 1; i < labels.length; i++) expect(labels[i][0] - labels[i - 1][0]).toBeGreaterThanOrEqual(40);
  });
});
