import type { Handbook } from '../api/open-handbook.js';
import type { Neighbour as GraphNeighbour } from '../graph/program-graph.js';
import { type LivePlace, livePlacesOf, liveSpotOf } from '../locate/live-place.js';
import type { Neighbour, UnitResponse } from './api-schemas.js';
import { ApiError } from './api-error.js';
import type { LiveUnits } from './live-units.js';
import { liveLineIn, liveSiteOf } from './sites.js';

/** One unit with where it stands on disk now, its stage, and the units it calls and is called by, each where it stands now too. */
export async function unitAnswer(handbook: Handbook, id: string, live: LiveUnits, stageOf: ReadonlyMap<string, string>): Promise<UnitResponse> {
  const { graph } = handbook;
  const unit = graph.getUnit(id);
  if (!unit) throw new ApiError(404, `no unit "${id}"`);
  const [resolved, callers, callees] = await Promise.all([live.resolve(unit), livePlacesOf(graph.callers(unit.id), live), livePlacesOf(graph.callees(unit.id), live)]);
  // A moved unit's live lines are lines of the file it moved to: the page shows that file, or it would light lines the code left.
  const at = liveSpotOf(unit, resolved);
  return {
    unit: {
      id: unit.id,
      symbol: unit.symbol,
      kind: unit.kind,
      file: unit.file,
      line: unit.startLine,
      endLine: unit.endLine,
      ...(unit.doc ? { doc: unit.doc } : {}),
      ...(unit.signature ? { signature: unit.signature } : {}),
      stage: stageOf.get(unit.id) ?? null,
    },
    status: resolved.status,
    ...(resolved.reason ? { reason: resolved.reason } : {}),
    liveFile: at.file,
    liveSymbol: at.symbol,
    liveLine: resolved.line,
    liveEndLine: resolved.endLine,
    ...(resolved.status === 'frozen' ? {} : { liveHash: resolved.hash }),
    // A caller links to its call, which is where the reader goes next; a callee to its own first line.
    callers: callers.map((caller) => neighbourOf(caller, caller.listed.lines[0])),
    callees: callees.map((callee) => neighbourOf(callee)),
  };
}

/** A neighbour as the site the build recorded (at `call`, a line inside it, when given), with where its code stands now. */
function neighbourOf({ listed: { unit }, live }: LivePlace<GraphNeighbour>, call?: number): Neighbour {
  const liveCall = call === undefined ? undefined : liveLineIn(call, unit, live);
  return { ...liveSiteOf(unit, live, call), ...(liveCall === undefined ? {} : { liveCallLine: liveCall }) };
}
