import { pythonFrontEnd } from '../../../src/analyze/python/python-front-end.js';
import { frontEndKit } from '../front-end-kit.js';

export { access, dedent as py, edgeList, findEdge, unitOf } from '../front-end-kit.js';

/** The python front end's helpers: see front-end-kit.ts. */
export const { extract, unitsOf, resolveSources } = frontEndKit(pythonFrontEnd);
