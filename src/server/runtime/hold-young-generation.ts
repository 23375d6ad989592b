/**
 * Imported first by the `spritzer` command (main.ts), so that the young generation is held at its initial size
 * while the rest of the server's modules evaluate and the server starts; main.ts releases it once the server and
 * its exec engine are ready (young-generation.ts).
 */
import { holdYoungGeneration } from './young-generation.ts';

holdYoungGeneration();
