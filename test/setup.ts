// Property tests run on a fixed seed so CI is repeatable; `FC_SEED=random npm test` explores new inputs.
import fc from 'fast-check';

const seed = process.env.FC_SEED;
if (seed !== 'random') fc.configureGlobal({ seed: seed ? Number(seed) : 20_261_122 });
