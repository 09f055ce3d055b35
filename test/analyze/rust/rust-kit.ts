import { rustFrontEnd } from '../../../src/analyze/rust/rust-front-end.js';
import { frontEndKit } from '../front-end-kit.js';

export { access, dedent as rs, edgeList, findEdge, unitOf } from '../front-end-kit.js';

/** The rust front end's helpers: see front-end-kit.ts. */
export const { extract, unitsOf, resolveSources } = frontEndKit(rustFrontEnd);
