/** The Action's entry point, bundled by ncc into dist/index.js. No logic here: the run is in run.ts. */
import { run } from './run.js';

await run();
