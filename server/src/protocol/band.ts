// The diffusion curve over several seeds of one scenario: at each game hour, the agents aware in each
// world, their mean, sample sd and 95% interval of the mean (Student's t), and the range.

export interface BandPoint {
  /** Game ms of the hour (the worlds of one scenario share their start). */
  ms: number;
  /** Agents aware in each world, in the order of `worlds`. */
  values: number[];
  mean: number;
  sd: number;
  /** The 95% interval of the mean, clamped to [0, agents]. */
  lo: number;
  hi: number;
  min: number;
  max: number;
}

export interface TopicBand {
  name: string;
  phrase: string;
  points: BandPoint[];
}

export interface DiffusionBand {
  worlds: string[];
  /** The most agents any of the worlds had (the y axis). */
  agents: number;
  /** Topics that every world tracks. */
  topics: TopicBand[];
}
