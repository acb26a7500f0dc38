/** Entry point of `npm run soak`: the orchestration lives in main.ts. */
import { main } from './main.js';

process.exitCode = await main();
