import { goFrontEnd } from '../../../src/analyze/go/go-front-end.js';
import { frontEndKit } from '../front-end-kit.js';

export { access, dedent as go, edgeList, findEdge, unitOf } from '../front-end-kit.js';

/** The go front end's helpers: see front-end-kit.ts. */
export const { extract, unitsOf, resolveSources } = frontEndKit(goFrontEnd);
